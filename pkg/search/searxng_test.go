package search_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/search/fake"
)

func TestSearXNGRequestMapping(t *testing.T) {
	tests := []struct {
		name      string
		q         search.Query
		lang      string
		want      url.Values
		wantWarns []string
	}{
		{"defaults", search.Query{Text: "go"}, "",
			url.Values{"q": {"go"}, "format": {"json"}, "categories": {"general"}, "pageno": {"1"}}, nil},
		{"news and week", search.Query{Text: "go", Topic: "news", TimeRange: "week"}, "",
			url.Values{"q": {"go"}, "format": {"json"}, "categories": {"news"}, "time_range": {"week"}, "pageno": {"1"}}, nil},
		{"finance has no category", search.Query{Text: "nvda", Topic: "finance", TimeRange: "day"}, "",
			url.Values{"q": {"nvda"}, "format": {"json"}, "categories": {"general"}, "time_range": {"day"}, "pageno": {"1"}},
			[]string{search.WarnUnsupported}},
		{"language from the API", search.Query{Text: "go", TimeRange: "year"}, "de-CH",
			url.Values{"q": {"go"}, "format": {"json"}, "categories": {"general"}, "time_range": {"year"}, "language": {"de-CH"}, "pageno": {"1"}}, nil},
		{"one include and excludes", search.Query{Text: "go", IncludeDomains: []string{"example.io"}, ExcludeDomains: []string{"a.com", "b.org"}}, "",
			url.Values{"q": {"go site:example.io -site:a.com -site:b.org"}, "format": {"json"}, "categories": {"general"}, "pageno": {"1"}},
			[]string{search.WarnApproximated}},
		{"several includes are not operators", search.Query{Text: "go", IncludeDomains: []string{"example.io", "example.org"}}, "",
			url.Values{"q": {"go"}, "format": {"json"}, "categories": {"general"}, "pageno": {"1"}},
			[]string{search.WarnApproximated}},
		{"tavily options ignored", search.Query{Text: "go", Depth: "advanced", ChunksPerSource: 2}, "",
			url.Values{"q": {"go"}, "format": {"json"}, "categories": {"general"}, "pageno": {"1"}},
			[]string{search.WarnOptionIgnored, search.WarnOptionIgnored}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fake.NewSearXNG()
			defer f.Close()
			f.SetPageSize(30)
			api := searxAPI(f)
			api.Language = tt.lang
			resp := run(t, api, tt.q)
			req := lastRequest(t, f)
			if req.Method != http.MethodGet || req.Path != "/search" {
				t.Fatalf("request %s %s", req.Method, req.Path)
			}
			if !reflect.DeepEqual(req.Query, tt.want) {
				t.Fatalf("query = %v\nwant    %v", req.Query, tt.want)
			}
			codes := warningCodes(resp.Warnings)
			for _, w := range tt.wantWarns {
				if !hasWarning(resp, w) {
					t.Fatalf("warnings %v lack %s", codes, w)
				}
			}
			if len(tt.wantWarns) == 0 && len(codes) != 0 {
				t.Fatalf("unexpected warnings %v", codes)
			}
		})
	}
}

func TestSearXNGDomainFiltersAppliedLocally(t *testing.T) {
	f := fake.NewSearXNG()
	defer f.Close()
	f.SetPageSize(30)
	resp := run(t, searxAPI(f), search.Query{Text: "go", MaxResults: 20, IncludeDomains: []string{"example.org"}, ExcludeDomains: []string{"shop.example.org"}})
	if len(resp.Results) == 0 {
		t.Fatal("no results")
	}
	for _, r := range resp.Results {
		if !strings.HasPrefix(r.URL, "https://www.example.org/") {
			t.Errorf("result %s escapes the domain filters", r.URL)
		}
	}
	if !hasWarning(resp, search.WarnFiltered) || !hasWarning(resp, search.WarnApproximated) {
		t.Fatalf("warnings %v", warningCodes(resp.Warnings))
	}
}

