package cmd

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/search"
)

// tavo search-api manages the [search] section, so nobody has to hand-edit
// it. It is its own command group rather than `tavo search config`, so that
// a search for the word "config" never turns into a subcommand.
// NewCmdSearchAPI builds `tavo search-api` and its subcommands.
func NewCmdSearchAPI(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "search-api",
		Short: "Configure the web search APIs (Tavily, SearXNG, Brave, DuckDuckGo, Bing)",
		Long: `Configure the web search APIs behind tavo search and tavo_web_search.

Whenever at least one API is configured exactly one is the default, and only
it runs. An incomplete default (a missing key or URL) hides tavo_web_search
from the model and makes tavo search fail saying what is missing. Nothing
falls back silently: an explicit fallback list (tavo search-api fallback)
names the APIs tried, in order, after the default fails; failover = "auto"
under [search] in the config also tries every other complete API, by name.`,
	}
	c.AddCommand(NewCmdSearchAPIList(f, nil), NewCmdSearchAPIShow(f, nil), NewCmdSearchAPISet(f, nil),
		NewCmdSearchAPIRm(f, nil), NewCmdSearchAPIUse(f, nil), NewCmdSearchAPIFallback(f, nil))
	return c
}

type searchAPIRow struct {
	Name       string `json:"name"`
	Default    bool   `json:"default"`
	Fallback   int    `json:"fallback,omitempty"`
	Engine     string `json:"engine"`
	BaseURL    string `json:"base_url,omitempty"`
	Key        string `json:"key"`
	Ready      bool   `json:"ready"`
	Problem    string `json:"problem,omitempty"`
	Depth      string `json:"depth,omitempty"`
	MaxResults int    `json:"max_results,omitempty"`
	Topic      string `json:"topic,omitempty"`
	TimeRange  string `json:"time_range,omitempty"`
	Chunks     int    `json:"chunks_per_source,omitempty"`
	Language   string `json:"language,omitempty"`
	Timeout    string `json:"timeout,omitempty"`
}

func searchAPIRows(f *Factory, cfg *config.Config) []searchAPIRow {
	var rows []searchAPIRow
	def := cfg.DefaultSearchName()
	for _, name := range cfg.SearchNames() {
		a := cfg.Search.APIs[name]
		r := searchAPIRow{
			Name: name, Default: name == def, Engine: a.Engine, BaseURL: a.BaseURL, Key: keySource(f, a),
			Depth: a.Depth, MaxResults: a.MaxResults, Topic: a.Topic, TimeRange: a.TimeRange,
			Chunks: a.ChunksPerSource, Language: a.Language, Timeout: a.Timeout,
		}
		if i := slices.Index(cfg.Search.Fallback, name); i >= 0 {
			r.Fallback = i + 1
		}
		if s, err := cfg.ResolveSearch(name, f.Getenv); err == nil {
			r.Ready, r.Problem = s.Problem == "", s.Problem
		}
		rows = append(rows, r)
	}
	return rows
}

// keySource says where an API's key comes from, never the key itself.
func keySource(f *Factory, a *config.SearchAPI) string {
	env := a.APIKeyEnv
	switch {
	case (a.Engine == "searxng" || a.Engine == "duckduckgo") && env == "" && a.APIKey == "":
		return "not needed"
	case env == "" && a.APIKey != "":
		return "set in the config"
	case env == "":
		env = map[string]string{"tavily": "TAVILY_API_KEY", "brave": "BRAVE_API_KEY", "bing": "BING_API_KEY"}[a.Engine]
	}
	if strings.TrimSpace(f.Getenv(env)) != "" {
		return "set, from env " + env
	}
	return "missing: set " + env
}

// SearchAPIListOptions are the inputs of `tavo search-api list`.
type SearchAPIListOptions struct {
	Factory *Factory
}

// NewCmdSearchAPIList builds `tavo search-api list`; runF, when not nil,
// runs instead of searchAPIListRun (for tests).
func NewCmdSearchAPIList(f *Factory, runF func(*SearchAPIListOptions) error) *cobra.Command {
	opts := &SearchAPIListOptions{Factory: f}
	return &cobra.Command{
		Use:   "list",
		Short: "List the search APIs; * marks the default",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOr(runF, searchAPIListRun, opts)
		},
		Example: `  tavo search-api list
  tavo search-api list -o json --jq '.[].name'`,
	}
}

