package extensions

import (
	"context"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// SearchName is the model-facing name of the extension tool search.
const SearchName = "extension_tool_search"

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
		Parameters: tools.SearchSchema("create a ticket"),
		Resident:   true,
		Source:     tools.SourceBuiltin,
	}
}

// searchResult is the result of extension_tool_search.
type searchResult struct {
	tools.SearchResult
	// Unavailable names the servers that could not be reached, and why.
	Unavailable []string `json:"unavailable,omitempty"`
}

// Run loads the MCP tools, searches, reveals and reports the matches.
func (t *search) Run(ctx context.Context, call *tools.Call) (any, error) {
	a, err := tools.ParseSearchArgs(call.Args)
	if err != nil {
		return nil, err
	}
	env := call.Env
	if env == nil || env.Catalog == nil {
		return nil, tools.Errorf(tools.CodeInternalError, "the tool search has no catalog to search")
	}
	_, failed := t.set.Load(ctx, env.Catalog)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var res searchResult
	for _, f := range failed {
		res.Unavailable = append(res.Unavailable, f.Error())
	}
	visible := func(name string) bool { return env.Visibility != nil && env.Visibility.IsVisible(name) }
	skip := func(name string) bool {
		s, ok := env.Catalog.SpecOf(name)
		return !ok || s.Source == tools.SourceBuiltin || visible(name)
	}
	res.SearchResult = tools.RevealMatches(env, a, skip, "extension")
	return res, nil
}