func TestSearXNGPagesUpToMaxResults(t *testing.T) {
	f := fake.NewSearXNG()
	defer f.Close()
	f.SetPageSize(8)
	resp := run(t, searxAPI(f), search.Query{Text: "go", MaxResults: 20})
	if len(resp.Results) != 20 {
		t.Fatalf("got %d results, want 20", len(resp.Results))
	}
	reqs := f.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 pages", len(reqs))
	}
	for i, r := range reqs {
		if got := r.Query.Get("pageno"); got != []string{"1", "2", "3"}[i] {
			t.Errorf("request %d pageno = %s", i, got)
		}
	}
	if resp.Results[0].Score != nil {
		t.Error("SearXNG's rank weight must not be reported as a relevance score")
	}
}

func TestSearXNGStopsWhenPagesRunOut(t *testing.T) {
	f := fake.NewSearXNG()
	defer f.Close()
	f.SetHits(fake.DefaultHits()[:4])
	resp := run(t, searxAPI(f), search.Query{Text: "go", MaxResults: 10})
	if len(resp.Results) != 4 || len(f.Requests()) != 2 {
		t.Fatalf("%d results after %d requests, want 4 after 2", len(resp.Results), len(f.Requests()))
	}
}

func TestSearXNGBasePathAndDates(t *testing.T) {
	f := fake.NewSearXNG()
	defer f.Close()
	api := searxAPI(f)
	api.BaseURL += "/searxng/"
	resp := run(t, api, search.Query{Text: "go", Topic: "news", MaxResults: 3})
	if req := lastRequest(t, f); req.Path != "/searxng/search" {
		t.Fatalf("path = %s", req.Path)
	}
	if resp.Results[0].PublishedDate != "2025-03-01T12:00:00" {
		t.Fatalf("published_date = %q, want the zone-less date as given", resp.Results[0].PublishedDate)
	}
}

func TestSearXNGUnresponsiveEngines(t *testing.T) {
	f := fake.NewSearXNG()
	defer f.Close()
	f.SetUnresponsive([2]string{"google", "timeout"}, [2]string{"bing", "CAPTCHA"})
	resp := run(t, searxAPI(f), search.Query{Text: "go", MaxResults: 3})
	var msg string
	for _, w := range resp.Warnings {
		if w.Code == search.WarnPartial {
			msg = w.Message
		}
	}
	if !strings.Contains(msg, "bing, google") {
		t.Fatalf("partial warning = %q", msg)
	}
}

func TestSearXNGErrors(t *testing.T) {
	tests := []struct {
		name       string
		setup      func(*fake.SearXNG)
		wantCode   string
		wantStatus int
		wantMsg    string
	}{
		{"json disabled", func(f *fake.SearXNG) { f.DisableJSON() }, search.CodeBadRequest, 403, "search.formats"},
		{"limiter", func(f *fake.SearXNG) { f.Enqueue(fake.SearXNGLimited()) }, search.CodeRateLimited, 429, "wait and try again"},
		{"limiter with Retry-After", func(f *fake.SearXNG) {
			r := fake.SearXNGLimited()
			r.Header.Set("Retry-After", "30")
			f.Enqueue(r)
		}, search.CodeRateLimited, 429, ""},
		{"crash", func(f *fake.SearXNG) { f.Enqueue(fake.SearXNGServerError()) }, search.CodeUpstream, 500, "search error"},
		{"parameter refused", func(f *fake.SearXNG) {
			f.Enqueue(fake.SearXNGError(400, `Invalid value "x" for parameter time_range`))
		}, search.CodeBadRequest, 400, "time_range"},
		{"html instead of json", func(f *fake.SearXNG) { f.Enqueue(fake.Malformed()) }, search.CodeUpstream, 200, "not SearXNG's JSON"},
		{"basic auth proxy", func(f *fake.SearXNG) { f.Enqueue(fake.Reply{Status: 401, Body: "Unauthorized"}) }, search.CodeAuthFailed, 401, "key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fake.NewSearXNG()
			defer f.Close()
			tt.setup(f)
			se := runErr(t, searxAPI(f), search.Query{Text: "x"})
			if se.Code != tt.wantCode || se.Status != tt.wantStatus || !strings.Contains(se.Message, tt.wantMsg) {
				t.Fatalf("error = %+v", se)
			}
			if tt.name == "limiter with Retry-After" && se.RetryAfter.Seconds() != 30 {
				t.Fatalf("RetryAfter = %v", se.RetryAfter)
			}
		})
	}
}
