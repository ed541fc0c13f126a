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

// toolSearchSchema is the argument schema of tavo_tool_search.
const toolSearchSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "The capability you need, in a few words, e.g. \"list saved files\"."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5, "description": "Most tools to load (default 5)."}
  },
  "required": ["query"],
  "additionalProperties": false
}`

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
		Description: "Load more of tavo's built-in tools. Only some tools are loaded at first; when none of " +
			"the tools you can see fits the task (for example saving or listing files, variables, memory or a " +
			"to-do list), describe the capability you need in a few words. Matching tools become callable in " +
			"your next response.",
		Parameters: json.RawMessage(toolSearchSchema),
		Resident:   true,
		Source:     SourceBuiltin,
	}
}

// toolMatch is one match as the model reads it.
type toolMatch struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// toolSearchResult is the result of tavo_tool_search.
type toolSearchResult struct {
	Matches []toolMatch `json:"matches"`
	Note    string      `json:"note"`
}

// Run searches, reveals and reports the matches.
func (toolSearch) Run(ctx context.Context, call *Call) (any, error) {
	var args struct {
		Query string `json:"query"`
		Limit *int   `json:"limit"`
	}
	if err := json.Unmarshal(call.Args, &args); err != nil {
		return nil, Errorf(CodeInvalidArguments, "arguments are not valid JSON")
	}
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return nil, InvalidArgument("query", "non-empty string", "string")
	}
	limit := toolSearchDefaultLimit
	if args.Limit != nil {
		limit = *args.Limit
	}
	env := call.Env
	res := toolSearchResult{Matches: []toolMatch{}}
	if env.Catalog != nil && env.Visibility != nil {
		skip := func(name string) bool {
			s, ok := env.Catalog.SpecOf(name)
			return !ok || s.Source != SourceBuiltin || name == ToolSearchName || env.Visibility.IsVisible(name)
		}
		var names []string
		for _, s := range env.Catalog.Search(query, limit, skip) {
			res.Matches = append(res.Matches, toolMatch{Name: s.Name, Description: summary(s.Description)})
			names = append(names, s.Name)
		}
		env.Visibility.Reveal(names...)
	}
	if len(res.Matches) == 0 {
		res.Note = "No built-in tool that is not already loaded matches; try other words or use the tools you have."
	} else {
		res.Note = "These tools are loaded and callable from your next response; their full descriptions and parameters come with it."
	}
	return res, nil
}

// summary is the first sentence of a description, cut to a short length.
func summary(desc string) string {
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
