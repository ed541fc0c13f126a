package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const articleHTML = `<!doctype html>
<html><head><title>  Fetch   Test Page </title>
<style>body { color: red }</style>
<script>var tracking = "SCRIPT-NOISE";</script>
</head><body>
<nav><a href="/home">NAV-NOISE home</a></nav>
<div role="navigation">ROLE-NAV-NOISE</div>
<h1>Main Heading</h1>
<p>Intro paragraph with a <a href="other.html">relative link</a> and an <a href="/abs">absolute one</a>.</p>
<p hidden>HIDDEN-ATTR-NOISE</p>
<div style="display: none">DISPLAY-NONE-NOISE</div>
<div aria-hidden="true">ARIA-HIDDEN-NOISE</div>
<ul><li>first item</li><li>second item</li></ul>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>
<pre><code class="language-go">func main() {}</code></pre>
<p><a href="javascript:void(0)">script link text</a> <img src="/img/pic.png" alt="a picture"></p>
<form><input type="text" value="INPUT-NOISE"><button>BUTTON-NOISE</button></form>
</body></html>`

func TestFetchHTMLConvertsWholePage(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/start" {
			http.Redirect(w, r, "/docs/page.html", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, articleHTML)
	})
	e := &Engine{}
	doc := mustFetch(t, e, Request{URL: s.URL + "/start", Extract: ExtractFull})
	if doc.Title != "Fetch Test Page" {
		t.Errorf("title %q", doc.Title)
	}
	if doc.Status != 200 || doc.MIME != "text/html" || doc.FinalURL != s.URL+"/docs/page.html" || doc.URL != s.URL+"/start" {
		t.Errorf("metadata %+v", doc)
	}
	wantContains(t, doc.Markdown,
		"# Main Heading",
		"[relative link]("+s.URL+"/docs/other.html)",
		"[absolute one]("+s.URL+"/abs)",
		"- first item",
		"| Name | Value |",
		"| alpha | 1 |",
		"```go\nfunc main() {}\n```",
		"script link text",
		"![a picture]("+s.URL+"/img/pic.png)",
	)
	wantLacks(t, doc.Markdown, "SCRIPT-NOISE", "color: red", "NAV-NOISE", "ROLE-NAV-NOISE", "HIDDEN-ATTR-NOISE",
		"DISPLAY-NONE-NOISE", "ARIA-HIDDEN-NOISE", "INPUT-NOISE", "BUTTON-NOISE", "javascript:")
	if !strings.HasSuffix(doc.Markdown, "\n") {
		t.Errorf("Markdown does not end with a newline")
	}
}

func TestFetchResolvesAgainstBaseHref(t *testing.T) {
	s := serve(t, page("text/html", `<html><head><base href="/base/dir/"></head><body><p><a href="x.html">x</a></p></body></html>`))
	doc := mustFetch(t, &Engine{}, Request{URL: s.URL + "/a/b", Extract: ExtractFull})
	wantContains(t, doc.Markdown, "[x]("+s.URL+"/base/dir/x.html)")
}

func TestFetchSendsCallerHeadersAndDefaults(t *testing.T) {
	var got http.Header
	var host string
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got, host = r.Header.Clone(), r.Host
		fmt.Fprint(w, "ok")
	})
	e := &Engine{UserAgent: "tavo/1.2.3"}
	mustFetch(t, e, Request{URL: s.URL, Headers: []Header{
		{"Authorization", "Bearer secret"}, {"X-Multi", "a"}, {"x-multi", "b"},
		{"Accept-Encoding", "zstd"}, {"Host", "virtual.example"},
	}})
	if got.Get("User-Agent") != "tavo/1.2.3" {
		t.Errorf("User-Agent %q", got.Get("User-Agent"))
	}
	if got.Get("Authorization") != "Bearer secret" || strings.Join(got.Values("X-Multi"), ",") != "a,b" {
		t.Errorf("caller headers not sent: %v", got)
	}
	if got.Get("Accept-Encoding") != acceptEncoding {
		t.Errorf("Accept-Encoding %q, want the engine's", got.Get("Accept-Encoding"))
	}
	if host != "virtual.example" {
		t.Errorf("Host %q", host)
	}

	mustFetch(t, &Engine{}, Request{URL: s.URL, Headers: []Header{{"User-Agent", "custom/1"}}})
	if got.Get("User-Agent") != "custom/1" {
		t.Errorf("caller User-Agent not used: %q", got.Get("User-Agent"))
	}
	mustFetch(t, &Engine{}, Request{URL: s.URL})
	if got.Get("User-Agent") != "tavo" {
		t.Errorf("default User-Agent %q", got.Get("User-Agent"))
	}
}

