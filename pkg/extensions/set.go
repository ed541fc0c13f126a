package extensions

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// Options configure a Set.
type Options struct {
	// Getenv reads tavo's environment: the base variables extension
	// processes inherit and $VAR references in env and headers. Nil is
	// os.Getenv.
	Getenv func(string) string
	// Version is tavo's version, announced to MCP servers.
	Version string
	// ProcDir is where the process groups of running command tools are
	// recorded (see ProcRegistry); New first kills the groups that a
	// killed tavo left there. "" records nothing.
	ProcDir string
}

// Set is the extension tools of a configuration: its command tools, ready
// at once, and its MCP servers, connected when their tools are first
// needed. Close shuts the connected servers down.
type Set struct {
	commands []*CommandTool
	mcp      *MCP
	// allow keeps only some tools (see Restrict); nil keeps all.
	allow *allowList
}

// New builds the set of cfg's [tools.NAME] and [mcp.NAME] entries. Nothing
// is started.
func New(cfg *config.Config, o Options) (*Set, error) {
	s := &Set{}
	var procs *ProcRegistry
	if o.ProcDir != "" {
		procs = NewProcRegistry(o.ProcDir)
		procs.Sweep()
	}
	if cfg == nil {
		return s, nil
	}
	names := make([]string, 0, len(cfg.Tools))
	for name := range cfg.Tools {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t, err := NewCommandTool(name, cfg.Tools[name], o.Getenv)
		if err != nil {
			return nil, err
		}
		t.procs = procs
		s.commands = append(s.commands, t)
	}
	if len(cfg.MCP) > 0 {
		s.mcp = NewMCP(cfg.MCP, o.Getenv, o.Version)
	}
	return s, nil
}

// Empty reports whether the set has no extension tool at all (no command
// tool, no MCP server), in which case extension_tool_search is left out.
func (s *Set) Empty() bool {
	return s == nil || len(s.commandTools()) == 0 && len(s.servers()) == 0
}

// MCP is the set's MCP client; nil when no server is configured.
func (s *Set) MCP() *MCP {
	if s == nil {
		return nil
	}
	return s.mcp
}

// Tools are what a catalog starts with: the command tools, and
// extension_tool_search unless the set is empty. MCP tools join the
// catalog later, through Load or the search.
func (s *Set) Tools() []tools.Tool {
	if s.Empty() {
		return nil
	}
	ts := s.CommandTools()
	return append(ts, NewSearch(s))
}

// CommandTools are the command tools the set allows.
func (s *Set) CommandTools() []tools.Tool {
	var ts []tools.Tool
	for _, t := range s.commandTools() {
		ts = append(ts, t)
	}
	return ts
}

func (s *Set) commandTools() []*CommandTool {
	if s == nil {
		return nil
	}
	var ts []*CommandTool
	for _, t := range s.commands {
		if s.allow.keeps(t.spec.ID) {
			ts = append(ts, t)
		}
	}
	return ts
}

// servers are the MCP servers the set may use.
func (s *Set) servers() []string {
	if s == nil || s.mcp == nil {
		return nil
	}
	var names []string
	for _, n := range s.mcp.Names() {
		if s.allow.keepsServer(n) {
			names = append(names, n)
		}
	}
	return names
}

// Load connects the MCP servers called names (every allowed server when
// none is named) and adds their allowed tools to cat, under a name of their
// own when theirs is taken. It returns the tools of those servers as
// catalogued, and one error per server that could not be used; the tools of
// the other servers are loaded all the same.
func (s *Set) Load(ctx context.Context, cat *tools.Catalog, names ...string) ([]tools.Spec, []*ServerError) {
	if s == nil || s.mcp == nil {
		return nil, nil
	}
	if len(names) == 0 {
		names = s.servers()
	}
	var failed []*ServerError
	var use []string
	for _, n := range names {
		switch {
		case !s.mcp.Has(n):
			failed = append(failed, &ServerError{Server: n, Err: errors.New("no such server is configured")})
		case !s.allow.keepsServer(n):
		default:
			use = append(use, n)
		}
	}
	listed, errs := s.mcp.AllTools(ctx, use...)
	failed = append(failed, errs...)
	var specs []tools.Spec
	for _, t := range listed {
		if !s.allow.keeps(t.spec.ID) {
			continue
		}
		spec, err := add(cat, t)
		if err != nil {
			failed = append(failed, &ServerError{Server: t.Server(), Err: err})
			continue
		}
		specs = append(specs, spec)
	}
	return specs, failed
}

