package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"slices"
)

// Tavily imitates POST https://api.tavily.com/search.
type Tavily struct {
	*server
	key string
}

// TavilyRequestID is the request_id every success answer carries, so tests
// can check it never surfaces.
const TavilyRequestID = "123e4567-e89b-12d3-a456-426614174111"

// tavilyFields are the documented request body fields.
var tavilyFields = []string{
	"query", "search_depth", "chunks_per_source", "max_results", "topic", "time_range",
	"start_date", "end_date", "days", "include_answer", "include_raw_content", "include_images",
	"include_image_descriptions", "include_favicon", "include_domains", "exclude_domains",
	"country", "auto_parameters", "exact_match", "include_usage",
}

// NewTavily starts a Tavily fake that accepts the key as its only valid key.
func NewTavily(key string) *Tavily {
	t := &Tavily{key: key}
	t.server = newServer(t.check, t.answer)
	return t
}

// TavilyError is Tavily's documented error answer.
func TavilyError(status int, msg string) Reply {
	b := marshal(map[string]any{"detail": map[string]string{"error": msg}})
	return Reply{Status: status, Body: string(b)}
}

// TavilyRateLimited is Tavily's documented 429; it sends no Retry-After.
func TavilyRateLimited() Reply {
	return TavilyError(http.StatusTooManyRequests, "Your request has been blocked due to excessive requests. Please reduce rate of requests.")
}

// TavilyServerError is Tavily's documented 500.
func TavilyServerError() Reply {
	return TavilyError(http.StatusInternalServerError, "Internal Server Error")
}

func (t *Tavily) check(r *Request) *Reply {
	if r.Path != "/search" {
		return &Reply{Status: http.StatusNotFound, Body: `{"detail":"Not Found"}`}
	}
	if r.Method != http.MethodPost {
		return &Reply{Status: http.StatusMethodNotAllowed, Body: `{"detail":"Method Not Allowed"}`}
	}
	if r.Header.Get("Authorization") != "Bearer "+t.key || t.key == "" {
		rep := TavilyError(http.StatusUnauthorized, "Unauthorized: missing or invalid API key.")
		return &rep
	}
	bad := func(format string, args ...any) *Reply {
		rep := TavilyError(http.StatusBadRequest, fmt.Sprintf(format, args...))
		return &rep
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return bad("Content-Type must be application/json.")
	}
	var body map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	if err := dec.Decode(&body); err != nil || body == nil {
		return bad("Invalid JSON body.")
	}
	for k := range body {
		if !slices.Contains(tavilyFields, k) {
			return bad("Unknown field %q.", k)
		}
	}
	var query string
	if json.Unmarshal(body["query"], &query) != nil || query == "" {
		return bad("Query is missing.")
	}
	if rep := enumField(body, "search_depth", bad, "basic", "advanced", "fast", "ultra-fast"); rep != nil {
		return rep
	}
	if rep := enumField(body, "topic", bad, "general", "news", "finance"); rep != nil {
		return rep
	}
	if rep := enumField(body, "time_range", bad, "day", "week", "month", "year", "d", "w", "m", "y"); rep != nil {
		return rep
	}
	if rep := intField(body, "chunks_per_source", 1, 3, bad); rep != nil {
		return rep
	}
	if rep := intField(body, "max_results", 0, 20, bad); rep != nil {
		return rep
	}
	for name, limit := range map[string]int{"include_domains": 300, "exclude_domains": 150} {
		if raw, ok := body[name]; ok {
			var ds []string
			if json.Unmarshal(raw, &ds) != nil {
				return bad("%s must be a list of strings.", name)
			}
			if len(ds) > limit {
				return bad("%s accepts at most %d domains.", name, limit)
			}
		}
	}
	return nil
}

func enumField(body map[string]json.RawMessage, name string, bad func(string, ...any) *Reply, allowed ...string) *Reply {
	raw, ok := body[name]
	if !ok {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil || !slices.Contains(allowed, s) {
		return bad("Invalid %s. Must be one of %v.", name, allowed)
	}
	return nil
}

func intField(body map[string]json.RawMessage, name string, lo, hi int, bad func(string, ...any) *Reply) *Reply {
	raw, ok := body[name]
	if !ok {
		return nil
	}
	var n int
	if json.Unmarshal(raw, &n) != nil || n < lo || n > hi {
		return bad("%s must be an integer between %d and %d.", name, lo, hi)
	}
	return nil
}

func (t *Tavily) answer(r *Request, hits []Hit) Reply {
	var body struct {
		Query          string   `json:"query"`
		MaxResults     *int     `json:"max_results"`
		Topic          string   `json:"topic"`
		IncludeDomains []string `json:"include_domains"`
		ExcludeDomains []string `json:"exclude_domains"`
	}
	_ = json.Unmarshal(r.Body, &body)
	limit := 5
	if body.MaxResults != nil {
		limit = *body.MaxResults
	}
	results := []map[string]any{}
	for _, h := range filterHits(hits, body.IncludeDomains, body.ExcludeDomains) {
		if len(results) == limit {
			break
		}
		res := map[string]any{"title": h.Title, "url": h.URL, "content": h.Content, "score": h.Score, "raw_content": nil}
		if body.Topic == "news" && !h.Published.IsZero() {
			res["published_date"] = h.Published.Format(http.TimeFormat)
		}
		results = append(results, res)
	}
	b := marshal(map[string]any{
		"query": body.Query, "follow_up_questions": nil, "answer": nil, "images": []any{},
		"results": results, "response_time": 0.42, "request_id": TavilyRequestID,
	})
	return Reply{Status: http.StatusOK, Body: string(b)}
}

// filterHits applies include and exclude domain lists the way the real APIs
// filter on their side.
func filterHits(hits []Hit, include, exclude []string) []Hit {
	var out []Hit
	for _, h := range hits {
		host := hostOf(h.URL)
		ok := len(include) == 0
		for _, d := range include {
			ok = ok || inDomain(host, d)
		}
		for _, d := range exclude {
			ok = ok && !inDomain(host, d)
		}
		if ok {
			out = append(out, h)
		}
	}
	return out
}
