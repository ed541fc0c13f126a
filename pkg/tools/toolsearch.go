package tools

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// ToolSearchName is the model-facing name of the tool search tool.
const ToolSearchName = "tavo_tool_search"

// Tool search limits.
const (
	toolSearchDefaultLimit = 5
	toolSearchMaxSummary   = 200
)

// NewToolSearch returns tavo_tool_search: it searches the run's built-in
// tools that are not visible yet and reveals the matches, which become
// callable from the next round.
func NewToolSearch() Tool { return toolSearch{} }

// toolSearch is tavo_tool_search.
type toolSearch struct{}

// Spec describes tavo_tool_search to the model.
func (toolSearch) Spec() Spec {
	return Spec{
		Name: ToolSearchName,
		ID:   ToolSearchName,
		Description: "Load more built-in tools (files, variables, memory, to-dos…) when none you see fits: " +
			"describe the capability in a few words. Matches become callable in your next response.",
		Parameters: SearchSchema("list saved files"),
		Resident:   true,
		Source:     SourceBuiltin,
	}
}

// SearchMatch is one match of a tool search as the model reads it.
type SearchMatch struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// SearchResult is what a tool search returns to the model.
type SearchResult struct {
	Matches []SearchMatch `json:"matches"`
	Note    string        `json:"note"`
}

// SearchArgs are the arguments of a tool search: {query, limit}.
type SearchArgs struct {
	Query string
	Limit int
}

// SearchSchema is the argument schema of a tool search; example is a
// capability the model might ask for.
func SearchSchema(example string) json.RawMessage {
	return json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "The capability, e.g. \"` + example + `\"."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5, "description": "Most tools to load."}
  },
  "required": ["query"],
  "additionalProperties": false
}`)
}

// ParseSearchArgs reads validated tool-search arguments.
func ParseSearchArgs(raw json.RawMessage) (SearchArgs, error) {
	var args struct {
		Query string `json:"query"`
		Limit *int   `json:"limit"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return SearchArgs{}, Errorf(CodeInvalidArguments, "arguments are not valid JSON")
	}
	a := SearchArgs{Query: strings.TrimSpace(args.Query), Limit: toolSearchDefaultLimit}
	if a.Query == "" {
		return SearchArgs{}, InvalidArgument("query", "non-empty string", "string")
	}
	if args.Limit != nil {
		a.Limit = *args.Limit
	}
	return a, nil
}

// RevealMatches searches env's catalog for the tools skip does not rule
// out, reveals the matches (callable from the next round) and says so;
// kind names what was searched ("built-in", "extension").
func RevealMatches(env *Env, a SearchArgs, skip func(name string) bool, kind string) SearchResult {
	res := SearchResult{Matches: []SearchMatch{}}
	if env != nil && env.Catalog != nil {
		var names []string
		for _, s := range env.Catalog.Search(a.Query, a.Limit, skip) {
			res.Matches = append(res.Matches, SearchMatch{Name: s.Name, Description: Summary(s.Description)})
			names = append(names, s.Name)
		}
		if env.Visibility != nil {
			env.Visibility.Reveal(names...)
		}
	}
	if len(res.Matches) == 0 {
		res.Note = "No " + kind + " tool that is not already loaded matches; try other words or use the tools you have."
	} else {
		res.Note = "These tools are loaded and callable from your next response; their full descriptions and parameters come with it."
	}
	return res
}

// Run searches, reveals and reports the matches.
func (toolSearch) Run(ctx context.Context, call *Call) (any, error) {
	a, err := ParseSearchArgs(call.Args)
	if err != nil {
		return nil, err
	}
	env := call.Env
	if env == nil || env.Catalog == nil || env.Visibility == nil {
		return RevealMatches(nil, a, nil, "built-in"), nil
	}
	skip := func(name string) bool {
		s, ok := env.Catalog.SpecOf(name)
		return !ok || s.Source != SourceBuiltin || name == ToolSearchName || env.Visibility.IsVisible(name)
	}
	return RevealMatches(env, a, skip, "built-in"), nil
}

// Summary is the first sentence of a description, cut to a short length.
func Summary(desc string) string {
	desc = strings.TrimSpace(desc)
	if i := strings.Index(desc, ". "); i >= 0 {
		desc = desc[:i+1]
	}
	if i := strings.IndexByte(desc, '\n'); i >= 0 {
		desc = desc[:i]
	}
	if utf8.RuneCountInString(desc) > toolSearchMaxSummary {
		r := []rune(desc)
		desc = string(r[:toolSearchMaxSummary]) + "…"
	}
	return desc
}