func searchAPIListRun(opts *SearchAPIListOptions) error {
	f := opts.Factory
	out, cfg, err := configOutput(f)
	if err != nil {
		return err
	}
	rows := searchAPIRows(f, cfg)
	if out.Structured() {
		return cli.WriteList(out, rows)
	}
	t := cli.NewTable(f.IO, "NAME", "ENGINE", "KEY", "READY", "DEFAULT")
	for _, r := range rows {
		mark := ""
		if r.Default {
			mark = "*"
		} else if r.Fallback > 0 {
			mark = "fallback " + strconv.Itoa(r.Fallback)
		}
		ready := "yes"
		if !r.Ready {
			ready = "no"
		}
		t.AddRow(r.Name, r.Engine, r.Key, ready, mark)
	}
	return t.Render()
}

// SearchAPIShowOptions are the inputs of `tavo search-api show`.
type SearchAPIShowOptions struct {
	Factory *Factory
	// Name is the search API; empty for the default.
	Name string
}

// NewCmdSearchAPIShow builds `tavo search-api show`; runF, when not nil,
// runs instead of searchAPIShowRun (for tests).
func NewCmdSearchAPIShow(f *Factory, runF func(*SearchAPIShowOptions) error) *cobra.Command {
	opts := &SearchAPIShowOptions{Factory: f}
	return &cobra.Command{
		Use:   "show [NAME]",
		Short: "Show a search API (default: the default one)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = argOr(args, "")
			return runOr(runF, searchAPIShowRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeSearchAPIs(f)),
		Example: `  tavo search-api show
  tavo search-api show brave -o json`,
	}
}

