package search_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/search/fake"
)

func TestTavilyRequestMapping(t *testing.T) {
	tests := []struct {
		name string
		q    search.Query
		want map[string]any
		// wantWarn is a warning code expected in the response.
		wantWarn string
	}{
		{"defaults", search.Query{Text: "go 1.26"},
			map[string]any{"query": "go 1.26", "max_results": 5.0}, ""},
		{"every option", search.Query{Text: "rust", MaxResults: 12, Topic: "news", TimeRange: "week", Depth: "advanced", ChunksPerSource: 2,
			IncludeDomains: []string{"https://Blog.Rust-lang.org/x"}, ExcludeDomains: []string{"spam.example"}},
			map[string]any{"query": "rust", "max_results": 12.0, "topic": "news", "time_range": "week", "search_depth": "advanced",
				"chunks_per_source": 2.0, "include_domains": []any{"blog.rust-lang.org"}, "exclude_domains": []any{"spam.example"}}, ""},
		{"finance topic, year", search.Query{Text: "nvda", Topic: "finance", TimeRange: "year"},
			map[string]any{"query": "nvda", "max_results": 5.0, "topic": "finance", "time_range": "year"}, ""},
		{"chunks with fast depth", search.Query{Text: "q", Depth: "fast", ChunksPerSource: 3},
			map[string]any{"query": "q", "max_results": 5.0, "search_depth": "fast", "chunks_per_source": 3.0}, ""},
		{"chunks not sent for ultra-fast", search.Query{Text: "q", Depth: "ultra-fast", ChunksPerSource: 3},
			map[string]any{"query": "q", "max_results": 5.0, "search_depth": "ultra-fast"}, search.WarnOptionIgnored},
		{"chunks not sent for basic", search.Query{Text: "q", Depth: "basic", ChunksPerSource: 1},
			map[string]any{"query": "q", "max_results": 5.0, "search_depth": "basic"}, search.WarnOptionIgnored},
		{"chunks not sent without depth", search.Query{Text: "q", ChunksPerSource: 1},
			map[string]any{"query": "q", "max_results": 5.0}, search.WarnOptionIgnored},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fake.NewTavily(tavilyKey)
			defer f.Close()
			resp := run(t, tavilyAPI(f), tt.q)
			req := lastRequest(t, f)
			if req.Method != http.MethodPost || req.Path != "/search" {
				t.Fatalf("request %s %s, want POST /search", req.Method, req.Path)
			}
			if got := req.Header.Get("Authorization"); got != "Bearer "+tavilyKey {
				t.Fatalf("Authorization = %q", got)
			}
			var body map[string]any
			if err := json.Unmarshal(req.Body, &body); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(body, tt.want) {
				t.Fatalf("body = %v\nwant   %v", body, tt.want)
			}
			if tt.wantWarn != "" && !hasWarning(resp, tt.wantWarn) {
				t.Fatalf("warnings %v lack %s", resp.Warnings, tt.wantWarn)
			}
			if tt.wantWarn == "" && len(resp.Warnings) != 0 {
				t.Fatalf("unexpected warnings %v", resp.Warnings)
			}
		})
	}
}

