package fake

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// SearXNG imitates a self-hosted instance's GET {base}/search. It answers
// under any path prefix (a base_url like http://host/searxng works) and
// ignores site: operators, like many of the engines behind a real instance.
type SearXNG struct {
	*server

	cfgMu        sync.Mutex
	jsonDisabled bool
	pageSize     int
	unresponsive [][2]string
}

var searxParams = []string{
	"q", "format", "categories", "engines", "language", "pageno", "time_range", "safesearch",
	"image_proxy", "autocomplete", "results_on_new_tab", "theme", "enabled_plugins",
	"disabled_plugins", "enabled_engines", "disabled_engines", "timeout_limit",
}

var searxCategories = []string{"general", "images", "videos", "news", "map", "music", "it", "science", "files", "social media"}

var searxLanguage = regexp.MustCompile(`^(all|auto|[a-z]{2,3}(-[a-zA-Z]{2,4})?)$`)

// NewSearXNG starts a SearXNG fake with JSON enabled and 10 results a page.
func NewSearXNG() *SearXNG {
	s := &SearXNG{pageSize: 10}
	s.server = newServer(s.check, s.answer)
	return s
}

// DisableJSON makes the instance answer format=json with 403, as SearXNG
// does when json is not in search.formats.
func (s *SearXNG) DisableJSON() {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	s.jsonDisabled = true
}

// SetPageSize sets how many results one page holds.
func (s *SearXNG) SetPageSize(n int) {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	s.pageSize = n
}

// SetUnresponsive lists engines reported in unresponsive_engines as
// [name, reason] pairs.
func (s *SearXNG) SetUnresponsive(pairs ...[2]string) {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	s.unresponsive = pairs
}

// SearXNGError is SearXNG's JSON error answer.
func SearXNGError(status int, msg string) Reply {
	b := marshal(map[string]string{"error": msg})
	return Reply{Status: status, Body: string(b)}
}

// SearXNGLimited is the 429 of SearXNG's bot limiter: plain text, no JSON.
func SearXNGLimited() Reply {
	return Reply{Status: http.StatusTooManyRequests, Header: http.Header{"Content-Type": {"text/plain"}}, Body: "Too Many Requests"}
}

// SearXNGServerError is the 500 SearXNG sends when a search crashes.
func SearXNGServerError() Reply { return SearXNGError(http.StatusInternalServerError, "search error") }

func (s *SearXNG) check(r *Request) *Reply {
	if !strings.HasSuffix(r.Path, "/search") {
		return &Reply{Status: http.StatusNotFound, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<h1>Not Found</h1>"}
	}
	if r.Method != http.MethodGet {
		return &Reply{Status: http.StatusMethodNotAllowed, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<h1>Method Not Allowed</h1>"}
	}
	format := r.Query.Get("format")
	if format != "json" {
		// The HTML page; a client asking for JSON cannot read it.
		return &Reply{Status: http.StatusOK, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<!DOCTYPE html><html><body>results</body></html>"}
	}
	s.cfgMu.Lock()
	disabled := s.jsonDisabled
	s.cfgMu.Unlock()
	if disabled {
		return &Reply{Status: http.StatusForbidden, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1>"}
	}
	bad := func(msg string) *Reply { rep := SearXNGError(http.StatusBadRequest, msg); return &rep }
	for k := range r.Query {
		if !slices.Contains(searxParams, k) && !strings.HasPrefix(k, "category_") {
			return bad("Invalid value for parameter " + k)
		}
	}
	if r.Query.Get("q") == "" {
		return bad("No query")
	}
	if p, ok := r.Query["pageno"]; ok {
		if n, err := strconv.Atoi(p[0]); err != nil || n < 1 {
			return bad(`Invalid value "` + p[0] + `" for parameter pageno`)
		}
	}
	if tr := r.Query.Get("time_range"); tr != "" && tr != "None" && !slices.Contains([]string{"day", "week", "month", "year"}, tr) {
		return bad(`Invalid value "` + tr + `" for parameter time_range`)
	}
	if l, ok := r.Query["language"]; ok && !searxLanguage.MatchString(l[0]) {
		return bad(`Invalid value "` + l[0] + `" for parameter language`)
	}
	if ss, ok := r.Query["safesearch"]; ok {
		if n, err := strconv.Atoi(ss[0]); err != nil || n < 0 || n > 2 {
			return bad(`Invalid value "` + ss[0] + `" for parameter safesearch`)
		}
	}
	return nil
}

func (s *SearXNG) answer(r *Request, hits []Hit) Reply {
	s.cfgMu.Lock()
	size, unresponsive := s.pageSize, s.unresponsive
	s.cfgMu.Unlock()
	cats := []string{}
	for c := range strings.SplitSeq(r.Query.Get("categories"), ",") {
		// Unknown categories are dropped silently, as SearXNG does.
		if c = strings.TrimSpace(c); slices.Contains(searxCategories, c) {
			cats = append(cats, c)
		}
	}
	if len(cats) == 0 {
		cats = []string{"general"}
	}
	if slices.Contains(cats, "news") && !slices.Contains(cats, "general") {
		var dated []Hit
		for _, h := range hits {
			if !h.Published.IsZero() {
				dated = append(dated, h)
			}
		}
		hits = dated
	}
	page := 1
	if n, err := strconv.Atoi(r.Query.Get("pageno")); err == nil {
		page = n
	}
	lo := min((page-1)*size, len(hits))
	hi := min(lo+size, len(hits))
	results := []map[string]any{}
	for i, h := range hits[lo:hi] {
		var published any
		if !h.Published.IsZero() {
			published = h.Published.Format("2006-01-02T15:04:05")
		}
		results = append(results, map[string]any{
			"url": h.URL, "title": h.Title, "content": h.Content, "engine": "duckduckgo",
			"parsed_url": []string{"https", hostOf(h.URL), "/page", "", "", ""},
			"template":   "default.html", "engines": []string{"duckduckgo", "brave"},
			"positions": []int{lo + i + 1}, "score": h.Score * 4, "category": cats[0],
			"publishedDate": published,
		})
	}
	un := make([][]string, 0, len(unresponsive))
	for _, p := range unresponsive {
		un = append(un, []string{p[0], p[1]})
	}
	b := marshal(map[string]any{
		"query": r.Query.Get("q"), "number_of_results": 0, "results": results,
		"answers": []any{}, "corrections": []any{}, "infoboxes": []any{}, "suggestions": []any{},
		"unresponsive_engines": un,
	})
	return Reply{Status: http.StatusOK, Body: string(b)}
}