func searchAPIShowRun(opts *SearchAPIShowOptions) error {
	f := opts.Factory
	out, cfg, err := configOutput(f)
	if err != nil {
		return err
	}
	name := cfg.DefaultSearchName()
	if opts.Name != "" {
		name = opts.Name
	}
	var row *searchAPIRow
	for _, r := range searchAPIRows(f, cfg) {
		if r.Name == name {
			row = &r
		}
	}
	if row == nil {
		return unknownSearchAPI(cfg, name)
	}
	if out.Structured() {
		return out.WriteValue(row)
	}
	w := f.IO.Out
	pairs := [][2]string{{"name", row.Name}, {"engine", row.Engine}, {"default", strconv.FormatBool(row.Default)},
		{"base_url", orDash(row.BaseURL)}, {"api_key", row.Key}, {"ready", strconv.FormatBool(row.Ready)}}
	if row.Problem != "" {
		pairs = append(pairs, [2]string{"problem", row.Problem})
	}
	for _, kv := range [][2]string{{"depth", row.Depth}, {"max_results", itoaOrEmpty(row.MaxResults)}, {"topic", row.Topic},
		{"time_range", row.TimeRange}, {"chunks_per_source", itoaOrEmpty(row.Chunks)}, {"language", row.Language}, {"timeout", row.Timeout}} {
		if kv[1] != "" {
			pairs = append(pairs, kv)
		}
	}
	for _, kv := range pairs {
		if f.IO.IsStdoutTTY() {
			fmt.Fprintf(w, "%-18s %s\n", kv[0]+":", kv[1])
		} else {
			fmt.Fprintf(w, "%s\t%s\n", kv[0], kv[1])
		}
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func itoaOrEmpty(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func unknownSearchAPI(cfg *config.Config, name string) error {
	if name == "" {
		return usageError(fmt.Errorf("no search API is configured: add one with `tavo search-api set NAME --engine tavily|searxng|brave|duckduckgo|bing`"))
	}
	known := "none yet"
	if names := cfg.SearchNames(); len(names) > 0 {
		known = "known: " + strings.Join(names, ", ")
	}
	return usageError(fmt.Errorf("unknown search API %q (%s)", name, known))
}

// SearchAPISetOptions are the flags of `tavo search-api set`.
type SearchAPISetOptions struct {
	Factory                                    *Factory
	Name                                       string
	Engine, BaseURL, KeyEnv                    string
	Depth, Topic, TimeRange, Language, Timeout string
	MaxResults, Chunks                         int
	Default                                    bool
	// Changed reports whether a flag was given; only given flags change
	// the API.
	Changed func(flag string) bool
}

// NewCmdSearchAPISet builds `tavo search-api set`; runF, when not nil, runs
// instead of searchAPISetRun (for tests).
func NewCmdSearchAPISet(f *Factory, runF func(*SearchAPISetOptions) error) *cobra.Command {
	o := &SearchAPISetOptions{Factory: f}
	c := &cobra.Command{
		Use:   "set NAME [flags]",
		Short: "Create or update a search API (only the flags given change)",
		Long: `Create or update a search API. Only the flags given change; an empty value
(--depth "") removes a setting. The first API becomes the default.

Keys are never taken on the command line, where shell history would keep
them: name the environment variable that holds one with --key-env. Without
it, Tavily reads TAVILY_API_KEY, Brave BRAVE_API_KEY and Bing BING_API_KEY;
DuckDuckGo (its keyless HTML endpoint) and SearXNG need no key.`,
		Example: `  tavo search-api set tavily --engine tavily --key-env TAVILY_API_KEY --depth advanced
  tavo search-api set searx --engine searxng --base-url http://127.0.0.1:8888
  tavo search-api set ddg --engine duckduckgo --default
  tavo search-api set bing --engine bing --key-env BING_API_KEY --max-results 30`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name, o.Changed = args[0], cmd.Flags().Changed
			return runOr(runF, searchAPISetRun, o)
		},
		ValidArgsFunction: firstArgOnly(completeSearchAPIs(f)),
	}
	fl := c.Flags()
	fl.StringVar(&o.Engine, "engine", "", "tavily|searxng|brave|duckduckgo|bing (required for a new API)")
	_ = c.RegisterFlagCompletionFunc("engine", completeEngines)
	fl.StringVar(&o.BaseURL, "base-url", "", "API URL (required for SearXNG: your instance)")
	fl.StringVar(&o.KeyEnv, "key-env", "", "environment variable holding the key")
	fl.StringVar(&o.Depth, "depth", "", "default Tavily depth: basic|advanced|fast|ultra-fast")
	fl.IntVar(&o.MaxResults, "max-results", 0, "default number of results, 1-30 (Tavily and Brave stop at 20)")
	fl.StringVar(&o.Topic, "topic", "", "default topic: general|news|finance")
	fl.StringVar(&o.TimeRange, "time-range", "", "default time range: day|week|month|year")
	fl.IntVar(&o.Chunks, "chunks-per-source", 0, "default Tavily chunks per source, 1-3")
	fl.StringVar(&o.Language, "language", "", "SearXNG language, e.g. en")
	fl.StringVar(&o.Timeout, "timeout", "", "per-request timeout, e.g. 10s (default "+search.DefaultTimeout.String()+")")
	fl.BoolVar(&o.Default, "default", false, "make it the default")
	return c
}

func searchAPISetRun(o *SearchAPISetOptions) error {
	f := o.Factory
	if err := config.ValidateProfileName(o.Name); err != nil {
		return usageError(fmt.Errorf("search API name: %w", err))
	}
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	changed := o.Changed
	if changed == nil {
		changed = func(string) bool { return false }
	}
	existing := cfg.Search.APIs[o.Name]
	a := &config.SearchAPI{}
	if existing != nil {
		cp := *existing
		a = &cp
	} else if !changed("engine") {
		return usageError(fmt.Errorf("a new search API needs --engine tavily|searxng|brave|duckduckgo|bing"))
	}
	set := func(flag string, dst *string, v string) {
		if changed(flag) {
			*dst = v
		}
	}
	set("engine", &a.Engine, o.Engine)
	set("base-url", &a.BaseURL, o.BaseURL)
	set("depth", &a.Depth, o.Depth)
	set("topic", &a.Topic, o.Topic)
	set("time-range", &a.TimeRange, o.TimeRange)
	set("language", &a.Language, o.Language)
	set("timeout", &a.Timeout, o.Timeout)
	if changed("key-env") {
		a.APIKeyEnv, a.APIKey = o.KeyEnv, ""
	}
	if changed("max-results") {
		a.MaxResults = o.MaxResults
	}
	if changed("chunks-per-source") {
		a.ChunksPerSource = o.Chunks
	}
	becameDefault := cfg.PutSearchAPI(o.Name, a)
	if o.Default {
		cfg.Search.Default = o.Name
		becameDefault = true
	}
	if err := cfg.Validate(); err != nil {
		return usageError(err)
	}
	if err := saveConfig(cfg); err != nil {
		return err
	}
	verb := "updated"
	if existing == nil {
		verb = "created"
	}
	msg := fmt.Sprintf("%s search API %q", verb, o.Name)
	if becameDefault {
		msg += "; it is now the default"
	}
	note(f, "%s", msg)
	if s, err := cfg.ResolveSearch(o.Name, f.Getenv); err == nil && s.Problem != "" {
		note(f, "note: %s", s.Problem)
	}
	return nil
}

// SearchAPIRmOptions are the inputs of `tavo search-api rm`.
type SearchAPIRmOptions struct {
	Factory *Factory
	Name    string
}

// NewCmdSearchAPIRm builds `tavo search-api rm`; runF, when not nil,
// runs instead of searchAPIRmRun (for tests).
func NewCmdSearchAPIRm(f *Factory, runF func(*SearchAPIRmOptions) error) *cobra.Command {
	opts := &SearchAPIRmOptions{Factory: f}
	return &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a search API",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = argOr(args, "")
			return runOr(runF, searchAPIRmRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeSearchAPIs(f)),
		Example: `  tavo search-api rm old-searx
  tavo search-api rm brave && tavo search-api list`,
	}
}

func searchAPIRmRun(opts *SearchAPIRmOptions) error {
	f := opts.Factory
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	wasDefault := cfg.DefaultSearchName() == opts.Name
	next, ok := cfg.RemoveSearchAPI(opts.Name)
	if !ok {
		return unknownSearchAPI(cfg, opts.Name)
	}
	if err := saveConfig(cfg); err != nil {
		return err
	}
	switch {
	case wasDefault && next != "":
		note(f, "removed search API %q; %q is now the default", opts.Name, next)
	case wasDefault:
		note(f, "removed search API %q; no search API is left, so tavo_web_search is hidden", opts.Name)
	default:
		note(f, "removed search API %q", opts.Name)
	}
	return nil
}

// SearchAPIUseOptions are the inputs of `tavo search-api use`.
type SearchAPIUseOptions struct {
	Factory *Factory
	Name    string
}

// NewCmdSearchAPIUse builds `tavo search-api use`; runF, when not nil,
// runs instead of searchAPIUseRun (for tests).
func NewCmdSearchAPIUse(f *Factory, runF func(*SearchAPIUseOptions) error) *cobra.Command {
	opts := &SearchAPIUseOptions{Factory: f}
	return &cobra.Command{
		Use:   "use NAME",
		Short: "Make a search API the default",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = argOr(args, "")
			return runOr(runF, searchAPIUseRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeSearchAPIs(f)),
		Example: `  tavo search-api use tavily
  tavo search-api use searx && tavo search "go 1.26 release notes"`,
	}
}

func searchAPIUseRun(opts *SearchAPIUseOptions) error {
	f := opts.Factory
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	if cfg.Search.APIs[opts.Name] == nil {
		return unknownSearchAPI(cfg, opts.Name)
	}
	cfg.Search.Default = opts.Name
	cfg.Search.Fallback = slices.DeleteFunc(cfg.Search.Fallback, func(s string) bool { return s == opts.Name })
	if err := saveConfig(cfg); err != nil {
		return err
	}
	note(f, "default search API is now %q", opts.Name)
	if s, err := cfg.ResolveSearch("", f.Getenv); err == nil && s.Problem != "" {
		note(f, "note: %s", s.Problem)
	}
	return nil
}

// SearchAPIFallbackOptions are the inputs of `tavo search-api fallback`.
type SearchAPIFallbackOptions struct {
	Factory *Factory
	Names   []string
}

// NewCmdSearchAPIFallback builds `tavo search-api fallback`; runF, when not nil,
// runs instead of searchAPIFallbackRun (for tests).
func NewCmdSearchAPIFallback(f *Factory, runF func(*SearchAPIFallbackOptions) error) *cobra.Command {
	opts := &SearchAPIFallbackOptions{Factory: f}
	return &cobra.Command{
		Use:   "fallback [NAME...]",
		Short: "Set the APIs tried, in order, when the default fails (none: clear)",
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Names = args
			return runOr(runF, searchAPIFallbackRun, opts)
		},
		ValidArgsFunction: completeSearchAPIs(f),
		Example: `  tavo search-api fallback brave searx
  tavo search-api fallback            # no fallbacks`,
	}
}

func searchAPIFallbackRun(opts *SearchAPIFallbackOptions) error {
	f := opts.Factory
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	def := cfg.DefaultSearchName()
	var list []string
	for _, n := range opts.Names {
		if cfg.Search.APIs[n] == nil {
			return unknownSearchAPI(cfg, n)
		}
		if n == def {
			return usageError(fmt.Errorf("%q is the default; a fallback must be another API", n))
		}
		if !slices.Contains(list, n) {
			list = append(list, n)
		}
	}
	cfg.Search.Fallback = list
	if err := saveConfig(cfg); err != nil {
		return err
	}
	if len(list) == 0 {
		note(f, "no fallback: only the default search API runs")
	} else {
		note(f, "fallback order after %q: %s", def, strings.Join(list, ", "))
	}
	return nil
}
