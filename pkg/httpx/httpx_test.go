package httpx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx/httpxtest"
)

// tiny bounds every phase by a few milliseconds; the fakes below stall for
// good, so no test depends on how fast the machine is.
var tiny = Timeouts{Connect: time.Second, TLSHandshake: time.Second, ResponseHeader: 50 * time.Millisecond, IdleBody: 50 * time.Millisecond}

// stallingServer sends headers and a first chunk, then nothing more.
func stallingServer(t *testing.T) string {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv.URL
}

func TestResponseHeaderTimeout(t *testing.T) {
	url := httpxtest.NewSilent(t).URL
	resp, err := NewHTTPClient(tiny).Get(url)
	if resp != nil {
		resp.Body.Close()
	}
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseResponseHeader {
		t.Fatalf("err = %v, want a response_header timeout", err)
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err = %v is not a net.Error timeout", err)
	}
	if !strings.Contains(err.Error(), "sent no response within 50ms") {
		t.Fatalf("message %q", err)
	}
}

func TestIdleBodyTimeout(t *testing.T) {
	resp, err := NewHTTPClient(Timeouts{IdleBody: tiny.IdleBody}).Get(stallingServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Phase != PhaseIdleBody {
		t.Fatalf("err = %v, want an idle_body timeout", err)
	}
	if string(b) != "data: first\n\n" {
		t.Fatalf("read %q before the stall", b)
	}
}

func TestIdleBodyResetsOnEachRead(t *testing.T) {
	// Ten chunks, each after a pause longer than half the gap: the whole
	// body takes far longer than one gap, yet never stalls for one.
	gap := 400 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 10 {
			time.Sleep(gap / 4)
			fmt.Fprintf(w, "%d", i)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	resp, err := NewHTTPClient(Timeouts{IdleBody: gap}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || string(b) != "0123456789" {
		t.Fatalf("read %q, %v", b, err)
	}
}

func TestNoBoundWhenZero(t *testing.T) {
	if tr := NewTransport(Timeouts{}); tr.ResponseHeaderTimeout != 0 || tr.TLSHandshakeTimeout != 0 {
		t.Fatalf("zero timeouts set bounds: %v %v", tr.ResponseHeaderTimeout, tr.TLSHandshakeTimeout)
	}
	got := Timeouts{ResponseHeader: time.Second}.Or(ProviderTimeouts)
	if got.ResponseHeader != time.Second || got.IdleBody != ProviderTimeouts.IdleBody || got.Connect != ProviderTimeouts.Connect {
		t.Fatalf("Or = %+v", got)
	}
}

// scripted answers with one status per request, in order.
func scripted(t *testing.T, statuses ...int) (string, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(statuses[min(i, len(statuses)-1)])
		fmt.Fprintf(w, "%s %s %s", r.Method, r.Header.Get("X-Test"), body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

func TestDoRetriesAnnouncesThenWaits(t *testing.T) {
	url, n := scripted(t, 503, 429, 200)
	var log []string
	c := &Client{Policy: Policy{MaxRetries: 3, BaseDelay: time.Second, MaxDelay: time.Minute},
		Sleep: func(ctx context.Context, d time.Duration) error {
			log = append(log, fmt.Sprintf("sleep %s", d))
			return nil
		}}
	var bodies []string
	attempts, err := c.Do(context.Background(), &Exchange{
		Method: http.MethodPost, URL: url, Header: http.Header{"X-Test": {"h"}}, Body: []byte("b"),
		Handle: func(resp *http.Response, err error) Verdict {
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			bodies = append(bodies, string(b))
			switch resp.StatusCode {
			case 503:
				return Verdict{Retry: true, Reason: "busy"}
			case 429:
				return Verdict{Retry: true, After: RetryAfter(resp.Header, time.Now()), Reason: "slow down"}
			}
			return Verdict{}
		},
		OnRetry: func(attempt int, wait time.Duration, reason string) {
			log = append(log, fmt.Sprintf("retry %d %s %s", attempt, wait, reason))
		},
	})
	if err != nil || attempts != 3 || n.Load() != 3 {
		t.Fatalf("attempts %d, requests %d, err %v", attempts, n.Load(), err)
	}
	want := "[retry 1 1s busy sleep 1s retry 2 7s slow down sleep 7s]"
	if fmt.Sprint(log) != want {
		t.Fatalf("log %v, want %s", log, want)
	}
	if fmt.Sprint(bodies) != "[POST h b POST h b POST h b]" {
		t.Fatalf("bodies %q", bodies)
	}
}

func TestDoStopsAtPolicy(t *testing.T) {
	for _, retries := range []int{0, 2} {
		url, n := scripted(t, 500)
		judged := 0
		c := &Client{Policy: Policy{MaxRetries: retries, BaseDelay: time.Millisecond}, Sleep: func(context.Context, time.Duration) error { return nil }}
		announced := 0
		attempts, err := c.Do(context.Background(), &Exchange{Method: http.MethodGet, URL: url,
			Handle:  func(*http.Response, error) Verdict { judged++; return Verdict{Retry: true} },
			OnRetry: func(int, time.Duration, string) { announced++ },
		})
		if err != nil || attempts != retries+1 || judged != retries+1 || announced != retries || int(n.Load()) != retries+1 {
			t.Fatalf("retries %d: attempts %d judged %d announced %d requests %d err %v", retries, attempts, judged, announced, n.Load(), err)
		}
	}
}

func TestDoRetriesHeaderTimeoutThenGivesUp(t *testing.T) {
	url := httpxtest.NewSilent(t).URL
	c := &Client{HTTP: NewHTTPClient(tiny), Policy: Policy{MaxRetries: 2, BaseDelay: time.Millisecond}, Sleep: func(context.Context, time.Duration) error { return nil }}
	var errs []error
	attempts, err := c.Do(context.Background(), &Exchange{Method: http.MethodPost, URL: url, Body: []byte("{}"),
		Handle: func(resp *http.Response, err error) Verdict {
			errs = append(errs, err)
			return Verdict{Retry: err != nil}
		}})
	if err != nil || attempts != 3 {
		t.Fatalf("attempts %d, err %v", attempts, err)
	}
	for _, e := range errs {
		var te *TimeoutError
		if !errors.As(e, &te) || te.Phase != PhaseResponseHeader {
			t.Fatalf("attempt error %v", e)
		}
	}
}

func TestDoCancelDuringWait(t *testing.T) {
	url, n := scripted(t, 500, 200)
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{Policy: Policy{MaxRetries: 3, BaseDelay: time.Hour}}
	_, err := c.Do(ctx, &Exchange{Method: http.MethodGet, URL: url,
		Handle:  func(*http.Response, error) Verdict { return Verdict{Retry: true} },
		OnRetry: func(int, time.Duration, string) { cancel() },
	})
	if !errors.Is(err, context.Canceled) || n.Load() != 1 {
		t.Fatalf("err %v after %d requests", err, n.Load())
	}
}

func TestDoBadURL(t *testing.T) {
	c := &Client{}
	for _, u := range []string{"::nope", "/relative", "http://%zz"} {
		_, err := c.Do(context.Background(), &Exchange{Method: http.MethodGet, URL: u, Handle: func(*http.Response, error) Verdict {
			t.Fatal("sent")
			return Verdict{}
		}})
		var ue *URLError
		if !errors.As(err, &ue) {
			t.Fatalf("%q: err %v", u, err)
		}
	}
}

func TestPolicyDelay(t *testing.T) {
	p := Policy{BaseDelay: time.Second, MaxDelay: 10 * time.Second}
	for _, tt := range []struct {
		attempt int
		asked   time.Duration
		want    time.Duration
	}{{1, 0, time.Second}, {3, 0, 4 * time.Second}, {60, 0, 10 * time.Second}, {1, 3 * time.Second, 3 * time.Second}, {1, time.Hour, 10 * time.Second}} {
		if got := p.Delay(tt.attempt, tt.asked); got != tt.want {
			t.Errorf("Delay(%d, %v) = %v, want %v", tt.attempt, tt.asked, got, tt.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		h    map[string]string
		want time.Duration
	}{
		{nil, 0},
		{map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After": now.Add(30 * time.Second).Format(http.TimeFormat)}, 30 * time.Second},
		{map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": "2", "retry-after-ms": "250"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After": "2", "retry-after-ms": "x"}, 2 * time.Second},
		{map[string]string{"Retry-After": "1e300"}, time.Duration(1<<63 - 1)},
	} {
		h := http.Header{}
		for k, v := range tt.h {
			h.Set(k, v)
		}
		if got := RetryAfter(h, now); got != tt.want {
			t.Errorf("RetryAfter(%v) = %v, want %v", tt.h, got, tt.want)
		}
	}
}
