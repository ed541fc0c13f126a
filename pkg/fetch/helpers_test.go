package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// serve starts a local server answering every request with h.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

// page answers with a fixed body and Content-Type.
func page(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		} else {
			w.Header()["Content-Type"] = nil // keep net/http from sniffing one
		}
		_, _ = w.Write([]byte(body))
	}
}

func mustFetch(t *testing.T, e *Engine, req Request) *Document {
	t.Helper()
	doc, err := e.Fetch(context.Background(), req)
	if err != nil {
		t.Fatalf("Fetch(%s): %v", req.URL, err)
	}
	return doc
}

// fetchErr fetches and returns the *Error, failing when the fetch succeeds
// or fails otherwise.
func fetchErr(t *testing.T, e *Engine, req Request) *Error {
	t.Helper()
	doc, err := e.Fetch(context.Background(), req)
	if err == nil {
		t.Fatalf("Fetch(%s) succeeded with %q, want an error", req.URL, truncate(doc.Markdown, 200))
	}
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("Fetch(%s) error %T %v, want *Error", req.URL, err, err)
	}
	return fe
}

func wantCode(t *testing.T, fe *Error, code string) {
	t.Helper()
	if fe.Code != code {
		t.Fatalf("error code %q (%s), want %q", fe.Code, fe.Message, code)
	}
}

func hasWarning(d *Document, code string) bool {
	for _, w := range d.Warnings {
		if w.Code == code {
			return true
		}
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func wantContains(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("output lacks %q:\n%s", sub, truncate(s, 3000))
		}
	}
}

func wantLacks(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			t.Errorf("output has %q:\n%s", sub, truncate(s, 3000))
		}
	}
}

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
