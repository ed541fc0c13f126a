package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingServer answers with the request's Authorization and a counter, so
// a test sees whether a fetch reached it.
func countingServer(t *testing.T) (url string, hits *atomic.Int32) {
	hits = &atomic.Int32{}
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "hit %d auth=%q", n, r.Header.Get("Authorization"))
	})
	return s.URL + "/page", hits
}

func TestCachedFetcherServesRepeatsFromDisk(t *testing.T) {
	url, hits := countingServer(t)
	dir := filepath.Join(t.TempDir(), "pages")
	c, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c.Now = func() time.Time { return now }
	f := CachedFetcher{Fetcher: &Engine{}, Cache: c}
	get := func(req Request) string {
		t.Helper()
		doc, err := f.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return doc.Markdown
	}
	a := Request{URL: url, Headers: []Header{{"Authorization", "Bearer A"}, {"X-Other", "1"}}}
	if got := get(a); !strings.Contains(got, "hit 1") {
		t.Fatalf("first fetch: %q", got)
	}
	// Same URL and headers (another order, another case): the cache.
	same := Request{URL: url, Headers: []Header{{"x-other", "1"}, {"authorization", "Bearer A"}}}
	if got := get(same); !strings.Contains(got, "hit 1") || hits.Load() != 1 {
		t.Fatalf("repeat: %q, %d hits", got, hits.Load())
	}
	// Another credential, no headers, another extraction mode: the server.
	if got := get(Request{URL: url, Headers: []Header{{"Authorization", "Bearer B"}, {"X-Other", "1"}}}); !strings.Contains(got, `auth="Bearer B"`) {
		t.Fatalf("other credential read the cache: %q", got)
	}
	get(Request{URL: url})
	get(Request{URL: url, Headers: a.Headers, Extract: ExtractFull})
	if hits.Load() != 4 {
		t.Fatalf("%d hits, want 4", hits.Load())
	}
	// Files are private and name neither URL nor credential.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		info, _ := e.Info()
		if info.Mode().Perm() != 0o600 || strings.Contains(e.Name(), "page") && !strings.HasSuffix(e.Name(), cacheExt) {
			t.Fatalf("%s: mode %v", e.Name(), info.Mode())
		}
	}
	if info, _ := os.Stat(dir); info.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v", info.Mode())
	}
	// After 30 minutes the page is fetched again.
	now = now.Add(DefaultCacheTTL)
	if got := get(a); !strings.Contains(got, "hit 5") {
		t.Fatalf("expired page served: %q", got)
	}
	// Without a cache every fetch reaches the server.
	nc := CachedFetcher{Fetcher: &Engine{}}
	nc.Fetch(context.Background(), a)
	if hits.Load() != 6 {
		t.Fatalf("%d hits, want 6", hits.Load())
	}
}

func TestCacheIsBounded(t *testing.T) {
	c, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c.MaxBytes = 3000
	now := time.Now()
	c.Now = func() time.Time { return now }
	for i := range 10 {
		req := Request{URL: fmt.Sprintf("http://x/%d", i)}
		if err := c.Put(req, &Document{URL: req.URL, Markdown: strings.Repeat("x", 500)}); err != nil {
			t.Fatal(err)
		}
		// Distinct modification times order the eviction.
		os.Chtimes(filepath.Join(c.dir, cacheKey(req)+cacheExt), now.Add(time.Duration(i)*time.Second), now.Add(time.Duration(i)*time.Second))
	}
	var total int64
	ents, _ := os.ReadDir(c.dir)
	for _, e := range ents {
		info, _ := e.Info()
		total += info.Size()
	}
	if total > c.MaxBytes || len(ents) < 3 {
		t.Fatalf("%d files, %d bytes, limit %d", len(ents), total, c.MaxBytes)
	}
	if c.Get(Request{URL: "http://x/9"}) == nil || c.Get(Request{URL: "http://x/0"}) != nil {
		t.Fatal("the newest page should stay and the oldest go")
	}
	// A page larger than the whole cache is not kept.
	big := Request{URL: "http://x/big"}
	c.Put(big, &Document{Markdown: strings.Repeat("y", 4000)})
	if c.Get(big) != nil {
		t.Fatal("an oversized page was cached")
	}
}

func TestURLLengthLimit(t *testing.T) {
	url, hits := countingServer(t)
	long := url + "?q=" + strings.Repeat("a", MaxURLLength-len(url)-3)
	f := CachedFetcher{Fetcher: &Engine{}}
	if _, err := f.Fetch(context.Background(), Request{URL: long}); err != nil {
		t.Fatalf("a URL of exactly %d characters: %v", MaxURLLength, err)
	}
	_, err := f.Fetch(context.Background(), Request{URL: long + "a"})
	var fe *Error
	if !errors.As(err, &fe) || fe.Code != CodeInvalidArguments || !strings.Contains(fe.Message, "2001 characters") || hits.Load() != 1 {
		t.Fatalf("long URL: %v (%d hits)", err, hits.Load())
	}
}
