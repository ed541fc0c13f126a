package fake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func do(t *testing.T, method, rawURL string, header http.Header, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestTavilyChecksRequests(t *testing.T) {
	f := NewTavily("tvly-k")
	defer f.Close()
	auth := http.Header{"Authorization": {"Bearer tvly-k"}, "Content-Type": {"application/json"}}
	tests := []struct {
		name       string
		method     string
		path       string
		header     http.Header
		body       string
		wantStatus int
		wantInBody string
	}{
		{"ok", "POST", "/search", auth, `{"query":"q","max_results":2}`, 200, `"results"`},
		{"no key", "POST", "/search", http.Header{"Content-Type": {"application/json"}}, `{"query":"q"}`, 401, "missing or invalid API key"},
		{"wrong key", "POST", "/search", http.Header{"Authorization": {"Bearer x"}, "Content-Type": {"application/json"}}, `{"query":"q"}`, 401, "missing or invalid"},
		{"GET", "GET", "/search", auth, ``, 405, "Method Not Allowed"},
		{"wrong path", "POST", "/v1/search", auth, `{"query":"q"}`, 404, "Not Found"},
		{"form body", "POST", "/search", http.Header{"Authorization": {"Bearer tvly-k"}, "Content-Type": {"application/x-www-form-urlencoded"}}, `query=q`, 400, "Content-Type"},
		{"empty query", "POST", "/search", auth, `{"query":""}`, 400, "Query is missing"},
		{"unknown field", "POST", "/search", auth, `{"query":"q","depth":"basic"}`, 400, `Unknown field \"depth\"`},
		{"bad depth", "POST", "/search", auth, `{"query":"q","search_depth":"deep"}`, 400, "search_depth"},
		{"chunks 4", "POST", "/search", auth, `{"query":"q","chunks_per_source":4}`, 400, "chunks_per_source"},
		{"max_results 21", "POST", "/search", auth, `{"query":"q","max_results":21}`, 400, "max_results"},
		{"max_results string", "POST", "/search", auth, `{"query":"q","max_results":"5"}`, 400, "max_results"},
		{"bad topic", "POST", "/search", auth, `{"query":"q","topic":"sports"}`, 400, "topic"},
		{"bad time_range", "POST", "/search", auth, `{"query":"q","time_range":"decade"}`, 400, "time_range"},
		{"domains not a list", "POST", "/search", auth, `{"query":"q","include_domains":"a.com"}`, 400, "include_domains"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := do(t, tt.method, f.URL()+tt.path, tt.header, tt.body)
			if status != tt.wantStatus || !strings.Contains(body, tt.wantInBody) {
				t.Fatalf("%d %s", status, body)
			}
		})
	}
	if n := len(f.Requests()); n != len(tests) {
		t.Fatalf("recorded %d requests, want %d", n, len(tests))
	}
}

func TestTavilyServesFilteredHitsAndQueue(t *testing.T) {
	f := NewTavily("k")
	defer f.Close()
	h := http.Header{"Authorization": {"Bearer k"}, "Content-Type": {"application/json"}}
	_, _, body := do(t, "POST", f.URL()+"/search", h, `{"query":"q","max_results":20,"include_domains":["example.org"],"exclude_domains":["shop.example.org"],"topic":"news"}`)
	var got struct {
		Results []struct {
			URL           string `json:"url"`
			PublishedDate string `json:"published_date"`
		} `json:"results"`
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != 5 || got.RequestID != TavilyRequestID {
		t.Fatalf("%s", body)
	}
	for _, r := range got.Results {
		if !strings.HasPrefix(r.URL, "https://www.example.org/") {
			t.Errorf("unfiltered %s", r.URL)
		}
	}
	// A queued reply is served only to a valid request.
	f.Enqueue(TavilyRateLimited())
	if status, _, _ := do(t, "POST", f.URL()+"/search", http.Header{}, `{"query":"q"}`); status != 401 {
		t.Fatalf("invalid request got %d", status)
	}
	if status, _, _ := do(t, "POST", f.URL()+"/search", h, `{"query":"q"}`); status != 429 {
		t.Fatalf("queued reply not served: %d", status)
	}
	if status, _, _ := do(t, "POST", f.URL()+"/search", h, `{"query":"q"}`); status != 200 {
		t.Fatalf("queue not drained: %d", status)
	}
}

func TestBraveChecksRequests(t *testing.T) {
	f := NewBrave("BSAk")
	defer f.Close()
	tok := http.Header{"X-Subscription-Token": {"BSAk"}, "Accept": {"application/json"}}
	tests := []struct {
		name       string
		method     string
		path       string
		header     http.Header
		query      url.Values
		wantStatus int
		wantInBody string
	}{
		{"ok", "GET", "/res/v1/web/search", tok, url.Values{"q": {"go"}, "count": {"20"}}, 200, `"web"`},
		{"news count 50", "GET", "/res/v1/news/search", tok, url.Values{"q": {"go"}, "count": {"50"}}, 200, `"news"`},
		{"no token", "GET", "/res/v1/web/search", http.Header{}, url.Values{"q": {"go"}}, 422, "x-subscription-token"},
		{"wrong token", "GET", "/res/v1/web/search", http.Header{"X-Subscription-Token": {"nope"}}, url.Values{"q": {"go"}}, 422, "SUBSCRIPTION_TOKEN_INVALID"},
		{"bearer instead", "GET", "/res/v1/web/search", http.Header{"Authorization": {"Bearer BSAk"}}, url.Values{"q": {"go"}}, 422, "VALIDATION"},
		{"POST", "POST", "/res/v1/web/search", tok, url.Values{"q": {"go"}}, 405, "METHOD_NOT_ALLOWED"},
		{"wrong path", "GET", "/res/v1/search", tok, url.Values{"q": {"go"}}, 404, "RESOURCE_NOT_FOUND"},
		{"no q", "GET", "/res/v1/web/search", tok, url.Values{}, 422, `"q"`},
		{"q of 51 words", "GET", "/res/v1/web/search", tok, url.Values{"q": {strings.Repeat("w ", 51)}}, 422, "50 words"},
		{"q of 401 chars", "GET", "/res/v1/web/search", tok, url.Values{"q": {strings.Repeat("w", 401)}}, 422, "400 characters"},
		{"count 21 on web", "GET", "/res/v1/web/search", tok, url.Values{"q": {"go"}, "count": {"21"}}, 422, "less than or equal to 20"},
		{"count 0", "GET", "/res/v1/web/search", tok, url.Values{"q": {"go"}, "count": {"0"}}, 422, "greater than or equal to 1"},
		{"bad freshness", "GET", "/res/v1/web/search", tok, url.Values{"q": {"go"}, "freshness": {"week"}}, 422, "freshness"},
		{"date range freshness", "GET", "/res/v1/web/search", tok, url.Values{"q": {"go"}, "freshness": {"2025-01-01to2025-01-31"}}, 200, `"web"`},
		{"text_decorations on news", "GET", "/res/v1/news/search", tok, url.Values{"q": {"go"}, "text_decorations": {"false"}}, 422, "Extra inputs"},
		{"unknown param", "GET", "/res/v1/web/search", tok, url.Values{"q": {"go"}, "site": {"a.com"}}, 422, "Extra inputs"},
		{"bad result_filter", "GET", "/res/v1/web/search", tok, url.Values{"q": {"go"}, "result_filter": {"web,pics"}}, 422, "result_filter"},
		{"bad goggle", "GET", "/res/v1/web/search", tok, url.Values{"q": {"go"}, "goggles": {"$boost=3,site=a.com"}}, 422, "goggle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, h, body := do(t, tt.method, f.URL()+tt.path+"?"+tt.query.Encode(), tt.header, "")
			if status != tt.wantStatus || !strings.Contains(body, tt.wantInBody) {
				t.Fatalf("%d %s", status, body)
			}
			if status == 200 && h.Get("X-RateLimit-Reset") == "" {
				t.Fatal("no rate-limit headers on a success")
			}
		})
	}
}

