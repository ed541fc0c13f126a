package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/providers"
)

func newCmdProfile(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "profile",
		Short: "Manage provider profiles",
		Long: `A profile names a protocol, a base URL, a model and where the API key comes
from, plus run defaults (tools, limits, timeouts). Profiles live in the config
file (see --config); keys stay in environment variables named by --key-env.

Which profile a run uses: -p/--profile, else TAVO_PROFILE, else the default
profile (the first one created, or the one chosen with "tavo profile use").`,
	}
	c.AddCommand(
		newCmdProfileList(f),
		newCmdProfileShow(f),
		newCmdProfileSet(f),
		newCmdProfileRm(f),
		newCmdProfileUse(f),
		newCmdProfileDiagnose(f),
	)
	return c
}

// loadConfig loads the config file; a broken file is a configuration error.
func loadConfig(f *Factory) (*config.Config, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, usageError(err)
	}
	return cfg, nil
}

// note prints a confirmation or hint on stderr unless -q was given.
func note(f *Factory, format string, args ...any) {
	if !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, format+"\n", args...)
	}
}

func unknownProfileError(cfg *config.Config, name string) error {
	known := "none yet"
	if names := cfg.ProfileNames(); len(names) > 0 {
		known = "known: " + strings.Join(names, ", ")
	}
	return usageError(fmt.Errorf("unknown profile %q (%s)", name, known))
}

// ---- list -----------------------------------------------------------------

// profileRow is one line of `tavo profile list -o json`.
type profileRow struct {
	Name     string `json:"name"`
	Default  bool   `json:"default"`
	Protocol string `json:"protocol"`
	Model    string `json:"model"`
	BaseURL  string `json:"base_url"`
}

