// Package search is tavo's web search engine: one Engine interface with five
// implementations (Tavily, a self-hosted SearXNG instance, the Brave Search
// API, DuckDuckGo's keyless HTML endpoint, the Bing Web Search API), option
// validation and mapping, result normalisation, a Runner that
// applies the configured default and explicit fallbacks, and an audit hook.
//
// The package knows nothing of models or commands: pkg/tools/websearch adapts
// it to the model and cmd/ to people. Nothing it returns — results, warnings,
// errors, audit records — carries an API key, a raw request, a provider's
// request id or the address it connected to.
package search

import "context"

// Engine names, as written in the config's `engine` field.
const (
	EngineTavily     = "tavily"
	EngineSearXNG    = "searxng"
	EngineBrave      = "brave"
	EngineDuckDuckGo = "duckduckgo"
	EngineBing       = "bing"
)

// EngineNames lists the supported engine names.
func EngineNames() []string {
	return []string{EngineTavily, EngineSearXNG, EngineBrave, EngineDuckDuckGo, EngineBing}
}

// EngineMaxResults is the most results one search asks an engine for: its
// documented maximum, capped by MaxResults. A larger max_results is lowered
// to it with a WarnOptionClamped warning.
func EngineMaxResults(engine string) int {
	switch engine {
	case EngineTavily, EngineBrave:
		// Tavily's max_results and Brave's web count stop at 20.
		return 20
	}
	return MaxResults
}

// Topics, time ranges and Tavily depths accepted by Query.
const (
	TopicGeneral = "general"
	TopicNews    = "news"
	TopicFinance = "finance"

	DepthBasic     = "basic"
	DepthAdvanced  = "advanced"
	DepthFast      = "fast"
	DepthUltraFast = "ultra-fast"
)

// Warning codes. A warning never fails a search; it tells the reader what was
// approximated, ignored or retried.
const (
	// WarnApproximated: an option was mapped onto something close but not
	// equal (domain filters as query operators plus local filtering).
	WarnApproximated = "approximated"
	// WarnUnsupported: the engine has no equivalent of an option; the search ran
	// without it.
	WarnUnsupported = "unsupported"
	// WarnOptionIgnored: an option has no effect with this engine or depth and
	// was not sent.
	WarnOptionIgnored = "option_ignored"
	// WarnOptionClamped: an option was above what the engine allows and was
	// lowered to its maximum (max_results 30 on Tavily runs as 20).
	WarnOptionClamped = "option_clamped"
	// WarnFiltered: results outside the domain filters were dropped locally.
	WarnFiltered = "filtered"
	// WarnMalformedResults: results without a usable http(s) URL were dropped.
	WarnMalformedResults = "malformed_results"
	// WarnPartial: some of a SearXNG instance's engines did not answer.
	WarnPartial = "partial_results"
	// WarnFallback: a search API failed and the next one in the explicit
	// fallback list was tried.
	WarnFallback = "fallback"
	// WarnFallbackSkipped: a fallback API is incomplete and was skipped.
	WarnFallbackSkipped = "fallback_skipped"
	// WarnAuditFailed: the search succeeded but could not be written to the
	// search log.
	WarnAuditFailed = "audit_failed"
)

// Result is one normalised search hit.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
	// Score is the engine's relevance score in [0,1] where it has one (Tavily);
	// nil elsewhere, never invented.
	Score *float64 `json:"score,omitempty"`
	// PublishedDate is RFC 3339 when the source gave a time zone, else
	// "YYYY-MM-DDTHH:MM:SS" or "YYYY-MM-DD"; empty when unknown.
	PublishedDate string `json:"published_date,omitempty"`
}

// Warning is a note about one search.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Response is the normalised answer of one search.
type Response struct {
	Results  []Result  `json:"results"`
	Warnings []Warning `json:"warnings"`
	// API and Engine name the configured search API that answered.
	API    string `json:"api,omitempty"`
	Engine string `json:"engine,omitempty"`
}

// Engine runs searches against one configured search API.
type Engine interface {
	// Name is the configured API's name.
	Name() string
	// Search validates q, applies it to the engine's API and returns the
	// normalised results. Failures are *Error (or *ValidationError, or the
	// context's error when ctx ended).
	Search(ctx context.Context, q Query) (*Response, error)
}