func TestBraveGoggleFilters(t *testing.T) {
	f := NewBrave("k")
	defer f.Close()
	q := url.Values{"q": {"go"}, "goggles": {"$discard\n$site=example.org\n$discard,site=shop.example.org"}}
	_, _, body := do(t, "GET", f.URL()+"/res/v1/web/search?"+q.Encode(), http.Header{"X-Subscription-Token": {"k"}}, "")
	if strings.Contains(body, "shop.example.org") || strings.Contains(body, "docs.example.com") || !strings.Contains(body, "www.example.org") {
		t.Fatalf("goggle not applied: %s", body)
	}
	if !strings.Contains(body, "<strong>") {
		t.Fatal("web descriptions should carry match markers unless text_decorations=false")
	}
}

func TestSearXNGChecksRequests(t *testing.T) {
	f := NewSearXNG()
	defer f.Close()
	tests := []struct {
		name       string
		method     string
		path       string
		query      url.Values
		wantStatus int
		wantInBody string
	}{
		{"ok", "GET", "/search", url.Values{"q": {"go"}, "format": {"json"}}, 200, `"results"`},
		{"prefix path", "GET", "/searx/search", url.Values{"q": {"go"}, "format": {"json"}}, 200, `"results"`},
		{"no format is html", "GET", "/search", url.Values{"q": {"go"}}, 200, "<!DOCTYPE html>"},
		{"no query", "GET", "/search", url.Values{"format": {"json"}}, 400, "No query"},
		{"bad pageno", "GET", "/search", url.Values{"q": {"go"}, "format": {"json"}, "pageno": {"0"}}, 400, "pageno"},
		{"bad time_range", "GET", "/search", url.Values{"q": {"go"}, "format": {"json"}, "time_range": {"pd"}}, 400, "time_range"},
		{"bad language", "GET", "/search", url.Values{"q": {"go"}, "format": {"json"}, "language": {"english"}}, 400, "language"},
		{"bad safesearch", "GET", "/search", url.Values{"q": {"go"}, "format": {"json"}, "safesearch": {"3"}}, 400, "safesearch"},
		{"unknown param", "GET", "/search", url.Values{"q": {"go"}, "format": {"json"}, "count": {"5"}}, 400, "count"},
		{"wrong path", "GET", "/api/search/x", url.Values{"q": {"go"}, "format": {"json"}}, 404, "Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := do(t, tt.method, f.URL()+tt.path+"?"+tt.query.Encode(), http.Header{}, "")
			if status != tt.wantStatus || !strings.Contains(body, tt.wantInBody) {
				t.Fatalf("%d %s", status, body)
			}
		})
	}
	f.DisableJSON()
	if status, _, body := do(t, "GET", f.URL()+"/search?q=go&format=json", http.Header{}, ""); status != 403 || !strings.Contains(body, "Forbidden") {
		t.Fatalf("json disabled: %d %s", status, body)
	}
}
