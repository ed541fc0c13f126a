package providers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// recSink records what a Transport tells the sink.
type recSink struct {
	text    strings.Builder
	retries []string
	waits   []time.Duration
}

func (s *recSink) TextDelta(t string)    { s.text.WriteString(t) }
func (s *recSink) ReasoningDelta(string) {}
func (s *recSink) Retry(n int, d time.Duration, reason string) {
	s.retries = append(s.retries, fmt.Sprintf("%d:%s", n, reason))
	s.waits = append(s.waits, d)
}

// scripted serves one handler per request, in order, and counts requests.
type scripted struct {
	mu       sync.Mutex
	handlers []http.HandlerFunc
	n        int
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	i := s.n
	s.n++
	s.mu.Unlock()
	if i >= len(s.handlers) {
		http.Error(w, "no more handlers", http.StatusTeapot)
		return
	}
	s.handlers[i](w, r)
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func status(code int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// textDecode returns the body as one text delta and response.
func textDecode(resp *http.Response, sink Sink) (*Response, error) {
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, StreamCut("while reading", err)
	}
	sink.TextDelta(string(b))
	return &Response{Message: Message{Role: RoleAssistant, Parts: []Part{{Type: PartText, Text: string(b)}}}}, nil
}

// messageClassify takes the whole body as the message (fine for tests).
func messageClassify(f *HTTPFailure) *Error {
	return &Error{Code: CodeForStatus(f.Status), Message: string(f.Body)}
}

func newTestTransport(policy RetryPolicy) (*Transport, *[]time.Duration) {
	var slept []time.Duration
	tr := &Transport{Policy: policy, Sleep: func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		return ctx.Err()
	}}
	return tr, &slept
}

func serve(t *testing.T, handlers ...http.HandlerFunc) (*httptest.Server, *scripted) {
	s := &scripted{handlers: handlers}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv, s
}

func TestTransportRetriesThenSucceeds(t *testing.T) {
	srv, s := serve(t,
		status(429, "slow down", "Retry-After", "2"),
		status(503, "busy"),
		status(200, "hello"),
	)
	tr, slept := newTestTransport(RetryPolicy{})
	sink := &recSink{}
	resp, err := tr.Do(context.Background(), &Call{URL: srv.URL, Body: []byte("{}"), Classify: messageClassify, Decode: textDecode}, sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "hello" || s.count() != 3 {
		t.Fatalf("text %q after %d requests", resp.Message.Text(), s.count())
	}
	want := []time.Duration{2 * time.Second, 2 * time.Second}
	if fmt.Sprint(*slept) != fmt.Sprint(want) || fmt.Sprint(sink.waits) != fmt.Sprint(want) {
		t.Fatalf("slept %v, announced %v, want %v (Retry-After, then 1s doubled)", *slept, sink.waits, want)
	}
	if sink.retries[0] != "1:rate_limited (HTTP 429): slow down" || sink.retries[1] != "2:overloaded (HTTP 503): busy" {
		t.Fatalf("retries = %q", sink.retries)
	}
}

func TestTransportGivesUp(t *testing.T) {
	srv, s := serve(t, status(500, "a"), status(500, "b"), status(500, "c"), status(502, "last"))
	tr, slept := newTestTransport(RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 3 * time.Millisecond})
	_, err := tr.Do(context.Background(), &Call{URL: srv.URL, Classify: messageClassify, Decode: textDecode}, nil)
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want *Error", err)
	}
	if pe.Status != 502 || pe.Code != ErrProviderError || pe.Message != "last (gave up after 3 retries)" {
		t.Fatalf("err = %#v", pe)
	}
	if s.count() != 4 || fmt.Sprint(*slept) != "[1ms 2ms 3ms]" {
		t.Fatalf("%d requests, slept %v", s.count(), *slept)
	}
}

