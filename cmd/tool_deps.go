package cmd

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/extensions"
	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/builtin"
	"github.com/tavo-cli/tavo/pkg/tools/webfetch"
	"github.com/tavo-cli/tavo/pkg/tools/websearch"
)

// builtinCatalog returns the tools the configuration allows, limited to
// allow when given: the built-ins, the command tools and, when there are
// extension tools, extension_tool_search. MCP tools are not connected here:
// they join the catalog when extension_tool_search first runs, so that a
// run that never needs them never starts their servers.
func builtinCatalog(f *Factory, allow []string) (*tools.Catalog, error) {
	cat, _, err := toolCatalog(f, allow, false, webfetch.Options{})
	return cat, err
}

// runCatalog is the catalog of a run. Under dynamic loading it is
// builtinCatalog's. Without it every extension tool must be in the first
// request, so the MCP servers are connected now (a server that cannot be
// reached is reported on stderr and left out) and extension_tool_search,
// with nothing left to find, is left out.
func runCatalog(ctx context.Context, f *Factory, allow []string, toolsOn, dynamic bool) (*tools.Catalog, error) {
	return runCatalogWith(ctx, f, allow, toolsOn, dynamic, webfetch.Options{})
}

// runCatalogWith is runCatalog with tavo_web_fetch's prompt settings (the
// run's fetch model, fetchOptions).
func runCatalogWith(ctx context.Context, f *Factory, allow []string, toolsOn, dynamic bool, fo webfetch.Options) (*tools.Catalog, error) {
	if !toolsOn || dynamic {
		cat, _, err := toolCatalog(f, allow, false, fo)
		return cat, err
	}
	cat, set, err := toolCatalog(f, allow, true, fo)
	if err != nil {
		return nil, err
	}
	_, failed := set.Load(ctx, cat)
	warnServers(f, failed)
	return cat, nil
}

// fullCatalog is every tool the configuration has, MCP tools included, for
// the tavo tools commands; servers names the MCP servers to connect (all
// when empty). A server that cannot be reached is reported on stderr.
func fullCatalog(ctx context.Context, f *Factory, servers ...string) (*tools.Catalog, error) {
	cat, set, err := toolCatalog(f, nil, false, webfetch.Options{})
	if err != nil {
		return nil, err
	}
	_, failed := set.Load(ctx, cat, servers...)
	warnServers(f, failed)
	return cat, nil
}

// toolCatalog builds the catalog and returns the extension set behind it,
// restricted to allow. noSearch leaves extension_tool_search out; fo are
// tavo_web_fetch's prompt settings.
func toolCatalog(f *Factory, allow []string, noSearch bool, fo webfetch.Options) (*tools.Catalog, *extensions.Set, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, nil, usageError(err)
	}
	deps, err := toolDeps(f, cfg)
	if err != nil {
		return nil, nil, usageError(err)
	}
	deps.NoExtensionSearch = noSearch
	deps.FetchOptions = fo
	deps.FetchOptions.Threshold = cfg.Fetch.Threshold()
	cat, err := builtin.Catalog(deps, allow)
	if err != nil {
		return nil, nil, usageError(err)
	}
	set := deps.Extensions
	if len(allow) > 0 {
		if set, _, err = set.Restrict(allow); err != nil {
			return nil, nil, usageError(err)
		}
	}
	return cat, set, nil
}

// warnServers reports MCP servers that could not be used, one line each.
func warnServers(f *Factory, failed []*extensions.ServerError) {
	for _, e := range failed {
		fmt.Fprintf(f.IO.ErrOut, "tavo: warning: %v\n", e)
	}
}

// toolDeps wires the engines behind the built-in tools from the config,
// and the config's extension tools. MCP servers connected during the
// command are shut down when it ends.
func toolDeps(f *Factory, cfg *config.Config) (builtin.Deps, error) {
	d := builtin.Deps{Unavailable: map[string]string{}}
	ext, err := extensions.New(cfg, extensions.Options{Getenv: f.Getenv, Version: Version, ProcDir: filepath.Join(f.DataDirectory(), "procs")})
	if err != nil {
		return d, err
	}
	d.Extensions = ext
	f.onExit(func() {
		if err := ext.Close(); err != nil && f.Verbose {
			fmt.Fprintf(f.IO.ErrOut, "tavo: %v\n", err)
		}
	})
	log := f.auditLog()
	d.Fetch = fetchEngineWith(log)
	d.FetchCache = pageCache(f)
	d.Files = f.Files()
	d.State = log.open
	d.ScheduleLoop = func(ctx context.Context, l *store.Loop) error { return rescheduleLoop(ctx, f, l) }
	d.Resources = newCentre(d, "")
	if s, err := searchRunner(cfg, "", f.Getenv, log); err != nil {
		d.Unavailable[websearch.Name] = err.Error()
	} else {
		d.Search = s
	}
	return d, nil
}

// fetchOptions are tavo_web_fetch's prompt settings for a run: the
// profile's fetch_model, asked through the run's provider (same protocol,
// base URL and key; each request names its model), and its
// fetch_context_window. Without a fetch_model a prompt over a long page
// returns the page with a fetch_model_not_configured warning.
func fetchOptions(res *config.Resolved, provider providers.Provider) webfetch.Options {
	if res.Profile.FetchModel == "" {
		return webfetch.Options{}
	}
	return webfetch.Options{Extractor: &webfetch.Extractor{
		Provider:      provider,
		Model:         res.Profile.FetchModel,
		ContextWindow: res.Profile.FetchContextWindow,
	}}
}

// searchRunner builds the search runner of the config (only: one API by
// name, without fallbacks). An incomplete default is an error saying what
// is missing.
func searchRunner(cfg *config.Config, only string, getenv func(string) string, log search.Auditor) (*search.Runner, error) {
	s, err := cfg.ResolveSearch(only, getenv)
	if err != nil {
		return nil, err
	}
	if s.Problem != "" {
		return nil, &config.Error{Msg: s.Problem}
	}
	return &search.Runner{Default: s.Default, Fallback: s.Fallback, Audit: log}, nil
}

// fetchEngine is the web fetch engine, auditing to the data directory.
func fetchEngine(f *Factory) *fetch.Engine {
	return fetchEngineWith(f.auditLog())
}

func fetchEngineWith(log fetch.Auditor) *fetch.Engine {
	return &fetch.Engine{UserAgent: "tavo/" + Version, Auditor: log}
}
