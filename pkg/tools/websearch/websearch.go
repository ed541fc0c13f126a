// Package websearch is the tavo_web_search tool: the model searches the web
// through the configured search API and gets normalised source summaries
// (SPEC §5, §7). It adapts pkg/search to the model; fetching a result is a
// separate tavo_web_fetch call.
package websearch

import (
	"context"
	"encoding/json"
	"errors"
	"math"

	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// Name is the model-facing name of the tool.
const Name = "tavo_web_search"

// Searcher runs a search; *search.Runner is the one tavo uses.
type Searcher interface {
	Search(ctx context.Context, q search.Query) (*search.Response, error)
}

// New returns tavo_web_search backed by s. Offer it only when the default
// search API is complete (search.Runner.Ready), per SPEC §4.
func New(s Searcher) tools.Tool { return webSearch{s: s} }

type webSearch struct{ s Searcher }

const description = "Search the web for current sources and get short summaries: title, URL and snippet, " +
	"plus a relevance score or publication date when the search API gives one. It returns summaries only; " +
	"to read a page in full, call tavo_web_fetch with its URL. Write a focused query of at most 400 characters. " +
	"Optional filters: max_results (1-30; Tavily and Brave return at most 20), topic (general, news or finance), time_range (day, week, month or year), " +
	"include_domains to search only those sites, exclude_domains to leave sites out. " +
	`Returns {"results":[{title,url,snippet,score?,published_date?}],"warnings":[{code,message}]}; ` +
	"warnings say when the configured search API could only approximate or had to ignore a filter."

// Schema is the JSON Schema of the tool's arguments.
const Schema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "maxLength": 400, "pattern": "\\S", "description": "What to search for, as search words rather than a long prompt."},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 30, "description": "How many results to return (1-30; Tavily and Brave return at most 20); the configured default when omitted."},
    "topic": {"type": "string", "enum": ["general", "news", "finance"], "description": "news for current events, finance for markets and companies, general otherwise."},
    "time_range": {"type": "string", "enum": ["day", "week", "month", "year"], "description": "Only sources published or updated within this period."},
    "include_domains": {"type": "array", "maxItems": 300, "items": {"type": "string", "minLength": 1}, "description": "Search only these sites, e.g. [\"go.dev\"]; subdomains included."},
    "exclude_domains": {"type": "array", "maxItems": 150, "items": {"type": "string", "minLength": 1}, "description": "Leave these sites out; subdomains included."}
  },
  "required": ["query"],
  "additionalProperties": false
}`

// Spec describes tavo_web_search to the model.
func (webSearch) Spec() tools.Spec {
	return tools.Spec{
		Name:        Name,
		ID:          Name,
		Description: description,
		Parameters:  json.RawMessage(Schema),
		Resident:    true,
		Source:      tools.SourceBuiltin,
	}
}

// args are the tool's arguments; pointers tell "absent" from zero.
type args struct {
	Query          string   `json:"query"`
	MaxResults     *int     `json:"max_results"`
	Topic          string   `json:"topic"`
	TimeRange      string   `json:"time_range"`
	IncludeDomains []string `json:"include_domains"`
	ExcludeDomains []string `json:"exclude_domains"`
}

// Result is what the model reads.
type Result struct {
	Results  []search.Result  `json:"results"`
	Warnings []search.Warning `json:"warnings"`
}

// Run searches. The arguments were validated against Schema; the checks here
// guard the same contract for callers that skip the catalog.
func (w webSearch) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a args
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		// Our own wording: the decoder's names Go types.
		return nil, &tools.Error{Code: tools.CodeInvalidArguments,
			Message: "the arguments must be an object with query and the documented optional fields only"}
	}
	q := search.Query{
		Text:           a.Query,
		Topic:          a.Topic,
		TimeRange:      a.TimeRange,
		IncludeDomains: a.IncludeDomains,
		ExcludeDomains: a.ExcludeDomains,
	}
	if a.MaxResults != nil {
		if *a.MaxResults == 0 {
			return nil, invalid(&search.ValidationError{Path: "max_results", Expected: "an integer from 1 to 30", Actual: "integer",
				Message: "0 is out of range; use 1 to 30"})
		}
		q.MaxResults = *a.MaxResults
	}
	resp, err := w.s.Search(ctx, q)
	if err != nil {
		return nil, toolError(err)
	}
	out := Result{Results: resp.Results, Warnings: resp.Warnings}
	if out.Results == nil {
		out.Results = []search.Result{}
	}
	if out.Warnings == nil {
		out.Warnings = []search.Warning{}
	}
	return out, nil
}

// toolError maps search failures onto the envelope's codes. Every upstream
// failure, a rate limit included, is upstream_error with the reason in
// details: limit_exceeded is kept for tavo's own limits, so a model never
// mistakes an API's throttling for arguments that were too large.
func toolError(err error) error {
	var ve *search.ValidationError
	if errors.As(err, &ve) {
		return invalid(ve)
	}
	var se *search.Error
	if errors.As(err, &se) {
		d := map[string]any{"reason": se.Code}
		if se.Engine != "" {
			d["engine"] = se.Engine
		}
		if se.Status != 0 {
			d["status"] = se.Status
		}
		if se.RetryAfter > 0 {
			d["retryAfterSeconds"] = int(math.Ceil(se.RetryAfter.Seconds()))
		}
		msg := se.Error()
		if se.Code == search.CodeNotConfigured {
			msg = "web search is not configured: " + msg
		}
		return &tools.Error{Code: tools.CodeUpstreamError, Message: msg, Details: d}
	}
	// Context errors go back unchanged: the executor reports them as
	// cancellation or its own timeout.
	return err
}

func invalid(ve *search.ValidationError) *tools.Error {
	return &tools.Error{Code: tools.CodeInvalidArguments, Message: ve.Error(),
		Details: map[string]any{"path": ve.Path, "expected": ve.Expected, "actualType": ve.Actual}}
}