func TestTransportDoesNotRetry(t *testing.T) {
	for _, tt := range []struct {
		name     string
		policy   RetryPolicy
		classify func(*HTTPFailure) *Error
		handler  http.HandlerFunc
		code     ErrorCode
	}{
		{"400", RetryPolicy{}, messageClassify, status(400, "bad"), ErrProviderError},
		{"401", RetryPolicy{}, messageClassify, status(401, "who"), ErrAuthFailed},
		{"permanent 429", RetryPolicy{}, func(f *HTTPFailure) *Error {
			return &Error{Code: ErrRateLimited, Message: "quota", Err: ErrPermanent}
		}, status(429, "quota"), ErrRateLimited},
		{"retries disabled", RetryPolicy{MaxRetries: -1}, messageClassify, status(500, "x"), ErrProviderError},
		{"nil classifier", RetryPolicy{}, nil, status(404, "<html>nope</html>"), ErrModelNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, s := serve(t, tt.handler, status(200, "should not be reached"))
			tr, _ := newTestTransport(tt.policy)
			_, err := tr.Do(context.Background(), &Call{URL: srv.URL, Classify: tt.classify, Decode: textDecode}, nil)
			if pe := AsError(err); pe.Code != tt.code || strings.Contains(pe.Message, "gave up") {
				t.Fatalf("err = %v, want code %s without retries", err, tt.code)
			}
			if s.count() != 1 {
				t.Fatalf("%d requests, want 1", s.count())
			}
		})
	}
}

func TestTransportNilClassifierHidesBody(t *testing.T) {
	srv, _ := serve(t, status(502, "<html><body>Bad gateway from proxy</body></html>"))
	tr, _ := newTestTransport(RetryPolicy{MaxRetries: -1})
	_, err := tr.Do(context.Background(), &Call{URL: srv.URL, Decode: textDecode}, nil)
	if err == nil || strings.Contains(err.Error(), "html") || !strings.Contains(err.Error(), "502 Bad Gateway") {
		t.Fatalf("err = %v", err)
	}
}

func TestTransportRetriesConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tr, slept := newTestTransport(RetryPolicy{MaxRetries: 2, BaseDelay: time.Millisecond})
	_, err = tr.Do(context.Background(), &Call{URL: "http://" + addr + "/v1/chat?key=secret", Decode: textDecode}, nil)
	pe := AsError(err)
	if pe.Code != ErrProviderError || pe.Status != 0 || !strings.Contains(pe.Message, "cannot reach "+addr) {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(pe.Message, "secret") {
		t.Fatalf("message repeats the URL query: %q", pe.Message)
	}
	if len(*slept) != 2 {
		t.Fatalf("slept %v, want two retries", *slept)
	}
}

func TestTransportCancelDuringWait(t *testing.T) {
	srv, s := serve(t, status(500, "x"), status(200, "late"))
	ctx, cancel := context.WithCancel(context.Background())
	// The real timer-based sleep; the sink cancels as soon as the retry is
	// announced, so the hour-long wait must end at once.
	tr := &Transport{Policy: RetryPolicy{BaseDelay: time.Hour}}
	sink := &cancelOnRetry{cancel: cancel}
	_, err := tr.Do(ctx, &Call{URL: srv.URL, Classify: messageClassify, Decode: textDecode}, sink)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if s.count() != 1 {
		t.Fatalf("%d requests after cancel", s.count())
	}
}

type cancelOnRetry struct {
	recSink
	cancel context.CancelFunc
}

func (s *cancelOnRetry) Retry(int, time.Duration, string) { s.cancel() }

