package search_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/search/fake"
)

// echoKey makes an upstream that repeats the credentials it got in every
// field it can, as a misbehaving proxy or API might.
func echoKey(key string) []fake.Reply {
	return []fake.Reply{
		fake.TavilyError(401, "Unauthorized: invalid API key "+key),
		fake.TavilyError(429, "rate limited for "+key),
		fake.BraveError(422, "SUBSCRIPTION_TOKEN_INVALID", "token "+key+" is invalid"),
		fake.BraveError(500, "INTERNAL", "failure for token "+key),
		fake.SearXNGError(500, "search error for "+key),
		{Status: 502, Body: "bad gateway " + key},
		{Status: 200, Body: `{"results":"` + key + `"}`},
		{Status: 200, Body: key},
	}
}

func TestKeyNeverInErrors(t *testing.T) {
	type target struct {
		name string
		key  string
		make func() (search.API, interface{ Enqueue(...fake.Reply) }, func())
	}
	targets := []target{
		{"tavily", tavilyKey, func() (search.API, interface{ Enqueue(...fake.Reply) }, func()) {
			f := fake.NewTavily(tavilyKey)
			return tavilyAPI(f), f, f.Close
		}},
		{"brave", braveKey, func() (search.API, interface{ Enqueue(...fake.Reply) }, func()) {
			f := fake.NewBrave(braveKey)
			return braveAPI(f), f, f.Close
		}},
	}
	for _, tg := range targets {
		for i, rep := range echoKey(tg.key) {
			api, f, closeFn := tg.make()
			f.Enqueue(rep)
			_, err := engine(t, api).Search(context.Background(), search.Query{Text: "x"})
			closeFn()
			if err == nil {
				t.Fatalf("%s reply %d: no error", tg.name, i)
			}
			mustNotContain(t, tg.name+" error", err.Error(), tg.key)
			var se *search.Error
			if errors.As(err, &se) {
				mustNotContain(t, tg.name+" message", se.Message, tg.key)
			}
		}
	}
}

func TestKeyNeverInRunnerOutput(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	tv.Enqueue(fake.TavilyError(401, "bad key "+tavilyKey))
	br := fake.NewBrave(braveKey)
	defer br.Close()
	br.Enqueue(fake.BraveError(429, "RATE_LIMITED", "slow down "+braveKey))
	sx := fake.NewSearXNG()
	defer sx.Close()
	rec := &recorder{}
	r := &search.Runner{Default: tavilyAPI(tv), Fallback: []search.API{braveAPI(br), searxAPI(sx)}, Audit: rec}
	resp, err := r.Search(context.Background(), search.Query{Text: "x"})
	if err != nil {
		t.Fatal(err)
	}
	mustNotContain(t, "response", jsonOf(t, resp), tavilyKey, braveKey, tv.URL(), br.URL(), sx.URL())
	mustNotContain(t, "audit", jsonOf(t, rec.recs), tavilyKey, braveKey, tv.URL(), br.URL(), sx.URL(), fake.BraveErrorID)

	// Every API failing: the summary error is clean too.
	tv.Enqueue(fake.TavilyError(401, "bad key "+tavilyKey))
	br.Enqueue(fake.BraveError(429, "RATE_LIMITED", "slow down "+braveKey))
	r.Fallback = r.Fallback[:1]
	_, err = r.Search(context.Background(), search.Query{Text: "x"})
	if err == nil {
		t.Fatal("want an error")
	}
	mustNotContain(t, "summary error", err.Error(), tavilyKey, braveKey, tv.URL(), br.URL())
}

func TestTransportErrorsAreClean(t *testing.T) {
	// A closed listener: connection refused.
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	// An instance that never answers within the timeout.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer slow.Close()
	withCreds := func(u string) string { return strings.Replace(u, "http://", "http://admin:s3cretpass@", 1) }

	tests := []struct {
		name     string
		api      search.API
		wantCode string
		wantMsg  string
	}{
		{"tavily refused", search.API{Name: "t", Engine: "tavily", BaseURL: deadURL, APIKey: tavilyKey}, search.CodeUpstream, "connection refused"},
		{"brave refused", search.API{Name: "b", Engine: "brave", BaseURL: deadURL, APIKey: braveKey}, search.CodeUpstream, "connection refused"},
		{"searx refused with credentials in base_url", search.API{Name: "s", Engine: "searxng", BaseURL: withCreds(deadURL)}, search.CodeUpstream, "connection refused"},
		{"tavily timeout", search.API{Name: "t", Engine: "tavily", BaseURL: slow.URL, APIKey: tavilyKey, Timeout: time.Nanosecond}, search.CodeTimeout, "no answer within"},
		{"searx timeout", search.API{Name: "s", Engine: "searxng", BaseURL: withCreds(slow.URL), Timeout: time.Nanosecond}, search.CodeTimeout, "no answer within"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			se := runErr(t, tt.api, search.Query{Text: "x"})
			if se.Code != tt.wantCode || se.Status != 0 || !strings.Contains(se.Message, tt.wantMsg) {
				t.Fatalf("error = %+v", se)
			}
			host := strings.TrimPrefix(deadURL, "http://")
			mustNotContain(t, "error", se.Error(), tavilyKey, braveKey, "s3cretpass", host, strings.TrimPrefix(slow.URL, "http://"), "/search")
		})
	}
}

func TestNoRedirectFollowed(t *testing.T) {
	var gotKey string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotKey = r.Header.Get("X-Subscription-Token")
	}))
	defer elsewhere.Close()
	redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusFound)
	}))
	defer redir.Close()
	se := runErr(t, search.API{Name: "b", Engine: "brave", BaseURL: redir.URL, APIKey: braveKey}, search.Query{Text: "x"})
	if se.Status != http.StatusFound || gotKey != "" {
		t.Fatalf("error %+v; key forwarded: %q", se, gotKey)
	}
	mustNotContain(t, "error", se.Error(), elsewhere.URL)
}
