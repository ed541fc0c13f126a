package fetch

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var secretHeaders = []Header{
	{"Authorization", "Bearer top-secret"},
	{"Cookie", "session=abc"},
	{"X-Api-Key", "k-123"},
}

// recorder remembers the headers of every request a server got.
type recorder struct {
	mu   sync.Mutex
	seen []http.Header
}

func (r *recorder) add(h http.Header) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, h.Clone())
}

func (r *recorder) all() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header{}, r.seen...)
}

func TestRedirectSameOriginKeepsHeaders(t *testing.T) {
	rec := &recorder{}
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		rec.add(r.Header)
		switch r.URL.Path {
		case "/a":
			http.Redirect(w, r, "/b", http.StatusMovedPermanently)
		case "/b":
			http.Redirect(w, r, "/c", http.StatusTemporaryRedirect)
		default:
			fmt.Fprint(w, "done")
		}
	})
	doc := mustFetch(t, &Engine{}, Request{URL: s.URL + "/a", Headers: secretHeaders})
	if doc.FinalURL != s.URL+"/c" || len(doc.Warnings) != 0 {
		t.Fatalf("final %s warnings %v", doc.FinalURL, doc.Warnings)
	}
	for i, h := range rec.all() {
		if h.Get("Authorization") != "Bearer top-secret" || h.Get("Cookie") != "session=abc" || h.Get("X-Api-Key") != "k-123" {
			t.Errorf("request %d lacks caller headers: %v", i, h)
		}
	}
}

func TestRedirectCrossOriginDropsEveryCallerHeader(t *testing.T) {
	recA, recB := &recorder{}, &recorder{}
	var a, b string
	srvB := serve(t, func(w http.ResponseWriter, r *http.Request) {
		recB.add(r.Header)
		if r.URL.Path == "/back" {
			// Back to the first origin: the headers stay dropped.
			http.Redirect(w, r, a+"/final", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/back", http.StatusFound)
	})
	b = srvB.URL
	srvA := serve(t, func(w http.ResponseWriter, r *http.Request) {
		recA.add(r.Header)
		if r.URL.Path == "/final" {
			fmt.Fprint(w, "arrived")
			return
		}
		http.Redirect(w, r, b+"/hop", http.StatusFound)
	})
	a = srvA.URL
	doc := mustFetch(t, &Engine{}, Request{URL: a + "/start", Headers: secretHeaders})
	if doc.FinalURL != a+"/final" || doc.Markdown != "arrived\n" {
		t.Fatalf("final %s markdown %q", doc.FinalURL, doc.Markdown)
	}
	seenA := recA.all()
	if seenA[0].Get("Authorization") == "" {
		t.Fatalf("first request lacks the caller's headers")
	}
	for i, h := range append(recB.all(), seenA[1:]...) {
		for _, sh := range secretHeaders {
			if v := h.Get(sh.Name); v != "" {
				t.Errorf("request %d after the cross-origin hop got %s: %s", i, sh.Name, v)
			}
		}
	}
	if !hasWarning(doc, WarnCrossOriginRedirect) {
		t.Fatalf("no %s warning: %v", WarnCrossOriginRedirect, doc.Warnings)
	}
	if n := strings.Count(fmt.Sprint(doc.Warnings), WarnCrossOriginRedirect); n != 1 {
		t.Errorf("%d cross-origin warnings, want 1 (headers are dropped once)", n)
	}
	wantContains(t, doc.Warnings[0].Message, "Authorization", "Cookie", "X-Api-Key")
	wantLacks(t, doc.Warnings[0].Message, "top-secret", "abc", "k-123")
}

func TestOriginComparesSchemeHostAndPort(t *testing.T) {
	same := [][2]string{
		{"http://Example.com/a", "http://example.com:80/b"},
		{"https://example.com/a", "https://example.com:443/b?q"},
	}
	differ := [][2]string{
		{"http://example.com/", "https://example.com/"},
		{"http://example.com/", "http://example.com:8080/"},
		{"http://example.com/", "http://www.example.com/"},
	}
	for _, p := range same {
		if origin(mustParse(t, p[0])) != origin(mustParse(t, p[1])) {
			t.Errorf("%s and %s should share an origin", p[0], p[1])
		}
	}
	for _, p := range differ {
		if origin(mustParse(t, p[0])) == origin(mustParse(t, p[1])) {
			t.Errorf("%s and %s should differ in origin", p[0], p[1])
		}
	}
}

// chain redirects /r/N to /r/N-1 … /r/0, which answers.
func chain(t *testing.T) string {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
		if n == 0 {
			fmt.Fprint(w, "end of chain")
			return
		}
		http.Redirect(w, r, "/r/"+strconv.Itoa(n-1), http.StatusFound)
	})
	return s.URL
}

func TestRedirectLimit(t *testing.T) {
	base := chain(t)
	doc := mustFetch(t, &Engine{}, Request{URL: base + "/r/5"})
	if doc.FinalURL != base+"/r/0" {
		t.Fatalf("5 redirects: final %s", doc.FinalURL)
	}
	fe := fetchErr(t, &Engine{}, Request{URL: base + "/r/6"})
	wantCode(t, fe, CodeLimitExceeded)
	if fe.Limit != LimitRedirects || fe.Max != 5 {
		t.Fatalf("limit %s max %d", fe.Limit, fe.Max)
	}
	wantContains(t, fe.Message, "5 redirects")

	fe = fetchErr(t, &Engine{Limits: Limits{Redirects: 2}}, Request{URL: base + "/r/3"})
	wantCode(t, fe, CodeLimitExceeded)
}

func TestRedirectLoop(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			http.Redirect(w, r, "/b", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/a", http.StatusFound)
	})
	fe := fetchErr(t, &Engine{}, Request{URL: s.URL + "/a"})
	wantCode(t, fe, CodeUpstreamError)
	wantContains(t, fe.Message, "redirect loop", "/a")

	self := serve(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path, http.StatusFound) })
	wantContains(t, fetchErr(t, &Engine{}, Request{URL: self.URL + "/x"}).Message, "redirect loop")
}

func TestRedirectBadLocation(t *testing.T) {
	for loc, want := range map[string]string{
		"":                    "without a Location",
		"ftp://example.com/f": "not an http or https URL",
		"http://[::1":         "Location",
	} {
		s := serve(t, func(w http.ResponseWriter, r *http.Request) {
			if loc != "" {
				w.Header().Set("Location", loc)
			}
			w.WriteHeader(http.StatusFound)
		})
		fe := fetchErr(t, &Engine{}, Request{URL: s.URL})
		wantCode(t, fe, CodeUpstreamError)
		wantContains(t, fe.Message, want)
	}
}

func TestRedirectKeepsFragment(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			http.Redirect(w, r, "/b", http.StatusFound)
			return
		}
		fmt.Fprint(w, "x")
	})
	doc := mustFetch(t, &Engine{}, Request{URL: s.URL + "/a?q=1#sec"})
	if doc.FinalURL != s.URL+"/b#sec" {
		t.Fatalf("final %s", doc.FinalURL)
	}
}