func TestTavilyResultsNormalised(t *testing.T) {
	f := fake.NewTavily(tavilyKey)
	defer f.Close()
	pub := time.Date(2025, 6, 10, 17, 34, 0, 0, time.UTC)
	f.SetHits([]fake.Hit{
		{Title: "Go &amp; <b>generics</b>", URL: "https://go.dev/blog/x", Content: "chunk one [...] chunk\ntwo", Score: 0.81, Published: pub},
		{Title: "", URL: "https://go.dev/no-title", Content: "c", Score: 0.5},
		{Title: "bad", URL: "javascript:alert(1)", Content: "c", Score: 0.4},
		{Title: "dup", URL: "https://go.dev/blog/x", Content: "c", Score: 0.3},
	})
	resp := run(t, tavilyAPI(f), search.Query{Text: "go", Topic: "news"})
	score := 0.81
	want := []search.Result{
		{Title: "Go & generics", URL: "https://go.dev/blog/x", Snippet: "chunk one [...] chunk two", Score: &score, PublishedDate: "2025-06-10T17:34:00Z"},
	}
	if len(resp.Results) != 2 || !reflect.DeepEqual(resp.Results[0], want[0]) {
		t.Fatalf("results = %s", jsonOf(t, resp.Results))
	}
	if resp.Results[1].Title != "https://go.dev/no-title" {
		t.Errorf("an untitled result should show its URL as title, got %q", resp.Results[1].Title)
	}
	if !hasWarning(resp, search.WarnMalformedResults) {
		t.Errorf("warnings %v lack malformed_results", resp.Warnings)
	}
	out := jsonOf(t, resp)
	mustNotContain(t, "response", out, fake.TavilyRequestID, "response_time", "raw_content", tavilyKey)
}

func TestTavilyErrors(t *testing.T) {
	tests := []struct {
		name       string
		reply      fake.Reply
		wantCode   string
		wantStatus int
		wantMsg    string
	}{
		{"rate limited", fake.TavilyRateLimited(), search.CodeRateLimited, 429, "excessive requests"},
		{"plan limit", fake.TavilyError(432, "This request exceeds your plan's set usage limit."), search.CodeQuotaExceeded, 432, "usage limit"},
		{"paygo limit", fake.TavilyError(433, "This request exceeds the pay-as-you-go limit."), search.CodeQuotaExceeded, 433, "pay-as-you-go"},
		{"server error", fake.TavilyServerError(), search.CodeUpstream, 500, "Internal Server Error"},
		{"bad gateway without body", fake.Reply{Status: 502, Body: ""}, search.CodeUpstream, 502, "try again later"},
		{"malformed 200", fake.Malformed(), search.CodeUpstream, 200, "not the documented JSON"},
		{"200 without results", fake.Reply{Status: 200, Body: `{"query":"x"}`}, search.CodeUpstream, 200, "not the documented JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fake.NewTavily(tavilyKey)
			defer f.Close()
			f.Enqueue(tt.reply)
			se := runErr(t, tavilyAPI(f), search.Query{Text: "x"})
			if se.Code != tt.wantCode || se.Status != tt.wantStatus || !strings.Contains(se.Message, tt.wantMsg) {
				t.Fatalf("error = %+v, want code %s status %d message containing %q", se, tt.wantCode, tt.wantStatus, tt.wantMsg)
			}
			if se.Engine != "tavily" || se.API != "tav" {
				t.Fatalf("error names %q/%q", se.Engine, se.API)
			}
			if se.RetryAfter != 0 {
				t.Fatalf("RetryAfter = %v; Tavily sends none", se.RetryAfter)
			}
		})
	}
}

func TestTavilyWrongKeyIsAuthFailed(t *testing.T) {
	f := fake.NewTavily("tvly-the-right-one")
	defer f.Close()
	se := runErr(t, tavilyAPI(f), search.Query{Text: "x"})
	if se.Code != search.CodeAuthFailed || se.Status != 401 || !strings.Contains(se.Message, "invalid API key") {
		t.Fatalf("error = %+v", se)
	}
}

func TestTavilyRetryAfterHonouredWhenSent(t *testing.T) {
	f := fake.NewTavily(tavilyKey)
	defer f.Close()
	r := fake.TavilyRateLimited()
	r.Header = http.Header{"Retry-After": {"7"}}
	f.Enqueue(r)
	se := runErr(t, tavilyAPI(f), search.Query{Text: "x"})
	if se.RetryAfter != 7*time.Second || !strings.Contains(se.Error(), "retry after 7s") {
		t.Fatalf("error = %v (RetryAfter %v)", se, se.RetryAfter)
	}
}
