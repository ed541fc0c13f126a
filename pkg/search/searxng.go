package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// searxng searches a self-hosted instance's JSON API:
// GET {base}/search?q=…&format=json&categories=…&time_range=…&language=…&pageno=N.
type searxng struct {
	api API
	c   *caller
}

func (s *searxng) Name() string { return s.api.Name }

// searxMaxPages bounds how many result pages one search may read to reach
// max_results; an instance usually answers 10–20 results a page.
const searxMaxPages = 3

func (s *searxng) Search(ctx context.Context, q Query) (*Response, error) {
	q, err := prepare(q)
	if err != nil {
		return nil, err
	}
	params, warns := s.mapQuery(q)
	var c collector
	partial := map[string]bool{}
	for page := 1; page <= searxMaxPages; page++ {
		params.Set("pageno", strconv.Itoa(page))
		before := len(c.results)
		unresponsive, err := s.page(ctx, params, &c)
		if err != nil {
			if page > 1 && ctx.Err() == nil {
				// Later pages only top up; keep what the first gave.
				warns = append(warns, Warning{Code: WarnPartial, Message: fmt.Sprintf("page %d of the instance's results could not be read; fewer results are returned", page)})
				break
			}
			return nil, err
		}
		for _, e := range unresponsive {
			partial[e] = true
		}
		kept, _ := filterDomains(c.results, q.IncludeDomains, q.ExcludeDomains)
		if len(kept) >= q.MaxResults || len(c.results) == before {
			break
		}
	}
	if len(partial) > 0 {
		names := make([]string, 0, len(partial))
		for n := range partial {
			names = append(names, n)
		}
		slices.Sort(names)
		warns = append(warns, Warning{Code: WarnPartial,
			Message: "some of the instance's engines did not answer: " + truncateBytes(strings.Join(names, ", "), 200)})
	}
	return finish(c.results, append(warns, c.warnings()...), q, "SearXNG"), nil
}

// mapQuery writes q as SearXNG parameters and says what was approximated.
func (s *searxng) mapQuery(q Query) (url.Values, []Warning) {
	v := url.Values{}
	v.Set("format", "json")
	var warns []Warning
	text := q.Text
	// Engines behind an instance understand site: differently or not at all,
	// so operators only steer them; results are filtered locally as well.
	switch len(q.IncludeDomains) {
	case 0:
	case 1:
		text += " site:" + q.IncludeDomains[0]
	}
	for _, d := range q.ExcludeDomains {
		text += " -site:" + d
	}
	if len(q.IncludeDomains)+len(q.ExcludeDomains) > 0 {
		how := "site: operators were added to the query"
		if len(q.IncludeDomains) > 1 {
			// "site:a OR site:b" binds differently per engine behind the instance.
			how = "several included domains have no portable operator, so only exclusions were added to the query as -site:"
		}
		warns = append(warns, Warning{Code: WarnApproximated,
			Message: "SearXNG has no domain filter: " + how + " and the results were filtered locally; fewer results may be returned"})
	}
	v.Set("q", text)
	switch q.Topic {
	case TopicNews:
		v.Set("categories", "news")
	case TopicFinance:
		v.Set("categories", "general")
		warns = append(warns, Warning{Code: WarnUnsupported, Message: "SearXNG has no finance category; searched the general category"})
	default:
		v.Set("categories", "general")
	}
	if q.TimeRange != "" {
		v.Set("time_range", q.TimeRange)
	}
	if s.api.Language != "" {
		v.Set("language", s.api.Language)
	}
	warns = append(warns, ignoredTavilyOptions(q, "SearXNG")...)
	return v, warns
}

// page reads one result page into c and returns the engines that did not
// answer.
func (s *searxng) page(ctx context.Context, params url.Values, c *collector) ([]string, error) {
	req, err := http.NewRequest(http.MethodGet, endpoint(s.api.BaseURL, "", "/search")+"?"+params.Encode(), nil)
	if err != nil {
		return nil, s.c.fail(CodeNotConfigured, 0, "base_url cannot be used for a request")
	}
	req.Header.Set("Accept", "application/json")
	a, err := s.c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	if a.status != http.StatusOK {
		code, msg := "", searxErrorText(a.body)
		if a.status == http.StatusForbidden {
			// SearXNG answers 403 when the requested format is not enabled.
			code = CodeBadRequest
			msg = "the instance refused format=json; add json to search.formats in its settings.yml"
		}
		return nil, s.c.httpError(a, code, msg)
	}
	names, err := decodeSearXNG(a.body, c)
	if err != nil {
		return nil, s.c.fail(CodeUpstream, a.status, "the answer is not SearXNG's JSON; check base_url points at the instance and json is in its search.formats")
	}
	return names, nil
}

// decodeSearXNG reads {"results":[{title,url,content,publishedDate}],
// "unresponsive_engines":[[name, reason]]}. SearXNG's score is an unbounded
// rank weight, not a relevance in [0,1], so it is not passed on.
func decodeSearXNG(body []byte, c *collector) ([]string, error) {
	var env struct {
		Results      *[]json.RawMessage `json:"results"`
		Unresponsive []json.RawMessage  `json:"unresponsive_engines"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Results == nil {
		return nil, errUnreadable
	}
	for _, raw := range *env.Results {
		var it struct {
			Title         string `json:"title"`
			URL           string `json:"url"`
			Content       string `json:"content"`
			PublishedDate any    `json:"publishedDate"`
		}
		if json.Unmarshal(raw, &it) != nil {
			c.bad++
			continue
		}
		date, _ := it.PublishedDate.(string)
		c.add(it.Title, it.URL, it.Content, nil, date)
	}
	var names []string
	for _, raw := range env.Unresponsive {
		var pair []any
		if json.Unmarshal(raw, &pair) == nil && len(pair) > 0 {
			if n, ok := pair[0].(string); ok {
				if n = cleanText(n, 60); n != "" {
					names = append(names, n)
				}
			}
		}
	}
	return names, nil
}

// searxErrorText reads SearXNG's {"error":"…"}; anything else (HTML, the
// limiter's plain text) gives no message.
func searxErrorText(body []byte) string {
	var env struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil {
		return ""
	}
	return env.Error
}

// ignoredTavilyOptions warns that Tavily-only options were not sent.
func ignoredTavilyOptions(q Query, engine string) []Warning {
	var w []Warning
	if q.Depth != "" {
		w = append(w, Warning{Code: WarnOptionIgnored, Message: "depth is a Tavily option; " + engine + " has no equivalent"})
	}
	if q.ChunksPerSource != 0 {
		w = append(w, Warning{Code: WarnOptionIgnored, Message: "chunks_per_source is a Tavily option; " + engine + " has no equivalent"})
	}
	return w
}