func newCmdProfileList(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List profiles",
		Long: `List profiles with their effective protocol, model and base URL; * marks the
default. On a terminal this is a table; in a pipe, tab-separated lines
(NAME, PROTOCOL, MODEL, BASE URL, DEFAULT) without a header.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return profileListRun(f) },
	}
}

func profileListRun(f *Factory) error {
	out, err := cli.NewOutput(f.IO, f.Output, f.JQ, cli.FormatText)
	if err != nil {
		return usageError(err)
	}
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	var rows []profileRow
	for _, name := range cfg.ProfileNames() {
		p := cfg.Profiles[name]
		row := profileRow{Name: name, Default: name == cfg.DefaultProfile, Protocol: p.Protocol, Model: p.Model, BaseURL: p.BaseURL}
		// Show what a run would use, environment included; fall back to
		// the file's values if the environment holds something invalid.
		if r, err := cfg.Inspect(config.Overrides{Profile: name}, f.Getenv); err == nil {
			row.Protocol, row.Model, row.BaseURL = string(r.Protocol), r.Model, r.BaseURL
		}
		rows = append(rows, row)
	}
	if out.Structured() {
		return cli.WriteList(out, rows)
	}
	if len(rows) == 0 {
		if f.IO.IsStdoutTTY() {
			note(f, "no profiles yet: add one with `tavo profile set NAME --protocol openai --model MODEL --key-env OPENAI_API_KEY`")
		}
		return nil
	}
	t := cli.NewTable(f.IO, "NAME", "PROTOCOL", "MODEL", "BASE URL", "DEFAULT")
	for _, r := range rows {
		mark := ""
		if r.Default {
			mark = "*"
		}
		t.AddRow(r.Name, r.Protocol, r.Model, r.BaseURL, mark)
	}
	return t.Render()
}

// ---- show -----------------------------------------------------------------

// keyView says where a key comes from, never what it is.
type keyView struct {
	Set bool `json:"set"`
	// Source is "env VAR" or "config" when set.
	Source string `json:"source,omitempty"`
	// Env is the variable the key is read from or should be set in.
	Env     string `json:"env,omitempty"`
	Problem string `json:"problem,omitempty"`
	// NotNeeded is true for a server on this machine without a key.
	NotNeeded bool `json:"not_needed,omitempty"`
}

// profileView is the effective profile as `tavo profile show` prints it.
type profileView struct {
	Name             string            `json:"name"`
	Default          bool              `json:"default"`
	Protocol         string            `json:"protocol"`
	BaseURL          string            `json:"base_url"`
	BaseURLSource    string            `json:"base_url_source"`
	Model            string            `json:"model"`
	APIKey           keyView           `json:"api_key"`
	AuthHeader       string            `json:"auth_header,omitempty"`
	Headers          map[string]string `json:"headers,omitempty"`
	Query            map[string]string `json:"query,omitempty"`
	ContextWindow    int               `json:"context_window,omitempty"`
	MaxOutputTokens  int               `json:"max_output_tokens,omitempty"`
	Tools            bool              `json:"tools"`
	DynamicTools     bool              `json:"dynamic_tools"`
	MaxRounds        int               `json:"max_rounds"`
	MaxToolCalls     int               `json:"max_tool_calls"`
	ToolTimeout      string            `json:"tool_timeout"`
	Timeout          string            `json:"timeout,omitempty"`
	ReasoningContext string            `json:"reasoning_context"`
	Stream           bool              `json:"stream"`
	Params           map[string]any    `json:"params,omitempty"`
	Prices           *config.Prices    `json:"prices,omitempty"`
	Notes            []string          `json:"notes,omitempty"`
}

func newProfileView(cfg *config.Config, r *config.Resolved) profileView {
	p := r.Profile
	v := profileView{
		Name:             r.ProfileName,
		Default:          r.ProfileName != "" && r.ProfileName == cfg.DefaultProfile,
		Protocol:         string(r.Protocol),
		BaseURL:          r.BaseURL,
		BaseURLSource:    r.BaseURLSource,
		Model:            r.Model,
		APIKey:           keyView{Set: r.APIKey != "", Source: r.KeySource, Env: r.KeyEnv, Problem: r.KeyProblem},
		AuthHeader:       r.AuthHeader,
		Headers:          redactHeaders(r.Headers),
		Query:            r.Query,
		ContextWindow:    p.ContextWindow,
		MaxOutputTokens:  p.MaxOutputTokens,
		Tools:            *p.Tools,
		DynamicTools:     *p.DynamicTools,
		MaxRounds:        p.MaxRounds,
		MaxToolCalls:     p.MaxToolCalls,
		ToolTimeout:      p.ToolTimeout,
		Timeout:          p.Timeout,
		ReasoningContext: p.ReasoningContext,
		Stream:           *p.Stream,
		Params:           p.Params,
		Prices:           p.Prices,
		Notes:            r.Notes,
	}
	v.APIKey.NotNeeded = !v.APIKey.Set && r.KeyProblem == ""
	return v
}

// redactHeaders hides the values of headers that usually carry credentials.
func redactHeaders(h map[string]string) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		lk := strings.ToLower(k)
		for _, s := range []string{"auth", "key", "token", "secret", "cookie", "password"} {
			if strings.Contains(lk, s) {
				v = "(hidden)"
				break
			}
		}
		out[k] = v
	}
	return out
}

// describe renders a key's state in one phrase for people.
func (k keyView) describe() string {
	switch {
	case k.Set && k.Source == "config":
		return "(set, in the config file)"
	case k.Set:
		return fmt.Sprintf("(set, from %s)", k.Source)
	case k.NotNeeded:
		return "(none needed: local server)"
	case k.Env != "":
		return fmt.Sprintf("(missing: set %s)", k.Env)
	default:
		return "(missing: " + k.Problem + ")"
	}
}

func newCmdProfileShow(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "show [NAME]",
		Short: "Show a profile's effective settings",
		Long: `Show a profile's effective settings: its own fields, what the environment
fills in, and tavo's defaults for the rest. Without NAME, the profile a run
would use (TAVO_PROFILE, else the default; with no profile at all, what the
environment alone configures). The API key is never shown, only where it
comes from.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return profileShowRun(f, name)
		},
	}
}

func profileShowRun(f *Factory, name string) error {
	out, err := cli.NewOutput(f.IO, f.Output, f.JQ, cli.FormatText)
	if err != nil {
		return usageError(err)
	}
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	if name != "" && !cfg.HasProfile(name) {
		return unknownProfileError(cfg, name)
	}
	r, err := cfg.Inspect(config.Overrides{Profile: name}, f.Getenv)
	if err != nil {
		return usageError(err)
	}
	v := newProfileView(cfg, r)
	if out.Structured() {
		return out.WriteValue(v)
	}
	return writeProfileText(f.IO, v)
}

