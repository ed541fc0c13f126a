package fake

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Brave imitates GET https://api.search.brave.com/res/v1/web/search and
// /res/v1/news/search (Brave also takes POST; the fake does not).
type Brave struct {
	*server
	key string
}

// BraveErrorID is the id every error answer carries, so tests can check it
// never surfaces.
const BraveErrorID = "ddab2628-c96e-478f-80ee-9b5f8b1fda26"

var braveWebParams = []string{
	"q", "country", "search_lang", "ui_lang", "count", "offset", "safesearch", "freshness",
	"text_decorations", "spellcheck", "result_filter", "goggles", "goggles_id", "units",
	"extra_snippets", "summary", "operators", "enable_rich_callback", "include_fetch_metadata",
}

var braveNewsParams = []string{
	"q", "country", "search_lang", "ui_lang", "count", "offset", "safesearch", "freshness",
	"spellcheck", "extra_snippets", "goggles", "operators", "include_fetch_metadata",
}

var braveResultTypes = []string{"discussions", "faq", "infobox", "news", "query", "summarizer", "videos", "web", "locations"}

var braveFreshness = regexp.MustCompile(`^(pd|pw|pm|py|\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2})$`)

// braveRateHeaders are the rate-limit headers Brave sends on every answer.
func braveRateHeaders(remainingSecond int) http.Header {
	return http.Header{
		"X-Ratelimit-Limit":     {"1, 15000"},
		"X-Ratelimit-Policy":    {"1;w=1, 15000;w=2592000"},
		"X-Ratelimit-Remaining": {fmt.Sprintf("%d, 14000", remainingSecond)},
		"X-Ratelimit-Reset":     {"1, 1419704"},
	}
}

// NewBrave starts a Brave fake that accepts the key as its only valid
// subscription token.
func NewBrave(key string) *Brave {
	b := &Brave{key: key}
	b.server = newServer(b.check, b.answer)
	return b
}

// BraveError is Brave's documented ErrorResponse.
func BraveError(status int, code, detail string) Reply {
	b := marshal(map[string]any{
		"type": "ErrorResponse",
		"error": map[string]any{
			"id": BraveErrorID, "status": status, "code": code, "detail": detail,
			"meta": map[string]any{"component": "api"},
		},
		"time": 1742589546,
	})
	return Reply{Status: status, Body: string(b)}
}

// BraveRateLimited is Brave's 429: the per-second window is exhausted and
// resets in 1 s (X-RateLimit-Reset), no Retry-After.
func BraveRateLimited() Reply {
	r := BraveError(http.StatusTooManyRequests, "RATE_LIMITED", "Request rate limit exceeded for plan.")
	r.Header = braveRateHeaders(0)
	return r
}

// BraveServerError is a 5xx from Brave's edge.
func BraveServerError() Reply {
	return BraveError(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "The service is temporarily unavailable.")
}

// braveValidation is the 422 Brave sends for a parameter it cannot validate.
func braveValidation(loc []string, msg string) *Reply {
	b := marshal(map[string]any{
		"type": "ErrorResponse",
		"error": map[string]any{
			"id": BraveErrorID, "status": 422, "code": "VALIDATION",
			"detail": "Unable to validate request parameter(s)",
			"meta":   map[string]any{"errors": []any{map[string]any{"type": "value_error", "loc": loc, "msg": msg}}},
		},
		"time": 1742589546,
	})
	return &Reply{Status: http.StatusUnprocessableEntity, Body: string(b)}
}

