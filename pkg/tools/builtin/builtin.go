// Package builtin assembles tavo's built-in tools, and the configuration's
// extension tools beside them, into a catalog.
package builtin

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/tavo-cli/tavo/pkg/extensions"
	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/askuser"
	filetools "github.com/tavo-cli/tavo/pkg/tools/files"
	"github.com/tavo-cli/tavo/pkg/tools/goals"
	"github.com/tavo-cli/tavo/pkg/tools/loops"
	"github.com/tavo-cli/tavo/pkg/tools/read"
	"github.com/tavo-cli/tavo/pkg/tools/state"
	"github.com/tavo-cli/tavo/pkg/tools/subagent"
	"github.com/tavo-cli/tavo/pkg/tools/turn"
	"github.com/tavo-cli/tavo/pkg/tools/webfetch"
	"github.com/tavo-cli/tavo/pkg/tools/websearch"
)

// Deps are the engines the built-in tools adapt. A nil engine leaves its
// tools out; Unavailable says why, for error messages.
type Deps struct {
	// Fetch runs tavo_web_fetch; nil leaves it out. Each catalog gets its own
	// snapshot cache, so cursors live for the run.
	Fetch *fetch.Engine
	// FetchCache, when set, serves tavo_web_fetch's repeated requests for
	// 30 minutes (SPEC §16).
	FetchCache *fetch.Cache
	// FetchOptions are tavo_web_fetch's prompt settings (the fetch model).
	FetchOptions webfetch.Options
	// Files backs the five tavo_file_* tools; nil leaves them out.
	Files *files.Store
	// Search runs tavo_web_search; nil when the default search API is missing
	// or incomplete.
	Search *search.Runner
	// State opens the store behind the memory, variable and todo tools
	// (pkg/tools/state) on their first call; nil leaves them out.
	State func(ctx context.Context) (*store.Store, error)
	// ScheduleLoop makes the worker's queue match a loop just created or
	// moved (loops.Deps.Schedule; the goal and loop tools come with
	// State); nil leaves it to the worker's start.
	ScheduleLoop func(ctx context.Context, l *store.Loop) error
	// Extensions are the config's command tools and MCP servers; nil
	// leaves them out. The catalog gets the command tools and
	// extension_tool_search; MCP tools join it when loaded (Set.Load).
	Extensions *extensions.Set
	// Resources is the run's resource centre: with it tavo_read is resident
	// and oversized results are archived in it (SPEC §11); nil leaves
	// tavo_read out and keeps archived results in memory.
	Resources *resources.Centre
	// NoExtensionSearch leaves extension_tool_search out, for runs that load
	// every extension tool up front (dynamic loading off).
	NoExtensionSearch bool
	// Unavailable maps a left-out tool's name to the reason, in one line.
	Unavailable map[string]string
}

// All returns every built-in tool the deps allow, then the extension tools.
func All(d Deps) []tools.Tool {
	return append(builtins(d), extensionTools(d, d.Extensions)...)
}

// extensionTools are the command tools of set and, unless d says not to,
// extension_tool_search.
func extensionTools(d Deps, set *extensions.Set) []tools.Tool {
	if d.NoExtensionSearch {
		return set.CommandTools()
	}
	return set.Tools()
}

// builtins returns every built-in tool the deps allow.
func builtins(d Deps) []tools.Tool {
	ts := []tools.Tool{
		tools.NewToolSearch(),
		askuser.New(),
	}
	// The end-of-turn actions (SPEC §14) are always there, found by tool search.
	ts = append(ts, turn.All()...)
	if d.Resources != nil {
		ts = append(ts, read.New(d.Resources))
	}
	if d.Fetch != nil {
		ts = append(ts, webfetch.NewWith(fetch.CachedFetcher{Fetcher: d.Fetch, Cache: d.FetchCache}, fetch.NewMemoryStore(0), d.FetchOptions))
	}
	if d.Search != nil {
		ts = append(ts, websearch.New(d.Search))
	}
	if d.Files != nil {
		ts = append(ts, filetools.All(d.Files)...)
	}
	if d.State != nil {
		ts = append(ts, state.All(d.State)...)
		// Sub-agents are sessions in the same store (SPEC §13).
		ts = append(ts, subagent.All()...)
		ts = append(ts, goals.All(d.State)...)
		ts = append(ts, loops.All(loops.Deps{Open: d.State, Schedule: d.ScheduleLoop})...)
	}
	return ts
}

// Catalog builds the catalog of built-in and extension tools, keeping only
// those allow names when it is non-empty: built-in names, command tool
// names, "mcp/SERVER" or "mcp/SERVER:TOOL" (see extensions.Set.Restrict).
// An unknown name in allow is an error, so a typo never silently removes
// every tool.
func Catalog(d Deps, allow []string) (*tools.Catalog, error) {
	cat, err := catalog(d, allow)
	if err != nil {
		return nil, err
	}
	cat.SetResources(d.Resources)
	return cat, nil
}

// catalog is Catalog without the resource centre.
func catalog(d Deps, allow []string) (*tools.Catalog, error) {
	if len(allow) == 0 {
		return tools.NewCatalog(All(d)...)
	}
	set, allow, err := d.Extensions.Restrict(allow)
	if err != nil {
		return nil, err
	}
	byName := map[string]tools.Tool{}
	for _, t := range builtins(d) {
		byName[t.Spec().Name] = t
	}
	for _, t := range d.Extensions.CommandTools() {
		byName[t.Spec().Name] = t
	}
	var kept []tools.Tool
	seen := map[string]bool{}
	// tavo_read is resident whenever tools are on: a truncated result of an
	// allowed tool must stay readable.
	if t, ok := byName[read.Name]; ok {
		kept = append(kept, t)
		seen[read.Name] = true
	}
	for _, name := range allow {
		t, ok := byName[name]
		if !ok {
			if why, ok := d.Unavailable[name]; ok {
				return nil, fmt.Errorf("tool %q is unavailable: %s", name, why)
			}
			known := make([]string, 0, len(byName))
			for n := range byName {
				known = append(known, n)
			}
			sort.Strings(known)
			return nil, fmt.Errorf("unknown tool %q in --tool (known: %s)", name, strings.Join(known, ", "))
		}
		if !seen[name] {
			seen[name] = true
			kept = append(kept, t)
		}
	}
	return tools.NewCatalog(append(kept, extensionTools(d, set)...)...)
}
