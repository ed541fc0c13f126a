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

const bingKey = "0123456789abcdef0123456789abcdef"

func ddgAPI(f *fake.DuckDuckGo) search.API {
	return search.API{Name: "ddg", Engine: search.EngineDuckDuckGo, BaseURL: f.URL()}
}

func bingAPI(f *fake.Bing) search.API {
	return search.API{Name: "bng", Engine: search.EngineBing, BaseURL: f.URL(), APIKey: bingKey}
}

func TestDuckDuckGoOneRequestParsedFromTheHTMLPage(t *testing.T) {
	f := fake.NewDuckDuckGo()
	defer f.Close()
	resp := run(t, ddgAPI(f), search.Query{Text: "go  generics", MaxResults: 30, TimeRange: "week"})
	reqs := f.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want exactly one (polite)", len(reqs))
	}
	req := reqs[0]
	form, _ := url.ParseQuery(string(req.Body))
	if req.Method != http.MethodPost || req.Path != "/html/" || !reflect.DeepEqual(form, url.Values{"q": {"go generics"}, "df": {"w"}}) {
		t.Fatalf("request %s %s %v", req.Method, req.Path, form)
	}
	if ua := req.Header.Get("User-Agent"); ua != search.DuckDuckGoUserAgent || !strings.Contains(ua, "tavo") {
		t.Fatalf("User-Agent %q", ua)
	}
	// 30 results, the ad dropped, uddg redirects unwrapped, <b> removed.
	if len(resp.Results) != 30 || len(resp.Warnings) != 0 {
		t.Fatalf("%d results, warnings %v", len(resp.Results), resp.Warnings)
	}
	first := resp.Results[0]
	want := search.Result{Title: "Result 1 on docs.example.com", URL: "https://docs.example.com/page/1",
		Snippet: "Snippet 1: a summary of the page on docs.example.com.", PublishedDate: "2025-03-01T12:00:00"}
	if !reflect.DeepEqual(first, want) {
		t.Fatalf("first result %+v", first)
	}
	if resp.Results[1].PublishedDate != "" || resp.Results[1].Score != nil {
		t.Fatalf("a date or score was invented: %+v", resp.Results[1])
	}
}

func TestDuckDuckGoFiltersTopicsAndNoResults(t *testing.T) {
	f := fake.NewDuckDuckGo()
	defer f.Close()
	resp := run(t, ddgAPI(f), search.Query{Text: "go", IncludeDomains: []string{"example.io"}, ExcludeDomains: []string{"spam.com"}, Topic: "news"})
	form, _ := url.ParseQuery(string(lastRequest(t, f).Body))
	if form.Get("q") != "go site:example.io -site:spam.com" {
		t.Fatalf("q %q", form.Get("q"))
	}
	if got := warningCodes(resp.Warnings); !reflect.DeepEqual(got, []string{search.WarnApproximated, search.WarnUnsupported}) {
		t.Fatalf("warnings %v", got)
	}
	for _, r := range resp.Results {
		if !strings.HasPrefix(r.URL, "https://example.io/") {
			t.Fatalf("result outside the filter: %s", r.URL)
		}
	}
	f.SetHits(nil)
	if resp := run(t, ddgAPI(f), search.Query{Text: "nothing"}); len(resp.Results) != 0 {
		t.Fatalf("no-results page gave %v", resp.Results)
	}
}

func TestDuckDuckGoAnomalyPageIsRateLimited(t *testing.T) {
	f := fake.NewDuckDuckGo()
	defer f.Close()
	f.Enqueue(fake.DuckDuckGoAnomaly())
	e := runErr(t, ddgAPI(f), search.Query{Text: "go"})
	if e.Code != search.CodeRateLimited || !strings.Contains(e.Message, "bot-check") {
		t.Fatalf("error %+v", e)
	}
	if n := len(f.Requests()); n != 1 {
		t.Fatalf("%d requests: a rate limit must not be retried", n)
	}
	f.Enqueue(fake.Malformed())
	if e := runErr(t, ddgAPI(f), search.Query{Text: "go"}); e.Code != search.CodeUpstream {
		t.Fatalf("a page that is not a result page: %+v", e)
	}
}

func TestDuckDuckGoNeedsNoKey(t *testing.T) {
	api := search.API{Name: "ddg", Engine: search.EngineDuckDuckGo}
	if m := api.Missing(); len(m) != 0 {
		t.Fatalf("missing %v", m)
	}
	if m := (search.API{Name: "b", Engine: search.EngineBing}).Missing(); !reflect.DeepEqual(m, []string{"api_key"}) {
		t.Fatalf("bing without key: %v", m)
	}
}