func TestFetchRejectsBadRequests(t *testing.T) {
	e := &Engine{}
	for _, u := range []string{"", "   ", "ftp://example.com/x", "file:///etc/passwd", "example.com/page", "http://", "http://[::1", "javascript:alert(1)"} {
		wantCode(t, fetchErr(t, e, Request{URL: u}), CodeInvalidArguments)
	}
	for _, h := range []Header{{"Bad Name", "v"}, {"X-Ok", "line\r\nInjected: yes"}, {"Content-Length", "5"}, {"Transfer-Encoding", "chunked"}} {
		wantCode(t, fetchErr(t, e, Request{URL: "http://127.0.0.1:1/", Headers: []Header{h}}), CodeInvalidArguments)
	}
	wantCode(t, fetchErr(t, e, Request{URL: "http://127.0.0.1:1/", Extract: "most"}), CodeInvalidArguments)
}

func TestParseHeader(t *testing.T) {
	h, err := ParseHeader("Authorization:  Bearer x:y ")
	if err != nil || h.Name != "Authorization" || h.Value != "Bearer x:y" {
		t.Fatalf("ParseHeader = %+v, %v", h, err)
	}
	if _, err := ParseHeader("no colon"); err == nil {
		t.Fatal("ParseHeader accepted a line without a colon")
	}
}

func TestFetchUpstreamStatus(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "secret body text", http.StatusNotFound)
	})
	fe := fetchErr(t, &Engine{}, Request{URL: s.URL + "/missing"})
	wantCode(t, fe, CodeUpstreamError)
	wantContains(t, fe.Message, "404 Not Found", "/missing")
	wantLacks(t, fe.Message, "secret body text")
}

func TestFetchUnreachableHost(t *testing.T) {
	s := httptest.NewServer(http.NotFoundHandler())
	u := s.URL
	s.Close()
	wantCode(t, fetchErr(t, &Engine{}, Request{URL: u}), CodeUpstreamError)
}

func TestFetchTimeoutOnEndlessSlowBody(t *testing.T) {
	stop := make(chan struct{})
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	defer close(stop)
	fe := fetchErr(t, &Engine{Timeout: 150 * time.Millisecond}, Request{URL: s.URL})
	wantCode(t, fe, CodeTimeout)
	wantContains(t, fe.Message, "150ms")
}

func TestFetchTimeoutBeforeHeaders(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	wantCode(t, fetchErr(t, &Engine{Timeout: 100 * time.Millisecond}, Request{URL: s.URL}), CodeTimeout)
}

func TestFetchCancelled(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err := (&Engine{}).Fetch(ctx, Request{URL: s.URL})
	var fe *Error
	if !errors.As(err, &fe) || fe.Code != CodeCancelled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want cancelled wrapping context.Canceled", err)
	}
}

func TestFetchInjectedClient(t *testing.T) {
	var used bool
	s := serve(t, page("text/plain", "hello"))
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		used = true
		return http.DefaultTransport.RoundTrip(r)
	})
	follow := 0
	client := &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { follow++; return nil }}
	doc := mustFetch(t, &Engine{Client: client}, Request{URL: s.URL})
	if !used || doc.Markdown != "hello\n" {
		t.Fatalf("injected transport used=%v markdown %q", used, doc.Markdown)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
