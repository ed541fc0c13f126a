package search

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// checkResults holds what every decoder promises whatever the input.
func checkResults(t *testing.T, rs []Result) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range rs {
		if cleanURL(r.URL) == "" {
			t.Fatalf("result with unusable URL %q", r.URL)
		}
		if seen[r.URL] {
			t.Fatalf("duplicate URL %q", r.URL)
		}
		seen[r.URL] = true
		if r.Title == "" || len(r.Title) > maxTitleBytes || len(r.Snippet) > maxSnippetBytes {
			t.Fatalf("title %d bytes, snippet %d bytes", len(r.Title), len(r.Snippet))
		}
		for _, s := range []string{r.Title, r.Snippet, r.PublishedDate} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r\t\x00") {
				t.Fatalf("unclean text %q", s)
			}
		}
		if r.PublishedDate != "" && normalizeDate(r.PublishedDate) != r.PublishedDate {
			t.Fatalf("published_date %q is not in normal form", r.PublishedDate)
		}
	}
}

func FuzzDecodeTavily(f *testing.F) {
	f.Add([]byte(`{"query":"q","results":[{"title":"T","url":"https://a.b/c","content":"x","score":0.5,"published_date":"Mon, 10 Jun 2024 17:34:00 GMT"}],"request_id":"r"}`))
	f.Add([]byte(`{"results":[{"url":5},{"url":"http://x.y"},null]}`))
	f.Add([]byte(`{"results":null}`))
	f.Add([]byte(`{"detail":{"error":"Unauthorized"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, _, err := decodeTavily(body)
		if err != nil && rs != nil {
			t.Fatal("results with an error")
		}
		checkResults(t, rs)
		_ = tavilyErrorText(body)
	})
}

func FuzzDecodeBrave(f *testing.F) {
	f.Add([]byte(`{"type":"search","web":{"results":[{"title":"<strong>T</strong>","url":"https://a.b/","description":"d","page_age":"2025-04-12T14:22:41"}]}}`), false)
	f.Add([]byte(`{"type":"news","results":[{"title":"N","url":"https://n.b/","description":"d"}]}`), true)
	f.Add([]byte(`{"type":"ErrorResponse","error":{"code":"VALIDATION","detail":"d","meta":{"errors":[{"loc":["query",1],"msg":"m"}]}}}`), false)
	f.Add([]byte(`{"type":"search"}`), false)
	f.Fuzz(func(t *testing.T, body []byte, news bool) {
		rs, _, err := decodeBrave(body, news)
		if err != nil && rs != nil {
			t.Fatal("results with an error")
		}
		checkResults(t, rs)
		code, _ := braveErrorText(body)
		switch code {
		case "", CodeAuthFailed, CodeRateLimited, CodeQuotaExceeded, CodeBadRequest:
		default:
			t.Fatalf("unknown code %q", code)
		}
	})
}

func FuzzDecodeSearXNG(f *testing.F) {
	f.Add([]byte(`{"query":"q","results":[{"url":"https://a.b/","title":"T","content":"c","publishedDate":"2024-01-02T03:04:05","score":3.2}],"unresponsive_engines":[["google","timeout"]]}`))
	f.Add([]byte(`{"results":[{"url":"https://a.b/","publishedDate":null},{"url":"https://a.b/"}],"unresponsive_engines":[[1],[],"x"]}`))
	f.Add([]byte(`{"error":"No query"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var c collector
		names, err := decodeSearXNG(body, &c)
		if err != nil && names != nil {
			t.Fatal("names with an error")
		}
		checkResults(t, c.results)
		for _, n := range names {
			if n == "" || len(n) > 60 || !utf8.ValidString(n) {
				t.Fatalf("engine name %q", n)
			}
		}
		_ = searxErrorText(body)
	})
}

func FuzzQueryNormalized(f *testing.F) {
	f.Add("go generics", "https://Go.dev/x", "spam.com", 5)
	f.Add(" ", "", "", 0)
	f.Add("q", "a..b", "-x.com", 21)
	f.Fuzz(func(t *testing.T, text, inc, exc string, n int) {
		q, err := Query{Text: text, MaxResults: n, IncludeDomains: []string{inc}, ExcludeDomains: []string{exc}}.Normalized()
		if err != nil {
			return
		}
		// A normalised query is a fixed point.
		again, err := q.Normalized()
		if err != nil || jsonString(again) != jsonString(q) {
			t.Fatalf("Normalized is not idempotent: %+v then %+v (%v)", q, again, err)
		}
	})
}

func jsonString(q Query) string {
	return strings.Join(append(append([]string{q.Text}, q.IncludeDomains...), q.ExcludeDomains...), "|")
}

func FuzzDecodeDuckDuckGo(f *testing.F) {
	f.Add([]byte(`<div id="links"><div class="result results_links web-result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.b%2Fc&amp;rut=x">T <b>x</b></a></h2><div class="result__extras__url"><a class="result__url">a.b</a><span>&nbsp; 2024-01-02T00:00:00.0000000</span></div><a class="result__snippet">S</a></div></div>`))
	f.Add([]byte(`<div class="result result--ad"><a class="result__a" href="https://duckduckgo.com/y.js?ad=1">Ad</a></div>`))
	f.Add([]byte(`<div class="no-results">No results.</div>`))
	f.Add([]byte(`<div class="result"><a class="result__a" href="javascript:alert(1)">x</a></div><div class="result"><a class="result__a" href="%zz">y</a></div>`))
	f.Add([]byte("<html><body>Welcome to nginx!</body></html>"))
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, _, err := decodeDuckDuckGo(body)
		if err != nil {
			return
		}
		checkResults(t, rs)
	})
}

func FuzzDecodeBing(f *testing.F) {
	f.Add([]byte(`{"_type":"SearchResponse","webPages":{"value":[{"name":"T","url":"https://a.b","snippet":"s","datePublished":"2024-01-02T00:00:00.0000000"}]}}`), false)
	f.Add([]byte(`{"_type":"News","value":[{"name":"T","url":"https://a.b","description":"d","datePublished":"2024-01-02T00:00:00.0000000Z"}]}`), true)
	f.Add([]byte(`{"_type":"SearchResponse"}`), false)
	f.Add([]byte(`{"_type":"ErrorResponse","errors":[{"code":"InvalidRequest"}]}`), false)
	f.Fuzz(func(t *testing.T, body []byte, news bool) {
		rs, _, err := decodeBing(body, news)
		if err != nil {
			return
		}
		checkResults(t, rs)
	})
}
