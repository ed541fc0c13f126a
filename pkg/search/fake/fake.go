// Package fake serves imitations of the Tavily, SearXNG, Brave Search and Bing
// Web Search APIs and of DuckDuckGo's HTML result page
// on 127.0.0.1 for tests. Each fake checks every request against its API's
// documented contract — method, path, authentication header, body or query
// fields and their ranges — and answers a wrong one the way the real API
// does (Tavily 400/401 with {"detail":{"error":…}}, Brave 422 ErrorResponse,
// SearXNG 400 {"error":…} or 403 when JSON is disabled). They are stricter
// than the real services in one way: a parameter the documentation does not
// list is refused, so a misspelt option fails a test instead of being ignored.
//
// Every request is recorded; scripted replies (Enqueue) stand in for rate
// limits, server errors and malformed answers, and are served only to
// requests that passed the checks.
package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Request is one recorded request.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Query  url.Values
	Body   []byte
}

// Reply is a scripted answer.
type Reply struct {
	Status int
	Header http.Header
	Body   string
}

// Hit is one search result a fake serves, rendered in each API's own shape.
type Hit struct {
	Title   string
	URL     string
	Content string
	// Score is Tavily's relevance and SearXNG's rank weight.
	Score float64
	// Published is the publication time; zero when unknown.
	Published time.Time
}

// DefaultHits are 30 results spread over six hosts, every third dated.
func DefaultHits() []Hit {
	hosts := []string{"docs.example.com", "www.example.org", "blog.example.net", "news.example.com", "example.io", "shop.example.org"}
	hits := make([]Hit, 30)
	base := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range hits {
		h := hosts[i%len(hosts)]
		hits[i] = Hit{
			Title:   fmt.Sprintf("Result %d on %s", i+1, h),
			URL:     fmt.Sprintf("https://%s/page/%d", h, i+1),
			Content: fmt.Sprintf("Snippet %d: a summary of the page on %s.", i+1, h),
			Score:   1 - float64(i)/100,
		}
		if i%3 == 0 {
			hits[i].Published = base.Add(-time.Duration(i) * 24 * time.Hour)
		}
	}
	return hits
}

// server is what the three fakes share: the listener, the request log, the
// reply queue and the hits.
type server struct {
	srv *httptest.Server

	mu       sync.Mutex
	requests []Request
	queue    []Reply
	hits     []Hit
}

// check validates a request; a non-nil reply refuses it.
type check func(r *Request) *Reply

// answer builds the normal answer to a valid request.
type answer func(r *Request, hits []Hit) Reply

func newServer(c check, a answer) *server {
	s := &server{hits: DefaultHits()}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, hr *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(hr.Body, 1<<20))
		req := Request{Method: hr.Method, Path: hr.URL.Path, Header: hr.Header.Clone(), Query: hr.URL.Query(), Body: body}
		s.mu.Lock()
		s.requests = append(s.requests, req)
		hits := append([]Hit(nil), s.hits...)
		s.mu.Unlock()

		rep := c(&req)
		if rep == nil {
			s.mu.Lock()
			if len(s.queue) > 0 {
				q := s.queue[0]
				s.queue = s.queue[1:]
				rep = &q
			}
			s.mu.Unlock()
		}
		if rep == nil {
			r := a(&req, hits)
			rep = &r
		}
		write(w, *rep)
	}))
	return s
}

func write(w http.ResponseWriter, r Reply) {
	for k, vs := range r.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	status := r.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, r.Body)
}

// URL is the fake's base URL (http://127.0.0.1:port).
func (s *server) URL() string { return s.srv.URL }

// Close shuts the fake down.
func (s *server) Close() { s.srv.Close() }

// Client is an HTTP client that reaches the fake.
func (s *server) Client() *http.Client { return s.srv.Client() }

// Requests returns every request received so far, oldest first.
func (s *server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Last returns the latest request; ok is false when none came.
func (s *server) Last() (r Request, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == 0 {
		return Request{}, false
	}
	return s.requests[len(s.requests)-1], true
}

// Enqueue scripts replies for the next valid requests, in order.
func (s *server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// SetHits replaces the results the fake serves.
func (s *server) SetHits(hits []Hit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits = append([]Hit(nil), hits...)
}

// hostOf returns a hit's lower-case host.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// inDomain reports whether host is domain or below it.
func inDomain(host, domain string) bool {
	domain = strings.ToLower(domain)
	return host == domain || strings.HasSuffix(host, "."+domain)
}

// marshal writes v as JSON the way the real APIs do, without escaping
// <, > and & (Brave's match markers arrive as raw <strong>).
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// Malformed is a 200 answer that is not JSON, as a misconfigured proxy
// would send.
func Malformed() Reply {
	return Reply{Status: http.StatusOK, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<html><body>Welcome to nginx!</body></html>"}
}
