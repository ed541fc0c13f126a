package cmd

import (
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/builtin"
	"github.com/tavo-cli/tavo/pkg/tools/websearch"
)

// builtinCatalog returns the built-in tools the configuration allows,
// limited to allow when given.
func builtinCatalog(f *Factory, allow []string) (*tools.Catalog, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, usageError(err)
	}
	deps := toolDeps(f, cfg)
	cat, err := builtin.Catalog(deps, allow)
	if err != nil {
		return nil, usageError(err)
	}
	return cat, nil
}

// toolDeps wires the engines behind the built-in tools from the config.
func toolDeps(f *Factory, cfg *config.Config) builtin.Deps {
	d := builtin.Deps{Unavailable: map[string]string{}}
	log := f.auditLog()
	d.Fetch = fetchEngineWith(log)
	d.Files = files.Open(f.DataDirectory())
	d.State = log.open
	if s, err := searchRunner(cfg, "", f.Getenv, log); err != nil {
		d.Unavailable[websearch.Name] = err.Error()
	} else {
		d.Search = s
	}
	return d
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