func writeProfileText(ios *cli.IOStreams, v profileView) error {
	type kv struct{ k, v string }
	var lines []kv
	add := func(k, v string) { lines = append(lines, kv{k, v}) }
	addInt := func(k string, n int) {
		if n != 0 {
			add(k, strconv.Itoa(n))
		}
	}
	name := v.Name
	if name == "" {
		name = "(none: from flags and environment)"
	} else if v.Default {
		name += " (default)"
	}
	add("name", name)
	add("protocol", v.Protocol)
	base := v.BaseURL
	if v.BaseURLSource != "profile" {
		base += " (" + v.BaseURLSource + ")"
	}
	add("base_url", base)
	model := v.Model
	if model == "" {
		model = "(none: pass -m/--model or set one with --model)"
	}
	add("model", model)
	add("api_key", v.APIKey.describe())
	if v.AuthHeader != "" {
		add("auth_header", v.AuthHeader)
	}
	if len(v.Headers) > 0 {
		add("headers", joinPairs(v.Headers))
	}
	if len(v.Query) > 0 {
		add("query", joinPairs(v.Query))
	}
	addInt("context_window", v.ContextWindow)
	addInt("max_output_tokens", v.MaxOutputTokens)
	add("tools", strconv.FormatBool(v.Tools))
	add("dynamic_tools", strconv.FormatBool(v.DynamicTools))
	add("max_rounds", strconv.Itoa(v.MaxRounds))
	add("max_tool_calls", strconv.Itoa(v.MaxToolCalls))
	add("tool_timeout", v.ToolTimeout)
	if v.Timeout != "" {
		add("timeout", v.Timeout)
	} else {
		add("timeout", "none")
	}
	add("reasoning_context", v.ReasoningContext)
	add("stream", strconv.FormatBool(v.Stream))
	if len(v.Params) > 0 {
		b, _ := json.Marshal(v.Params)
		add("params", string(b))
	}
	if p := v.Prices; p != nil {
		add("prices", fmt.Sprintf("input %g, output %g, cached input %g USD per million tokens", p.InputPerMTok, p.OutputPerMTok, p.CachedInputPerMTok))
	}
	for _, n := range v.Notes {
		add("note", n)
	}

	if !ios.IsStdoutTTY() {
		for _, l := range lines {
			fmt.Fprintf(ios.Out, "%s\t%s\n", l.k, l.v)
		}
		return nil
	}
	tw := tabwriter.NewWriter(ios.Out, 0, 8, 1, ' ', 0)
	for _, l := range lines {
		fmt.Fprintf(tw, "%s:\t%s\n", l.k, l.v)
	}
	return tw.Flush()
}

func joinPairs(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ", ")
}

// ---- set ------------------------------------------------------------------

// ProfileSetOptions are the inputs of `tavo profile set`.
type ProfileSetOptions struct {
	Name             string
	Protocol         string
	BaseURL          string
	Model            string
	KeyEnv           string
	AuthHeader       string
	ContextWindow    int
	MaxOutputTokens  int
	Tools            bool
	DynamicTools     bool
	Stream           bool
	MaxRounds        int
	MaxToolCalls     int
	ToolTimeout      string
	Timeout          string
	ReasoningContext string
	Headers          []string
	Query            []string
	Params           []string
	MakeDefault      bool
	// Changed reports whether a flag was given; only given flags change
	// the profile.
	Changed func(flag string) bool
}

