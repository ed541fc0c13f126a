package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// tavily searches with POST {base}/search, the key as a Bearer token.
type tavily struct {
	api API
	c   *caller
}

func (t *tavily) Name() string { return t.api.Name }

// tavilyRequest is the documented request body; unset options are omitted
// so Tavily applies its own defaults.
type tavilyRequest struct {
	Query           string   `json:"query"`
	SearchDepth     string   `json:"search_depth,omitempty"`
	ChunksPerSource int      `json:"chunks_per_source,omitempty"`
	MaxResults      int      `json:"max_results"`
	Topic           string   `json:"topic,omitempty"`
	TimeRange       string   `json:"time_range,omitempty"`
	IncludeDomains  []string `json:"include_domains,omitempty"`
	ExcludeDomains  []string `json:"exclude_domains,omitempty"`
}

// tavilyChunkDepths are the depths whose content is made of chunks, the only
// ones chunks_per_source affects (Tavily documents it for advanced; fast
// returns chunks too). Basic and ultra-fast return one summary per page.
var tavilyChunkDepths = map[string]bool{DepthAdvanced: true, DepthFast: true}

func (t *tavily) Search(ctx context.Context, q Query) (*Response, error) {
	q, err := prepare(q)
	if err != nil {
		return nil, err
	}
	q, warns := clampResults(q, EngineTavily, "Tavily")
	body := tavilyRequest{
		Query:          q.Text,
		SearchDepth:    q.Depth,
		MaxResults:     q.MaxResults,
		Topic:          q.Topic,
		TimeRange:      q.TimeRange,
		IncludeDomains: q.IncludeDomains,
		ExcludeDomains: q.ExcludeDomains,
	}
	if q.ChunksPerSource > 0 {
		if tavilyChunkDepths[q.Depth] {
			body.ChunksPerSource = q.ChunksPerSource
		} else {
			depth := q.Depth
			if depth == "" {
				depth = DepthBasic
			}
			warns = append(warns, Warning{Code: WarnOptionIgnored,
				Message: "chunks_per_source only applies to advanced and fast depth; it was not sent with " + depth + " depth"})
		}
	}
	buf, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, endpoint(t.api.BaseURL, TavilyBaseURL, "/search"), bytes.NewReader(buf))
	if err != nil {
		return nil, t.c.fail(CodeNotConfigured, 0, "base_url cannot be used for a request")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.api.APIKey)
	a, err := t.c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	if a.status != http.StatusOK {
		return nil, t.c.httpError(a, "", tavilyErrorText(a.body))
	}
	rs, dw, err := decodeTavily(a.body)
	if err != nil {
		return nil, t.c.fail(CodeUpstream, a.status, err.Error())
	}
	return finish(rs, append(warns, dw...), q, "Tavily"), nil
}

// prepare validates q and fills the engine-independent default.
func prepare(q Query) (Query, error) {
	q, err := q.Normalized()
	if err != nil {
		return q, err
	}
	if q.MaxResults == 0 {
		q.MaxResults = DefaultMaxResults
	}
	return q, nil
}

// clampResults lowers q.MaxResults to what engine allows and says so.
func clampResults(q Query, engine, display string) (Query, []Warning) {
	limit := EngineMaxResults(engine)
	if q.MaxResults <= limit {
		return q, nil
	}
	w := Warning{Code: WarnOptionClamped,
		Message: fmt.Sprintf("max_results %d is more than %s allows; asked for %d", q.MaxResults, display, limit)}
	q.MaxResults = limit
	return q, []Warning{w}
}

var errUnreadable = errors.New("the answer is not the documented JSON; the API may have changed or the base_url is wrong")

// decodeTavily reads a 200 answer: {"results":[{title,url,content,score,
// published_date}], ...}. request_id, usage and the rest are ignored.
func decodeTavily(body []byte) ([]Result, []Warning, error) {
	var env struct {
		Results *[]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Results == nil {
		return nil, nil, errUnreadable
	}
	var c collector
	for _, raw := range *env.Results {
		var it struct {
			Title         string   `json:"title"`
			URL           string   `json:"url"`
			Content       string   `json:"content"`
			Score         *float64 `json:"score"`
			PublishedDate string   `json:"published_date"`
		}
		if json.Unmarshal(raw, &it) != nil {
			c.bad++
			continue
		}
		c.add(it.Title, it.URL, it.Content, it.Score, it.PublishedDate)
	}
	return c.results, c.warnings(), nil
}

// tavilyErrorText finds the message in Tavily's {"detail":{"error":"…"}},
// FastAPI's {"detail":"…"} and the keyless {"error":{"message":"…"}} shapes.
func tavilyErrorText(body []byte) string {
	var env struct {
		Detail json.RawMessage `json:"detail"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(env.Detail, &s) == nil {
		return s
	}
	var d struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(env.Detail, &d) == nil && (d.Error != "" || d.Message != "") {
		return firstNonEmpty(d.Error, d.Message)
	}
	if json.Unmarshal(env.Error, &s) == nil {
		return s
	}
	if json.Unmarshal(env.Error, &d) == nil {
		return firstNonEmpty(d.Message, d.Error)
	}
	return ""
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