func TestBingRequestMapping(t *testing.T) {
	tests := []struct {
		name      string
		q         search.Query
		wantPath  string
		want      url.Values
		wantWarns []string
	}{
		{"defaults", search.Query{Text: "go"}, "/v7.0/search",
			url.Values{"q": {"go"}, "count": {"5"}, "textDecorations": {"false"}, "responseFilter": {"Webpages"}}, nil},
		{"thirty results, a week", search.Query{Text: "go", MaxResults: 30, TimeRange: "week"}, "/v7.0/search",
			url.Values{"q": {"go"}, "count": {"30"}, "textDecorations": {"false"}, "responseFilter": {"Webpages"}, "freshness": {"Week"}}, nil},
		{"news", search.Query{Text: "go", Topic: "news", TimeRange: "day"}, "/v7.0/news/search",
			url.Values{"q": {"go"}, "count": {"5"}, "textDecorations": {"false"}, "freshness": {"Day"}}, nil},
		{"domains as operators", search.Query{Text: "go", IncludeDomains: []string{"example.io"}, ExcludeDomains: []string{"spam.com"}}, "/v7.0/search",
			url.Values{"q": {"go site:example.io -site:spam.com"}, "count": {"5"}, "textDecorations": {"false"}, "responseFilter": {"Webpages"}}, []string{search.WarnApproximated}},
		{"finance unsupported, depth ignored", search.Query{Text: "go", Topic: "finance", Depth: "advanced"}, "/v7.0/search",
			url.Values{"q": {"go"}, "count": {"5"}, "textDecorations": {"false"}, "responseFilter": {"Webpages"}}, []string{search.WarnUnsupported, search.WarnOptionIgnored}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fake.NewBing(bingKey)
			defer f.Close()
			resp := run(t, bingAPI(f), tt.q)
			req := lastRequest(t, f)
			if req.Method != http.MethodGet || req.Path != tt.wantPath || !reflect.DeepEqual(req.Query, tt.want) {
				t.Fatalf("request %s %s %v", req.Method, req.Path, req.Query)
			}
			if req.Header.Get("Ocp-Apim-Subscription-Key") != bingKey {
				t.Fatal("key header missing")
			}
			if got := warningCodes(resp.Warnings); !reflect.DeepEqual(got, tt.wantWarns) {
				t.Fatalf("warnings %v, want %v", got, tt.wantWarns)
			}
			if len(resp.Results) == 0 || resp.Results[0].URL == "" {
				t.Fatalf("results %v", resp.Results)
			}
		})
	}
}

func TestBingYearIsADateRange(t *testing.T) {
	f := fake.NewBing(bingKey)
	defer f.Close()
	run(t, bingAPI(f), search.Query{Text: "go", TimeRange: "year"})
	fr := lastRequest(t, f).Query.Get("freshness")
	if len(fr) != len("2025-01-01..2026-01-01") || !strings.Contains(fr, "..") {
		t.Fatalf("freshness %q", fr)
	}
}

func TestBingResultsAndErrors(t *testing.T) {
	f := fake.NewBing(bingKey)
	defer f.Close()
	resp := run(t, bingAPI(f), search.Query{Text: "go", MaxResults: 30})
	if len(resp.Results) != 30 {
		t.Fatalf("%d results", len(resp.Results))
	}
	want := search.Result{Title: "Result 1 on docs.example.com", URL: "https://docs.example.com/page/1",
		Snippet: "Snippet 1: a summary of the page on docs.example.com.", PublishedDate: "2025-03-01T12:00:00"}
	if !reflect.DeepEqual(resp.Results[0], want) {
		t.Fatalf("first %+v", resp.Results[0])
	}
	f.SetHits(nil)
	if resp := run(t, bingAPI(f), search.Query{Text: "go"}); len(resp.Results) != 0 {
		t.Fatalf("nothing found gave %v", resp.Results)
	}
	f.Enqueue(fake.BingRateLimited())
	if e := runErr(t, bingAPI(f), search.Query{Text: "go"}); e.Code != search.CodeRateLimited || e.RetryAfter.Seconds() != 1 {
		t.Fatalf("429: %+v", e)
	}
	f.Enqueue(fake.BingServerError())
	if e := runErr(t, bingAPI(f), search.Query{Text: "go"}); e.Code != search.CodeUpstream {
		t.Fatalf("500: %+v", e)
	}
	bad := bingAPI(f)
	bad.APIKey = "wrong"
	if e := runErr(t, bad, search.Query{Text: "go"}); e.Code != search.CodeAuthFailed || strings.Contains(e.Error(), "wrong") {
		t.Fatalf("bad key: %+v", e)
	}
}

func TestMaxResultsClamped(t *testing.T) {
	tv := fake.NewTavily(tavilyKey)
	defer tv.Close()
	resp := run(t, tavilyAPI(tv), search.Query{Text: "go", MaxResults: 30})
	if !strings.Contains(string(lastRequest(t, tv).Body), `"max_results":20`) || !hasWarning(resp, search.WarnOptionClamped) {
		t.Fatalf("tavily: %s %v", lastRequest(t, tv).Body, resp.Warnings)
	}
	br := fake.NewBrave(braveKey)
	defer br.Close()
	resp = run(t, braveAPI(br), search.Query{Text: "go", MaxResults: 25})
	if lastRequest(t, br).Query.Get("count") != "20" || !hasWarning(resp, search.WarnOptionClamped) {
		t.Fatalf("brave: %v %v", lastRequest(t, br).Query, resp.Warnings)
	}
	resp = run(t, tavilyAPI(tv), search.Query{Text: "go", MaxResults: 20})
	if hasWarning(resp, search.WarnOptionClamped) {
		t.Fatal("20 on Tavily was clamped")
	}
}