func newCmdProfileSet(f *Factory) *cobra.Command {
	o := &ProfileSetOptions{}
	var apiKey string
	c := &cobra.Command{
		Use:   "set NAME",
		Short: "Create or update a profile",
		Long: `Create profile NAME, or change the fields of an existing one: only the flags
given change anything. An empty value (--base-url "") or 0 removes a field so
the default applies again; --header K= (empty value) removes one header, and
the same goes for --query and --param. The first profile becomes the default.

Keys are not accepted on the command line, where they would end up in shell
history: export the key in an environment variable and name it with --key-env.`,
		Example: `  tavo profile set work --protocol openai --model gpt-4o --key-env OPENAI_API_KEY
  tavo profile set local --base-url http://localhost:11434/v1 --model llama3.2
  tavo profile set claude --protocol anthropic --model claude-sonnet-4-5 --key-env ANTHROPIC_API_KEY --tools
  tavo profile set azure --base-url https://RES.openai.azure.com/openai/deployments/DEP \
    --auth-header api-key --key-env AZURE_OPENAI_API_KEY --query api-version=2024-10-21 --model gpt-4o`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("api-key") {
				return usageError(errors.New("--api-key is not accepted: keys on the command line end up in shell history; export the key and pass --key-env VAR (or write api_key in the config file)"))
			}
			o.Name = args[0]
			o.Changed = cmd.Flags().Changed
			return profileSetRun(f, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Protocol, "protocol", "", "wire protocol: "+strings.Join(config.Protocols, "|")+" (default openai)")
	fl.StringVar(&o.BaseURL, "base-url", "", "API root URL (default: the protocol's official URL)")
	fl.StringVarP(&o.Model, "model", "m", "", "model name")
	fl.StringVar(&o.KeyEnv, "key-env", "", "environment variable holding the API key")
	fl.StringVar(&o.AuthHeader, "auth-header", "", "send the key raw in this header instead of the protocol's (Azure: api-key)")
	fl.IntVar(&o.ContextWindow, "context-window", 0, "model context size in tokens")
	fl.IntVar(&o.MaxOutputTokens, "max-output-tokens", 0, "answer length limit in tokens")
	fl.BoolVar(&o.Tools, "tools", false, "turn tool use on for runs with this profile")
	fl.BoolVar(&o.DynamicTools, "dynamic-tools", true, "load tools on demand through tool search")
	fl.BoolVar(&o.Stream, "stream", true, "stream responses")
	fl.IntVar(&o.MaxRounds, "max-rounds", 0, "model rounds per run (default 5)")
	fl.IntVar(&o.MaxToolCalls, "max-tool-calls", 0, "tool calls per run (default 32)")
	fl.StringVar(&o.ToolTimeout, "tool-timeout", "", "limit for one tool call, e.g. 60s")
	fl.StringVar(&o.Timeout, "timeout", "", "limit for a whole run, e.g. 10m")
	fl.StringVar(&o.ReasoningContext, "reasoning-context", "", "earlier reasoning resent: "+strings.Join(config.ReasoningContexts, "|"))
	fl.StringArrayVar(&o.Headers, "header", nil, "extra request header `K=V` (repeatable; K= removes)")
	fl.StringArrayVar(&o.Query, "query", nil, "extra URL query parameter `K=V` (repeatable; K= removes)")
	fl.StringArrayVar(&o.Params, "param", nil, "extra request-body field `K=V`, V parsed as JSON when it can be (repeatable; K= removes)")
	fl.BoolVar(&o.MakeDefault, "default", false, "make this the default profile")
	fl.StringVar(&apiKey, "api-key", "", "refused: use --key-env")
	_ = fl.MarkHidden("api-key")
	return c
}

func profileSetRun(f *Factory, o *ProfileSetOptions) error {
	if err := config.ValidateProfileName(o.Name); err != nil {
		return usageError(err)
	}
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	changed := o.Changed
	if changed == nil {
		changed = func(string) bool { return false }
	}

	existing, exists := cfg.Profiles[o.Name]
	p := &config.Profile{}
	if exists {
		cp := *existing
		p = &cp
	} else if !changed("protocol") {
		// Written out so the file says what it means.
		p.Protocol = config.DefaultProtocol
	}

	setString := func(flag string, dst *string, v string) {
		if changed(flag) {
			*dst = v
		}
	}
	setInt := func(flag string, dst *int, v int) {
		if changed(flag) {
			*dst = v
		}
	}
	setBool := func(flag string, dst **bool, v bool) {
		if changed(flag) {
			*dst = &v
		}
	}
	setString("protocol", &p.Protocol, o.Protocol)
	setString("base-url", &p.BaseURL, o.BaseURL)
	setString("model", &p.Model, o.Model)
	setString("key-env", &p.APIKeyEnv, o.KeyEnv)
	setString("auth-header", &p.AuthHeader, o.AuthHeader)
	setInt("context-window", &p.ContextWindow, o.ContextWindow)
	setInt("max-output-tokens", &p.MaxOutputTokens, o.MaxOutputTokens)
	setBool("tools", &p.Tools, o.Tools)
	setBool("dynamic-tools", &p.DynamicTools, o.DynamicTools)
	setBool("stream", &p.Stream, o.Stream)
	setInt("max-rounds", &p.MaxRounds, o.MaxRounds)
	setInt("max-tool-calls", &p.MaxToolCalls, o.MaxToolCalls)
	setString("tool-timeout", &p.ToolTimeout, o.ToolTimeout)
	setString("timeout", &p.Timeout, o.Timeout)
	setString("reasoning-context", &p.ReasoningContext, o.ReasoningContext)
	if p.Headers, err = applyPairs("--header", p.Headers, o.Headers, func(s string) string { return s }); err != nil {
		return usageError(err)
	}
	if p.Query, err = applyPairs("--query", p.Query, o.Query, func(s string) string { return s }); err != nil {
		return usageError(err)
	}
	if p.Params, err = applyPairs("--param", p.Params, o.Params, parseParamValue); err != nil {
		return usageError(err)
	}
	if err := p.Validate(); err != nil {
		return usageError(fmt.Errorf("profile %q: %w", o.Name, err))
	}

	madeDefault := cfg.PutProfile(o.Name, p)
	if o.MakeDefault && cfg.DefaultProfile != o.Name {
		cfg.DefaultProfile = o.Name
		madeDefault = true
	}
	if err := cfg.Save(); err != nil {
		return err
	}

	verb := "updated"
	if !exists {
		verb = "created"
	}
	suffix := ""
	if madeDefault {
		suffix = "; it is now the default"
	}
	note(f, "%s profile %q in %s%s", verb, o.Name, cfg.Path(), suffix)
	// Point out what a run would still miss, now rather than at run time.
	if r, err := cfg.Inspect(config.Overrides{Profile: o.Name}, f.Getenv); err == nil {
		if r.Model == "" {
			note(f, "note: no model yet: add one with `tavo profile set %s --model MODEL`", o.Name)
		}
		if r.KeyProblem != "" {
			note(f, "note: %s", r.KeyProblem)
		}
	}
	return nil
}

// applyPairs applies K=V arguments to m: K=V sets, K= removes.
func applyPairs[V any](flag string, m map[string]V, args []string, parse func(string) V) (map[string]V, error) {
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s wants KEY=VALUE, got %q", flag, a)
		}
		if v == "" {
			delete(m, k)
			continue
		}
		if m == nil {
			m = map[string]V{}
		}
		m[k] = parse(v)
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// parseParamValue reads a --param value as JSON (numbers, booleans, objects,
// quoted strings) and keeps anything else as a plain string.
func parseParamValue(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err == nil && v != nil {
		// TOML has no null and stores whole numbers as integers.
		if n, ok := v.(float64); ok && n == float64(int64(n)) && !strings.ContainsAny(s, ".eE") {
			return int64(n)
		}
		return v
	}
	return s
}

// ---- rm, use --------------------------------------------------------------

func newCmdProfileRm(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a profile",
		Long: `Remove a profile. If it was the default and exactly one profile remains, that
one becomes the default; otherwise there is no default until you pick one
with "tavo profile use".`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return profileRmRun(f, args[0]) },
	}
}