// add puts t in cat unless it is there already and returns its catalogued
// spec.
func add(cat *tools.Catalog, t *MCPTool) (tools.Spec, error) {
	name := uniqueName(cat, t.spec.Name, t.spec.ID)
	if s, ok := cat.SpecOf(name); ok && s.ID == t.spec.ID {
		return s, nil
	}
	if name != t.spec.Name {
		t = t.withName(name)
	}
	if err := cat.Add(t); err != nil {
		// Another call may have added it meanwhile.
		if s, ok := cat.SpecOf(name); ok && s.ID == t.spec.ID {
			return s, nil
		}
		return tools.Spec{}, fmt.Errorf("tool %q cannot be used: %w", t.remote, err)
	}
	s, _ := cat.SpecOf(name)
	return s, nil
}

// Close shuts down the MCP servers the set connected.
func (s *Set) Close() error {
	if s == nil {
		return nil
	}
	return s.mcp.Close()
}

// Restrict returns a set that keeps only the extension tools refs name, and
// the refs that are not about extension tools (built-in names, left for
// the caller). A ref is a command tool's name or ID, "mcp/SERVER" for all
// of a server's tools, or "mcp/SERVER:TOOL". The restricted set shares this
// one's servers; closing either closes them.
func (s *Set) Restrict(refs []string) (restricted *Set, rest []string, err error) {
	al := &allowList{ids: map[string]bool{}, servers: map[string]bool{}}
	byName := map[string]*CommandTool{}
	if s != nil {
		for _, t := range s.commands {
			byName[t.spec.Name] = t
		}
	}
	for _, ref := range refs {
		switch {
		case byName[ref] != nil:
			al.ids[byName[ref].spec.ID] = true
		case strings.HasPrefix(ref, "extension/command:"):
			if byName[strings.TrimPrefix(ref, "extension/command:")] == nil {
				return nil, nil, fmt.Errorf("unknown command tool %q (see [tools.NAME] in the config)", ref)
			}
			al.ids[ref] = true
		case strings.HasPrefix(ref, "mcp/"):
			server, tool, hasTool := strings.Cut(strings.TrimPrefix(ref, "mcp/"), ":")
			if !s.MCP().Has(server) {
				return nil, nil, fmt.Errorf("unknown MCP server %q in %q (see [mcp.NAME] in the config)", server, ref)
			}
			if hasTool {
				al.ids[MCPID(server, tool)] = true
				al.partial = append(al.partial, server)
			} else {
				al.servers[server] = true
			}
		default:
			rest = append(rest, ref)
		}
	}
	r := &Set{allow: al}
	if s != nil {
		r.commands, r.mcp = s.commands, s.mcp
	}
	return r, rest, nil
}

// allowList is what Restrict keeps. A nil list keeps everything.
type allowList struct {
	ids     map[string]bool
	servers map[string]bool // every tool of these servers
	partial []string        // servers of which only some tools are kept
}

func (a *allowList) keeps(id string) bool {
	if a == nil || a.ids[id] {
		return true
	}
	for server := range a.servers {
		if strings.HasPrefix(id, "mcp/"+server+":") {
			return true
		}
	}
	return false
}

func (a *allowList) keepsServer(name string) bool {
	if a == nil || a.servers[name] {
		return true
	}
	for _, p := range a.partial {
		if p == name {
			return true
		}
	}
	return false
}
