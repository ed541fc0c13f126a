package search_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/search/fake"
)

func TestBraveRequestMapping(t *testing.T) {
	web := func(extra url.Values) url.Values {
		v := url.Values{"result_filter": {"web"}, "text_decorations": {"false"}}
		for k, vs := range extra {
			v[k] = vs
		}
		return v
	}
	tests := []struct {
		name      string
		q         search.Query
		wantPath  string
		want      url.Values
		wantWarns []string
	}{
		{"defaults", search.Query{Text: "go"}, "/res/v1/web/search",
			web(url.Values{"q": {"go"}, "count": {"5"}}), nil},
		{"day", search.Query{Text: "go", TimeRange: "day", MaxResults: 20}, "/res/v1/web/search",
			web(url.Values{"q": {"go"}, "count": {"20"}, "freshness": {"pd"}}), nil},
		{"week", search.Query{Text: "go", TimeRange: "week"}, "/res/v1/web/search",
			web(url.Values{"q": {"go"}, "count": {"5"}, "freshness": {"pw"}}), nil},
		{"month", search.Query{Text: "go", TimeRange: "month"}, "/res/v1/web/search",
			web(url.Values{"q": {"go"}, "count": {"5"}, "freshness": {"pm"}}), nil},
		{"news topic uses the news endpoint", search.Query{Text: "go", Topic: "news", TimeRange: "year", MaxResults: 3}, "/res/v1/news/search",
			url.Values{"q": {"go"}, "count": {"3"}, "freshness": {"py"}}, nil},
		{"general topic", search.Query{Text: "go", Topic: "general"}, "/res/v1/web/search",
			web(url.Values{"q": {"go"}, "count": {"5"}}), nil},
		{"finance is unsupported", search.Query{Text: "nvda", Topic: "finance"}, "/res/v1/web/search",
			web(url.Values{"q": {"nvda"}, "count": {"5"}}), []string{search.WarnUnsupported}},
		{"includes as a goggle", search.Query{Text: "go", IncludeDomains: []string{"go.dev", "pkg.go.dev"}}, "/res/v1/web/search",
			web(url.Values{"q": {"go"}, "count": {"5"}, "goggles": {"$discard\n$site=go.dev\n$site=pkg.go.dev"}}), nil},
		{"excludes as a goggle", search.Query{Text: "go", ExcludeDomains: []string{"spam.com"}}, "/res/v1/web/search",
			web(url.Values{"q": {"go"}, "count": {"5"}, "goggles": {"$discard,site=spam.com"}}), nil},
		{"tavily options ignored", search.Query{Text: "go", Depth: "fast"}, "/res/v1/web/search",
			web(url.Values{"q": {"go"}, "count": {"5"}}), []string{search.WarnOptionIgnored}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fake.NewBrave(braveKey)
			defer f.Close()
			resp := run(t, braveAPI(f), tt.q)
			req := lastRequest(t, f)
			if req.Method != http.MethodGet || req.Path != tt.wantPath {
				t.Fatalf("request %s %s, want GET %s", req.Method, req.Path, tt.wantPath)
			}
			if got := req.Header.Get("X-Subscription-Token"); got != braveKey {
				t.Fatalf("X-Subscription-Token = %q", got)
			}
			if req.Header.Get("Authorization") != "" {
				t.Fatal("Brave takes the key in X-Subscription-Token only")
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

func TestBraveResults(t *testing.T) {
	f := fake.NewBrave(braveKey)
	defer f.Close()
	resp := run(t, braveAPI(f), search.Query{Text: "go", MaxResults: 4, IncludeDomains: []string{"example.org"}})
	if len(resp.Results) != 4 {
		t.Fatalf("%d results", len(resp.Results))
	}
	for _, r := range resp.Results {
		if !strings.Contains(r.URL, "example.org/") || r.Score != nil || strings.Contains(r.Snippet, "<") {
			t.Errorf("result %+v", r)
		}
	}
}

func TestBraveNewsResults(t *testing.T) {
	f := fake.NewBrave(braveKey)
	defer f.Close()
	resp := run(t, braveAPI(f), search.Query{Text: "go", Topic: "news", MaxResults: 2})
	if len(resp.Results) != 2 || resp.Results[0].URL != "https://docs.example.com/page/1" {
		t.Fatalf("results %s", jsonOf(t, resp.Results))
	}
	if got := resp.Results[0].PublishedDate; got != "2025-03-01T12:00:00" {
		t.Errorf("published_date = %q, want page_age as given, without an invented zone", got)
	}
}

func TestBraveStripsMarkersWhenDecorated(t *testing.T) {
	f := fake.NewBrave(braveKey)
	defer f.Close()
	f.Enqueue(fake.Reply{Status: 200, Body: `{"type":"search","web":{"type":"search","results":[
		{"title":"A <strong>Go</strong> page","url":"https://go.dev/","description":"<strong>Go</strong> is &quot;simple&quot;"}]}}`})
	resp := run(t, braveAPI(f), search.Query{Text: "go"})
	if r := resp.Results[0]; r.Title != "A Go page" || r.Snippet != `Go is "simple"` {
		t.Fatalf("result %+v", r)
	}
}

func TestBraveEmptyWebSection(t *testing.T) {
	f := fake.NewBrave(braveKey)
	defer f.Close()
	f.Enqueue(fake.Reply{Status: 200, Body: `{"type":"search","query":{"original":"zzqx"}}`})
	resp := run(t, braveAPI(f), search.Query{Text: "zzqx"})
	if len(resp.Results) != 0 || resp.Results == nil {
		t.Fatalf("results %#v, want an empty list", resp.Results)
	}
}

func TestBraveErrors(t *testing.T) {
	tests := []struct {
		name       string
		key        string
		reply      *fake.Reply
		wantCode   string
		wantStatus int
		wantMsg    string
		wantRetry  time.Duration
	}{
		{"wrong token is 422", "BSAother", nil, search.CodeAuthFailed, 422, "subscription token is invalid", 0},
		{"401", braveKey, ptr(fake.BraveError(401, "UNAUTHORIZED", "Missing credentials.")), search.CodeAuthFailed, 401, "Missing credentials", 0},
		{"rate limited", braveKey, ptr(fake.BraveRateLimited()), search.CodeRateLimited, 429, "rate limit exceeded", time.Second},
		{"quota", braveKey, ptr(fake.BraveError(429, "QUOTA_LIMITED", "Monthly quota exceeded.")), search.CodeQuotaExceeded, 429, "quota", 0},
		{"validation", braveKey, braveValidation(), search.CodeBadRequest, 422, "count: Input should be less than or equal to 20", 0},
		{"unavailable", braveKey, ptr(fake.BraveServerError()), search.CodeUpstream, 503, "temporarily unavailable", 0},
		{"gateway timeout", braveKey, &fake.Reply{Status: 504, Body: "upstream timed out"}, search.CodeTimeout, 504, "did not answer in time", 0},
		{"malformed", braveKey, ptr(fake.Malformed()), search.CodeUpstream, 200, "not the documented JSON", 0},
		{"news body on web", braveKey, &fake.Reply{Status: 200, Body: `{"type":"news","results":[]}`}, search.CodeUpstream, 200, "not the documented JSON", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fake.NewBrave(tt.key)
			defer f.Close()
			if tt.reply != nil {
				f.Enqueue(*tt.reply)
			}
			se := runErr(t, braveAPI(f), search.Query{Text: "x"})
			if se.Code != tt.wantCode || se.Status != tt.wantStatus || !strings.Contains(se.Message, tt.wantMsg) || se.RetryAfter != tt.wantRetry {
				t.Fatalf("error = %+v", se)
			}
			mustNotContain(t, "error", se.Error(), fake.BraveErrorID, braveKey)
		})
	}
}

func braveValidation() *fake.Reply {
	return &fake.Reply{Status: 422, Body: `{"type":"ErrorResponse","error":{"id":"` + fake.BraveErrorID + `","status":422,"code":"VALIDATION",
		"detail":"Unable to validate request parameter(s)","meta":{"errors":[{"type":"less_than_equal","loc":["query","count"],
		"msg":"Input should be less than or equal to 20","input":"21","ctx":{"le":20}}]}},"time":1742589546}`}
}

func ptr[T any](v T) *T { return &v }