func profileRmRun(f *Factory, name string) error {
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	wasDefault := cfg.DefaultProfile == name
	if !cfg.RemoveProfile(name) {
		return unknownProfileError(cfg, name)
	}
	if err := cfg.Save(); err != nil {
		return err
	}
	switch {
	case !wasDefault:
		note(f, "removed profile %q", name)
	case cfg.DefaultProfile != "":
		note(f, "removed profile %q; %q is now the default", name, cfg.DefaultProfile)
	case len(cfg.Profiles) == 0:
		note(f, "removed profile %q; no profiles remain", name)
	default:
		note(f, "removed profile %q; there is no default profile now: pick one with `tavo profile use NAME`", name)
	}
	return nil
}

func newCmdProfileUse(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "use NAME",
		Short: "Make a profile the default",
		Args:  cobra.ExactArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return profileUseRun(f, args[0]) },
	}
}

func profileUseRun(f *Factory, name string) error {
	cfg, err := loadConfig(f)
	if err != nil {
		return err
	}
	if !cfg.HasProfile(name) {
		return unknownProfileError(cfg, name)
	}
	cfg.DefaultProfile = name
	if err := cfg.Save(); err != nil {
		return err
	}
	note(f, "default profile is now %q", name)
	if env := f.Getenv("TAVO_PROFILE"); env != "" && env != name {
		note(f, "note: TAVO_PROFILE=%s is set and still wins in this environment", env)
	}
	return nil
}

