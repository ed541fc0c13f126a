package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/store"
)

// The completion functions of flag values and arguments, registered where
// each flag or command is declared (RegisterFlagCompletionFunc,
// ValidArgsFunction). Shells call them through Cobra's hidden __complete
// command. They never fail: what cannot be read (no config file, no store
// yet) completes nothing. None creates the data directory or the store.

// completeWords completes fixed values, each "value\tdescription" or a
// bare value.
func completeWords(words ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp)
}

// completeOutput completes -o/--output.
var completeOutput = completeWords("text\ttext for people", "json\tone JSON document", "ndjson\tone JSON object per line")

// completeAsk completes --ask.
var completeAsk = completeWords(
	"auto\tthe terminal when there is one, else cancel",
	"tty\tthe terminal",
	"stdin\tone line of standard input per question",
	"cancel\tthe model is told nobody answers",
	"fail\tthe run stops, exit 5")

// completeReasoningContext completes --reasoning-context.
func completeReasoningContext(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return config.ReasoningContexts, cobra.ShellCompDirectiveNoFileComp
}

// completeProtocols completes --provider and --protocol, with each
// protocol's default model.
func completeProtocols(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, p := range providers.AllProtocols() {
		info, _ := providers.Lookup(p)
		out = append(out, cobra.CompletionWithDesc(string(p), "default model "+info.DefaultModel))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// firstArgOnly wraps fn to complete only a command's first argument.
func firstArgOnly(fn cobra.CompletionFunc) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return fn(c, args, toComplete)
	}
}

// completeProfiles completes profile names, with protocol and model.
func completeProfiles(f *Factory) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg, err := f.Config()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, name := range cfg.ProfileNames() {
			p := cfg.Profiles[name]
			out = append(out, cobra.CompletionWithDesc(name, strings.TrimSpace(p.Protocol+" "+p.Model)))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeSearchAPIs completes the configured search API names, with
// their engines.
func completeSearchAPIs(f *Factory) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg, err := f.Config()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, name := range cfg.SearchNames() {
			out = append(out, cobra.CompletionWithDesc(name, cfg.Search.APIs[name].Engine))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completionStore opens the store when the data directory has one, and
// returns nil otherwise: completing must not create it.
func completionStore(c *cobra.Command, f *Factory) *store.Store {
	if _, err := os.Stat(filepath.Join(f.DataDirectory(), store.FileName)); err != nil {
		return nil
	}
	st, err := f.Store(completionContext(c))
	if err != nil {
		return nil
	}
	return st
}

func completionContext(c *cobra.Command) context.Context {
	if ctx := c.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// completionLimit is the most IDs offered: a page of the newest.
const completionLimit = 200

// completeSessions completes session IDs, newest first, with their titles.
func completeSessions(f *Factory) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		st := completionStore(c, f)
		if st == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		sessions, _, err := st.ListSessions(completionContext(c), completionLimit, "")
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]cobra.Completion, 0, len(sessions))
		for _, s := range sessions {
			out = append(out, cobra.CompletionWithDesc(s.ID, s.Title))
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// completeRuns completes run IDs, newest first, with status and model.
func completeRuns(f *Factory) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		st := completionStore(c, f)
		if st == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		runs, _, err := st.ListRuns(completionContext(c), "", completionLimit, "")
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]cobra.Completion, 0, len(runs))
		for _, r := range runs {
			out = append(out, cobra.CompletionWithDesc(r.ID, strings.TrimSpace(r.Status+" "+r.Model+" "+r.StartedAt.Local().Format("2006-01-02 15:04"))))
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// completeTools completes the names of the tools a run may use (built-in
// and command tools; MCP servers are not started for a Tab), and the IDs of
// those whose ID differs from the name, with their descriptions' first
// lines.
func completeTools(f *Factory) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cat, err := builtinCatalog(f, nil)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, s := range cat.Specs() {
			desc := strings.TrimSuffix(firstSentence(s.Description), ".")
			out = append(out, cobra.CompletionWithDesc(s.Name, desc))
			if s.ID != "" && s.ID != s.Name {
				out = append(out, cobra.CompletionWithDesc(s.ID, desc))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeFiles completes the file names of the scope the command's
// --scope and --session select, with their sizes.
func completeFiles(f *Factory, o *FileOptions) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		loc, err := o.location()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		page, err := f.Files().List(completionContext(c), loc, files.ListOptions{Limit: files.MaxListLimit})
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]cobra.Completion, 0, len(page.Files))
		for _, e := range page.Files {
			out = append(out, cobra.CompletionWithDesc(e.Name, e.MIMEType))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeScope completes --scope.
var completeScope = completeWords("chat\tone session's (needs --session)", "global\tshared by every session")

// completeExtract completes tavo fetch --extract.
var completeExtract = completeWords("auto\tmain content when one is found, else the page", "main\tthe main content only", "full\tthe whole page")

// completeAuditKinds completes tavo logs --kind.
var completeAuditKinds = completeWords("fetch", "search", "tool")

// completeEngines completes tavo search-api set --engine.
var completeEngines = completeWords("tavily\tTAVILY_API_KEY", "searxng\tyour instance's --base-url", "brave\tBRAVE_API_KEY",
	"duckduckgo\tno key (HTML endpoint)", "bing\tBING_API_KEY")