func TestTransportStreamCut(t *testing.T) {
	cutDecode := func(deliver bool) func(*http.Response, Sink) (*Response, error) {
		return func(resp *http.Response, sink Sink) (*Response, error) {
			if deliver {
				sink.TextDelta("partial")
			}
			return nil, StreamCut("no end marker", io.ErrUnexpectedEOF)
		}
	}
	t.Run("after output: not retried", func(t *testing.T) {
		srv, s := serve(t, status(200, ""), status(200, ""))
		tr, _ := newTestTransport(RetryPolicy{})
		sink := &recSink{}
		_, err := tr.Do(context.Background(), &Call{URL: srv.URL, Decode: cutDecode(true)}, sink)
		if !errors.Is(err, ErrStreamCut) || AsError(err).Code != ErrProviderError {
			t.Fatalf("err = %v", err)
		}
		if s.count() != 1 || sink.text.String() != "partial" {
			t.Fatalf("%d requests, text %q", s.count(), sink.text.String())
		}
	})
	t.Run("before output: retried", func(t *testing.T) {
		srv, s := serve(t, status(200, ""), status(200, "whole"))
		tr, _ := newTestTransport(RetryPolicy{})
		first := true
		decode := func(resp *http.Response, sink Sink) (*Response, error) {
			if first {
				first = false
				return cutDecode(false)(resp, sink)
			}
			return textDecode(resp, sink)
		}
		resp, err := tr.Do(context.Background(), &Call{URL: srv.URL, Decode: decode}, nil)
		if err != nil || resp.Message.Text() != "whole" || s.count() != 2 {
			t.Fatalf("resp %v, err %v, %d requests", resp, err, s.count())
		}
	})
}

func TestTransportRedactsSecrets(t *testing.T) {
	srv, _ := serve(t, status(500, "bad key sk-SECRET-123"), status(401, "Incorrect API key provided: sk-SECRET-123"))
	tr, _ := newTestTransport(RetryPolicy{})
	sink := &recSink{}
	_, err := tr.Do(context.Background(), &Call{URL: srv.URL, Classify: messageClassify, Decode: textDecode, Secrets: []string{"", "sk-SECRET-123"}}, sink)
	if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "[redacted]") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(strings.Join(sink.retries, " "), "SECRET") {
		t.Fatalf("retry reason leaks the key: %q", sink.retries)
	}
}

func TestTransportSendsHeadersAndBody(t *testing.T) {
	var gotHeader http.Header
	var gotBody string
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		gotHeader = r.Header.Clone()
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		io.WriteString(w, "ok")
	})
	tr, _ := newTestTransport(RetryPolicy{})
	h := http.Header{}
	h.Set("X-Test", "1")
	_, err := tr.Do(context.Background(), &Call{URL: srv.URL, Header: h, Body: []byte(`{"a":1}`), Decode: textDecode}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if gotHeader.Get("X-Test") != "1" || gotBody != `{"a":1}` {
		t.Fatalf("header %v body %q", gotHeader, gotBody)
	}
}

func TestRetryable(t *testing.T) {
	for _, tt := range []struct {
		err  *Error
		want bool
	}{
		{&Error{Status: 429}, true},
		{&Error{Status: 529}, true},
		{&Error{Status: 500}, true},
		{&Error{Status: 400}, false},
		{&Error{Status: 429, Err: ErrPermanent}, false},
		{&Error{Code: ErrOverloaded}, true},
		{&Error{Code: ErrProviderError}, false},
		{StreamCut("x", nil), true},
		{&Error{Err: &networkError{err: errors.New("reset")}}, true},
		{nil, false},
	} {
		if got := Retryable(tt.err); got != tt.want {
			t.Errorf("Retryable(%#v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestCleanMessage(t *testing.T) {
	if got := CleanMessage("  a \n\t b  "); got != "a b" {
		t.Fatalf("got %q", got)
	}
	long := CleanMessage(strings.Repeat("é", 1000))
	if len(long) > maxMessage+len("…") || !strings.HasSuffix(long, "…") {
		t.Fatalf("long message not bounded: %d bytes", len(long))
	}
}

// A run's requests share one connection: a new client per request would
// mean a TCP (and TLS) handshake every round.
func TestTransportReusesConnections(t *testing.T) {
	var mu sync.Mutex
	conns := 0
	srv := httptest.NewUnstartedServer(status(200, "ok"))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			mu.Lock()
			conns++
			mu.Unlock()
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	tr := &Transport{}
	for i := 0; i < 3; i++ {
		if _, err := tr.Do(context.Background(), &Call{URL: srv.URL, Body: []byte("{}"), Decode: textDecode}, nil); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if conns != 1 {
		t.Fatalf("3 requests opened %d connections, want 1", conns)
	}
}