// ---- diagnose -------------------------------------------------------------

// diagnoseTimeout bounds the endpoint probe.
const diagnoseTimeout = 2 * time.Second

// diagnoseCheck is one line of `tavo profile diagnose`.
type diagnoseCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	// HTTPStatus and LatencyMS are set by the endpoint check when the
	// server answered.
	HTTPStatus int   `json:"http_status,omitempty"`
	LatencyMS  int64 `json:"latency_ms,omitempty"`
}

// diagnoseReport is the JSON form of `tavo profile diagnose`.
type diagnoseReport struct {
	Profile string          `json:"profile"`
	OK      bool            `json:"ok"`
	Checks  []diagnoseCheck `json:"checks"`
}

func newCmdProfileDiagnose(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "diagnose [NAME]",
		Short: "Check that a profile can reach its model API",
		Long: `Check a profile step by step: the config file parses, the profile resolves,
it has a model and a key (by source, never the value), the base URL parses,
and the API answers: GET the protocol's model list with the key (2s limit),
reporting the HTTP status and latency; 401/403 means the key was rejected.
One line per check; exit 0 when all pass, 1 otherwise.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return profileDiagnoseRun(cmd.Context(), f, name, http.DefaultTransport)
		},
	}
}

func profileDiagnoseRun(ctx context.Context, f *Factory, name string, transport http.RoundTripper) error {
	out, err := cli.NewOutput(f.IO, f.Output, f.JQ, cli.FormatText)
	if err != nil {
		return usageError(err)
	}
	rep := diagnose(ctx, f, name, transport)
	switch {
	case out.Format == cli.FormatNDJSON:
		err = cli.WriteList(out, rep.Checks)
	case out.Structured():
		err = out.WriteValue(rep)
	default:
		for _, c := range rep.Checks {
			status := "ok"
			if !c.OK {
				status = "FAIL"
			}
			if _, err = fmt.Fprintf(f.IO.Out, "%-4s  %-8s  %s\n", status, c.Name, c.Detail); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	if !rep.OK {
		return silentExit(1)
	}
	return nil
}

// diagnose runs the checks in order and stops at the first one the later
// checks depend on.
func diagnose(ctx context.Context, f *Factory, name string, transport http.RoundTripper) diagnoseReport {
	rep := diagnoseReport{Profile: name, OK: true}
	add := func(c diagnoseCheck) {
		rep.Checks = append(rep.Checks, c)
		rep.OK = rep.OK && c.OK
	}

	cfg, err := f.Config()
	if err != nil {
		add(diagnoseCheck{Name: "config", Detail: err.Error()})
		return rep
	}
	detail := "parsed " + cfg.Path()
	if len(cfg.Profiles) == 0 && cfg.DefaultProfile == "" {
		detail = "no profiles in " + cfg.Path()
	}
	add(diagnoseCheck{Name: "config", OK: true, Detail: detail})

	if name != "" && !cfg.HasProfile(name) {
		add(diagnoseCheck{Name: "profile", Detail: unknownProfileError(cfg, name).Error()})
		return rep
	}
	r, err := cfg.Inspect(config.Overrides{Profile: name}, f.Getenv)
	if err != nil {
		add(diagnoseCheck{Name: "profile", Detail: err.Error()})
		return rep
	}
	rep.Profile = r.ProfileName
	who := fmt.Sprintf("%q, protocol %s", r.ProfileName, r.Protocol)
	if r.ProfileName == "" {
		who = fmt.Sprintf("none: protocol %s from flags and environment", r.Protocol)
	}
	add(diagnoseCheck{Name: "profile", OK: true, Detail: who})

	if r.Model != "" {
		add(diagnoseCheck{Name: "model", OK: true, Detail: r.Model})
	} else {
		add(diagnoseCheck{Name: "model", Detail: "none: pass -m/--model or set one with `tavo profile set NAME --model MODEL`"})
	}

	switch {
	case r.APIKey != "":
		add(diagnoseCheck{Name: "key", OK: true, Detail: "set, from " + strings.Replace(r.KeySource, "config", "the config file", 1)})
	case r.KeyProblem != "":
		add(diagnoseCheck{Name: "key", Detail: r.KeyProblem})
	default:
		add(diagnoseCheck{Name: "key", OK: true, Detail: "none needed: local server"})
	}

	if err := config.ValidateBaseURL(r.BaseURL); err != nil {
		add(diagnoseCheck{Name: "base_url", Detail: err.Error()})
		return rep
	}
	add(diagnoseCheck{Name: "base_url", OK: true, Detail: fmt.Sprintf("%s (%s)", r.BaseURL, r.BaseURLSource)})

	add(probeEndpoint(ctx, r, transport, diagnoseTimeout))
	return rep
}

// probeEndpoint asks the API for its model list and reads the answer. The
// request is providers.ModelsRequest: the URL and headers a run would send
// (overrides included), with the model-list path. Redirects are not followed: a key must not travel to another host, and
// a redirect usually means a wrong base URL anyway.
func probeEndpoint(ctx context.Context, r *config.Resolved, transport http.RoundTripper, timeout time.Duration) diagnoseCheck {
	c := diagnoseCheck{Name: "endpoint"}
	target, header, err := providers.ModelsRequest(r.Protocol, r.ProviderConfig())
	if err != nil {
		c.Detail = "cannot build the request URL: " + err.Error()
		return c
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		c.Detail = "cannot build the request: " + err.Error()
		return c
	}
	req.Header = header

	client := &http.Client{
		Transport:     transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	start := time.Now()
	resp, err := client.Do(req)
	elapsed := time.Since(start)
	// The URL is shown without its query, which a profile may use for
	// credentials.
	shown := strings.SplitN(target, "?", 2)[0]
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			c.Detail = fmt.Sprintf("GET %s: no answer within %s", shown, timeout)
		} else {
			c.Detail = fmt.Sprintf("GET %s: %v", shown, err)
		}
		return c
	}
	resp.Body.Close()
	c.HTTPStatus = resp.StatusCode
	c.LatencyMS = elapsed.Milliseconds()
	took := fmt.Sprintf("HTTP %d in %dms", resp.StatusCode, c.LatencyMS)
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		c.OK = true
		c.Detail = fmt.Sprintf("GET %s: %s", shown, took)
	case (code == 401 || code == 403) && r.APIKey == "" && r.KeyProblem != "":
		// The key check has already failed; this check is about reaching
		// the server, which answered.
		c.OK = true
		c.Detail = fmt.Sprintf("GET %s: %s (reachable; it wants a key)", shown, took)
	case (code == 401 || code == 403) && r.APIKey == "":
		want := "name a key with `tavo profile set NAME --key-env VAR`"
		if r.KeyEnv != "" {
			want = "set " + r.KeyEnv
		}
		c.Detail = fmt.Sprintf("the server wants a key: GET %s: %s; %s", shown, took, want)
	case code == 401 || code == 403:
		c.Detail = fmt.Sprintf("key rejected: GET %s: %s", shown, took)
	case code == 429:
		c.OK = true
		c.Detail = fmt.Sprintf("GET %s: %s (rate limited, but the key was accepted)", shown, took)
	case code >= 300 && code < 400:
		c.Detail = fmt.Sprintf("GET %s: %s, redirected to %s: check base_url", shown, took, resp.Header.Get("Location"))
	case code == 404:
		c.Detail = fmt.Sprintf("GET %s: %s: no model list there, check base_url", shown, took)
	default:
		c.Detail = fmt.Sprintf("GET %s: %s", shown, took)
	}
	return c
}
