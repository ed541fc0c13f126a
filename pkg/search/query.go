package search

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on a Query. MaxQueryRunes follows Tavily's advice and Brave's hard
// limit of 400 characters; the domain counts are Tavily's documented maxima.
// MaxResults is the most any engine is asked for (SPEC §16); an engine that
// allows fewer clamps it (EngineMaxResults).
const (
	MaxQueryRunes      = 400
	MinResults         = 1
	MaxResults         = 30
	DefaultMaxResults  = 5
	MinChunksPerSource = 1
	MaxChunksPerSource = 3
	MaxIncludeDomains  = 300
	MaxExcludeDomains  = 150
)

// Query is one search request with its options. Zero values mean "not set":
// the API's configured defaults fill them (WithDefaults), then the engine's.
type Query struct {
	Text       string `json:"query"`
	MaxResults int    `json:"max_results,omitempty"`
	// Topic is general, news or finance.
	Topic string `json:"topic,omitempty"`
	// TimeRange is day, week, month or year.
	TimeRange string `json:"time_range,omitempty"`
	// Depth is Tavily's search_depth: basic, advanced, fast or ultra-fast.
	Depth string `json:"depth,omitempty"`
	// ChunksPerSource is Tavily's chunks_per_source, 1–3.
	ChunksPerSource int      `json:"chunks_per_source,omitempty"`
	IncludeDomains  []string `json:"include_domains,omitempty"`
	ExcludeDomains  []string `json:"exclude_domains,omitempty"`
}

// ValidationError says which option of a Query is wrong. Path names the
// option as the tool's arguments spell it ("include_domains[2]").
type ValidationError struct {
	Path     string
	Expected string
	// Actual is the JSON type of the rejected value.
	Actual  string
	Message string
}

func (e *ValidationError) Error() string { return e.Path + ": " + e.Message }

// WithDefaults returns q with every unset option taken from d.
func (q Query) WithDefaults(d Query) Query {
	if q.MaxResults == 0 {
		q.MaxResults = d.MaxResults
	}
	if q.Topic == "" {
		q.Topic = d.Topic
	}
	if q.TimeRange == "" {
		q.TimeRange = d.TimeRange
	}
	if q.Depth == "" {
		q.Depth = d.Depth
	}
	if q.ChunksPerSource == 0 {
		q.ChunksPerSource = d.ChunksPerSource
	}
	if q.IncludeDomains == nil {
		q.IncludeDomains = slices.Clone(d.IncludeDomains)
	}
	if q.ExcludeDomains == nil {
		q.ExcludeDomains = slices.Clone(d.ExcludeDomains)
	}
	return q
}

// Validate reports the first invalid option of q, as a *ValidationError.
func (q Query) Validate() error {
	_, err := q.Normalized()
	return err
}

// Normalized validates q and returns it in canonical form: whitespace runs in
// the text collapsed, domains reduced to lower-case host names (scheme, path,
// port and a leading "*." removed) without duplicates.
func (q Query) Normalized() (Query, error) {
	q.Text = strings.Join(strings.Fields(q.Text), " ")
	if q.Text == "" {
		return q, &ValidationError{Path: "query", Expected: "a non-empty string", Actual: "string",
			Message: "the query is empty; give the words to search for"}
	}
	if n := utf8.RuneCountInString(q.Text); n > MaxQueryRunes {
		return q, &ValidationError{Path: "query", Expected: fmt.Sprintf("at most %d characters", MaxQueryRunes), Actual: "string",
			Message: fmt.Sprintf("the query has %d characters; shorten it to at most %d", n, MaxQueryRunes)}
	}
	if q.MaxResults != 0 && (q.MaxResults < MinResults || q.MaxResults > MaxResults) {
		return q, rangeError("max_results", q.MaxResults, MinResults, MaxResults)
	}
	if q.ChunksPerSource != 0 && (q.ChunksPerSource < MinChunksPerSource || q.ChunksPerSource > MaxChunksPerSource) {
		return q, rangeError("chunks_per_source", q.ChunksPerSource, MinChunksPerSource, MaxChunksPerSource)
	}
	if err := oneOf("topic", q.Topic, TopicGeneral, TopicNews, TopicFinance); err != nil {
		return q, err
	}
	if err := oneOf("time_range", q.TimeRange, "day", "week", "month", "year"); err != nil {
		return q, err
	}
	if err := oneOf("depth", q.Depth, DepthBasic, DepthAdvanced, DepthFast, DepthUltraFast); err != nil {
		return q, err
	}
	var err error
	if q.IncludeDomains, err = normalizeDomains("include_domains", q.IncludeDomains, MaxIncludeDomains); err != nil {
		return q, err
	}
	if q.ExcludeDomains, err = normalizeDomains("exclude_domains", q.ExcludeDomains, MaxExcludeDomains); err != nil {
		return q, err
	}
	for i, d := range q.ExcludeDomains {
		if slices.Contains(q.IncludeDomains, d) {
			return q, &ValidationError{Path: fmt.Sprintf("exclude_domains[%d]", i), Expected: "a domain not in include_domains", Actual: "string",
				Message: fmt.Sprintf("%q is both included and excluded; keep it in one list", d)}
		}
	}
	return q, nil
}

func rangeError(path string, v, lo, hi int) error {
	return &ValidationError{Path: path, Expected: fmt.Sprintf("an integer from %d to %d", lo, hi), Actual: "integer",
		Message: fmt.Sprintf("%d is out of range; use %d to %d", v, lo, hi)}
}

func oneOf(path, v string, allowed ...string) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	want := strings.Join(allowed, ", ")
	return &ValidationError{Path: path, Expected: "one of " + want, Actual: "string",
		Message: fmt.Sprintf("%q is not supported; use one of %s", truncateBytes(v, 40), want)}
}

func normalizeDomains(path string, in []string, limit int) ([]string, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if len(in) > limit {
		return nil, &ValidationError{Path: path, Expected: fmt.Sprintf("at most %d domains", limit), Actual: "array",
			Message: fmt.Sprintf("%d domains given; use at most %d", len(in), limit)}
	}
	out := make([]string, 0, len(in))
	for i, raw := range in {
		d, ok := normalizeDomain(raw)
		if !ok {
			return nil, &ValidationError{Path: fmt.Sprintf("%s[%d]", path, i), Expected: `a domain name such as "example.com"`, Actual: "string",
				Message: fmt.Sprintf("%q is not a domain name; write it like \"example.com\"", truncateBytes(raw, 80))}
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// normalizeDomain reduces "https://Docs.Example.com:443/path" to
// "docs.example.com" and checks what is left is a host name.
func normalizeDomain(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimPrefix(s, "*.")
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 || !utf8.ValidString(s) {
		return "", false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return "", false
		}
		for _, r := range label {
			if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return "", false
			}
		}
	}
	return s, true
}