func (b *Brave) check(r *Request) *Reply {
	var allowed []string
	maxCount := 20
	switch r.Path {
	case "/res/v1/web/search":
		allowed = braveWebParams
	case "/res/v1/news/search":
		allowed, maxCount = braveNewsParams, 50
	default:
		rep := BraveError(http.StatusNotFound, "RESOURCE_NOT_FOUND", "Resource not found.")
		return &rep
	}
	if r.Method != http.MethodGet {
		rep := BraveError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "Method not allowed.")
		return &rep
	}
	tok, ok := r.Header["X-Subscription-Token"]
	if !ok {
		return braveValidation([]string{"header", "x-subscription-token"}, "Field required")
	}
	if len(tok) != 1 || tok[0] != b.key || b.key == "" {
		rep := BraveError(http.StatusUnprocessableEntity, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid.")
		return &rep
	}
	if a := r.Header.Get("Accept"); a != "" && a != "application/json" && a != "*/*" {
		return braveValidation([]string{"header", "accept"}, "Input should be 'application/json' or '*/*'")
	}
	for k, vs := range r.Query {
		if !slices.Contains(allowed, k) {
			return braveValidation([]string{"query", k}, "Extra inputs are not permitted")
		}
		if len(vs) != 1 {
			return braveValidation([]string{"query", k}, "Input should be a single value")
		}
	}
	q := r.Query.Get("q")
	if q == "" {
		return braveValidation([]string{"query", "q"}, "Field required")
	}
	if utf8.RuneCountInString(q) > 400 {
		return braveValidation([]string{"query", "q"}, "String should have at most 400 characters")
	}
	if len(strings.Fields(q)) > 50 {
		return braveValidation([]string{"query", "q"}, "Query should have at most 50 words")
	}
	if rep := braveInt(r, "count", 1, maxCount); rep != nil {
		return rep
	}
	if rep := braveInt(r, "offset", 0, 9); rep != nil {
		return rep
	}
	if f, ok := r.Query["freshness"]; ok && !braveFreshness.MatchString(f[0]) {
		return braveValidation([]string{"query", "freshness"}, "Input should be pd, pw, pm, py or YYYY-MM-DDtoYYYY-MM-DD")
	}
	if s, ok := r.Query["safesearch"]; ok && !slices.Contains([]string{"off", "moderate", "strict"}, s[0]) {
		return braveValidation([]string{"query", "safesearch"}, "Input should be 'off', 'moderate' or 'strict'")
	}
	for _, name := range []string{"text_decorations", "spellcheck", "extra_snippets", "operators", "enable_rich_callback", "include_fetch_metadata", "summary"} {
		if v, ok := r.Query[name]; ok {
			if _, err := strconv.ParseBool(v[0]); err != nil {
				return braveValidation([]string{"query", name}, "Input should be a valid boolean")
			}
		}
	}
	if rf, ok := r.Query["result_filter"]; ok {
		for t := range strings.SplitSeq(rf[0], ",") {
			if !slices.Contains(braveResultTypes, t) {
				return braveValidation([]string{"query", "result_filter"}, "Unknown result type "+strconv.Quote(t))
			}
		}
	}
	if g, ok := r.Query["goggles"]; ok {
		if _, _, err := parseGoggle(g[0]); err != nil {
			return braveValidation([]string{"query", "goggles"}, err.Error())
		}
	}
	return nil
}

func braveInt(r *Request, name string, lo, hi int) *Reply {
	v, ok := r.Query[name]
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(v[0])
	if err != nil {
		return braveValidation([]string{"query", name}, "Input should be a valid integer")
	}
	if n < lo {
		return braveValidation([]string{"query", name}, fmt.Sprintf("Input should be greater than or equal to %d", lo))
	}
	if n > hi {
		return braveValidation([]string{"query", name}, fmt.Sprintf("Input should be less than or equal to %d", hi))
	}
	return nil
}

// parseGoggle understands the inline rules tavo sends: "$discard" (drop
// whatever no other rule keeps), "$site=D" (keep D) and "$discard,site=D"
// (drop D).
func parseGoggle(g string) (keep, drop []string, err error) {
	discardRest := false
	for line := range strings.SplitSeq(g, "\n") {
		switch {
		case line == "$discard":
			discardRest = true
		case strings.HasPrefix(line, "$site="):
			keep = append(keep, strings.TrimPrefix(line, "$site="))
		case strings.HasPrefix(line, "$discard,site="):
			drop = append(drop, strings.TrimPrefix(line, "$discard,site="))
		default:
			return nil, nil, fmt.Errorf("Invalid goggle instruction %q", line)
		}
	}
	if len(keep) > 0 && !discardRest {
		// Without $discard a $site rule only boosts; the fake keeps everything.
		keep = nil
	}
	return keep, drop, nil
}

func (b *Brave) answer(r *Request, hits []Hit) Reply {
	count := 20
	if n, err := strconv.Atoi(r.Query.Get("count")); err == nil {
		count = n
	}
	keep, drop, _ := parseGoggle(r.Query.Get("goggles"))
	if r.Query.Get("goggles") == "" {
		keep, drop = nil, nil
	}
	decorate := r.Query.Get("text_decorations") != "false" && r.Query.Get("text_decorations") != "0"
	news := r.Path == "/res/v1/news/search"
	results := []map[string]any{}
	for _, h := range filterHits(hits, keep, drop) {
		if len(results) == count {
			break
		}
		desc := h.Content
		if decorate && !news {
			if i := strings.IndexByte(desc, ' '); i > 0 {
				desc = "<strong>" + desc[:i] + "</strong>" + desc[i:]
			}
		}
		u := hostOf(h.URL)
		res := map[string]any{
			"title": h.Title, "url": h.URL, "description": desc, "language": "en",
			"meta_url": map[string]any{"scheme": "https", "netloc": u, "hostname": u, "path": "› page"},
		}
		if news {
			res["type"] = "news_result"
		}
		if !h.Published.IsZero() {
			res["page_age"] = h.Published.Format("2006-01-02T15:04:05")
			res["age"] = "3 days ago"
		}
		results = append(results, res)
	}
	query := map[string]any{"original": r.Query.Get("q"), "more_results_available": false}
	var body map[string]any
	if news {
		body = map[string]any{"type": "news", "query": query, "results": results}
	} else {
		body = map[string]any{"type": "search", "query": query,
			"web":   map[string]any{"type": "search", "results": results, "family_friendly": true},
			"mixed": map[string]any{"type": "mixed", "main": []any{}, "top": []any{}, "side": []any{}}}
	}
	out := marshal(body)
	return Reply{Status: http.StatusOK, Header: braveRateHeaders(1), Body: string(out)}
}
