package extensions

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// SearchName is the model-facing name of the extension tool search.
const SearchName = "extension_tool_search"

// Search limits.
const (
	searchDefaultLimit = 5
	searchMaxSummary   = 200
)

// searchSchema is the argument schema of extension_tool_search.
const searchSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "The capability you need, in a few words, e.g. \"create a ticket\"."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5, "description": "Most tools to load (default 5)."}
  },
  "required": ["query"],
  "additionalProperties": false
}`

// NewSearch returns extension_tool_search over s: it searches the command
// tools and MCP tools not yet visible (connecting MCP servers the first
// time) and reveals the matches, which become callable from the next round.
func NewSearch(s *Set) tools.Tool { return &search{set: s} }

// search is extension_tool_search.
type search struct{ set *Set }

// Spec describes extension_tool_search to the model.
func (*search) Spec() tools.Spec {
	return tools.Spec{
		Name: SearchName,
		ID:   SearchName,
		Description: "Load tools added to tavo by the user: local commands and tools of MCP servers (for example " +
			"access to a project's tracker, database or internal services). Only tavo's own tools are loaded at first; " +
			"when none fits the task, describe the capability you need in a few words. Matching tools become " +
			"callable in your next response.",
		Parameters: json.RawMessage(searchSchema),
		Resident:   true,
		Source:     tools.SourceBuiltin,
	}
}

// searchMatch is one match as the model reads it.
type searchMatch struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// searchResult is the result of extension_tool_search.
type searchResult struct {
	Matches []searchMatch `json:"matches"`
	Note    string        `json:"note"`
	// Unavailable names the servers that could not be reached, and why.
	Unavailable []string `json:"unavailable,omitempty"`
}

// Run loads the MCP tools, searches, reveals and reports the matches.
func (t *search) Run(ctx context.Context, call *tools.Call) (any, error) {
	var args struct {
		Query string `json:"query"`
		Limit *int   `json:"limit"`
	}
	if err := json.Unmarshal(call.Args, &args); err != nil {
		return nil, tools.Errorf(tools.CodeInvalidArguments, "arguments are not valid JSON")
	}
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return nil, tools.InvalidArgument("query", "non-empty string", "string")
	}
	limit := searchDefaultLimit
	if args.Limit != nil {
		limit = *args.Limit
	}
	env := call.Env
	res := searchResult{Matches: []searchMatch{}}
	if env == nil || env.Catalog == nil {
		return nil, tools.Errorf(tools.CodeInternalError, "the tool search has no catalog to search")
	}
	_, failed := t.set.Load(ctx, env.Catalog)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for _, f := range failed {
		res.Unavailable = append(res.Unavailable, f.Error())
	}
	visible := func(name string) bool { return env.Visibility != nil && env.Visibility.IsVisible(name) }
	skip := func(name string) bool {
		s, ok := env.Catalog.SpecOf(name)
		return !ok || s.Source == tools.SourceBuiltin || visible(name)
	}
	var names []string
	for _, s := range env.Catalog.Search(query, limit, skip) {
		res.Matches = append(res.Matches, searchMatch{Name: s.Name, Description: summary(s.Description)})
		names = append(names, s.Name)
	}
	if env.Visibility != nil {
		env.Visibility.Reveal(names...)
	}
	if len(res.Matches) == 0 {
		res.Note = "No extension tool that is not already loaded matches; try other words or use the tools you have."
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
	if utf8.RuneCountInString(desc) > searchMaxSummary {
		r := []rune(desc)
		desc = string(r[:searchMaxSummary]) + "…"
	}
	return desc
}
