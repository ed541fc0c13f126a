package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/tools/webfetch"
)

// ProfileSetOptions are the inputs of `tavo profile set`.
type ProfileSetOptions struct {
	Factory          *Factory
	Name             string
	Protocol         string
	BaseURL          string
	Model            string
	KeyEnv           string
	AuthHeader       string
	ContextWindow    int
	MaxOutputTokens  int
	FetchModel       string
	FetchWindow      int
	Tools            bool
	DynamicTools     bool
	Stream           bool
	MaxRounds        int
	MaxToolCalls     int
	ToolTimeout      string
	Timeout          string
	ResponseTimeout  string
	StreamIdle       string
	ReasoningContext string
	System           string
	CodeMode         bool
	CodeModeDirect   []string
	CodeTimeout      string
	Headers          []string
	Query            []string
	Params           []string
	MakeDefault      bool
	// Changed reports whether a flag was given; only given flags change
	// the profile.
	Changed func(flag string) bool
}

// NewCmdProfileSet builds `tavo profile set`; runF, when not nil, runs
// instead of profileSetRun (for tests).
func NewCmdProfileSet(f *Factory, runF func(*ProfileSetOptions) error) *cobra.Command {
	o := &ProfileSetOptions{Factory: f}
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
			return runOr(runF, profileSetRun, o)
		},
		ValidArgsFunction: firstArgOnly(completeProfiles(f)),
	}
	fl := c.Flags()
	fl.StringVar(&o.Protocol, "protocol", "", "wire protocol: "+strings.Join(config.Protocols, "|")+" (default "+config.DefaultProtocol+")")
	_ = c.RegisterFlagCompletionFunc("protocol", completeProtocols)
	fl.StringVar(&o.BaseURL, "base-url", "", "API root URL (default: the protocol's official URL)")
	fl.StringVarP(&o.Model, "model", "m", "", "model name")
	fl.StringVar(&o.KeyEnv, "key-env", "", "environment variable holding the API key")
	fl.StringVar(&o.AuthHeader, "auth-header", "", "send the key raw in this header instead of the protocol's (Azure: api-key)")
	fl.IntVar(&o.ContextWindow, "context-window", 0, "model context size in tokens")
	fl.IntVar(&o.MaxOutputTokens, "max-output-tokens", 0, "answer length limit in tokens")
	fl.StringVar(&o.FetchModel, "fetch-model", "", "model, on this profile's API, that answers tavo_web_fetch's prompt from a long page")
	fl.IntVar(&o.FetchWindow, "fetch-context-window", 0, fmt.Sprintf("the fetch model's context size in tokens (default %d)", webfetch.DefaultContextWindow))
	fl.BoolVar(&o.Tools, "tools", config.DefaultTools, "turn tool use on for runs with this profile")
	fl.BoolVar(&o.DynamicTools, "dynamic-tools", config.DefaultDynamicTools, "load tools on demand through tool search")
	fl.BoolVar(&o.Stream, "stream", config.DefaultStream, "stream responses")
	fl.IntVar(&o.MaxRounds, "max-rounds", 0, fmt.Sprintf("model rounds per run (default %d)", config.DefaultMaxRounds))
	fl.IntVar(&o.MaxToolCalls, "max-tool-calls", 0, fmt.Sprintf("tool calls per run (default %d)", config.DefaultMaxToolCalls))
	fl.StringVar(&o.ToolTimeout, "tool-timeout", "", "limit for one tool call, e.g. 60s")
	fl.StringVar(&o.Timeout, "timeout", "", "limit for a whole run, e.g. 10m")
	fl.StringVar(&o.ResponseTimeout, "response-timeout", "", "limit for a model server's response headers, per request (default "+config.DurationText(config.DefaultResponseTimeout)+")")
	fl.StringVar(&o.StreamIdle, "stream-idle-timeout", "", "limit for silence inside a model's answer (default "+config.DurationText(config.DefaultStreamIdleTimeout)+")")
	fl.BoolVar(&o.CodeMode, "code-mode", config.DefaultCodeMode, "runs with this profile use code mode: the model writes programs that call the tools")
	fl.StringSliceVar(&o.CodeModeDirect, "code-mode-direct", nil, "tools the model calls directly in code mode, comma-separated (default "+strings.Join(config.DefaultCodeModeDirect, ",")+")")
	fl.StringVar(&o.CodeTimeout, "code-timeout", "", "limit for one code-mode program (default "+config.DurationText(config.DefaultCodeTimeout)+")")
	fl.StringVar(&o.ReasoningContext, "reasoning-context", "", "earlier reasoning resent: "+strings.Join(config.ReasoningContexts, "|"))
	fl.StringVar(&o.System, "system", "", "system prompt of runs with this profile, or @FILE to read it from a file")
	_ = c.RegisterFlagCompletionFunc("reasoning-context", completeReasoningContext)
	fl.StringArrayVar(&o.Headers, "header", nil, "extra request header `K=V` (repeatable; K= removes)")
	fl.StringArrayVar(&o.Query, "query", nil, "extra URL query parameter `K=V` (repeatable; K= removes)")
	fl.StringArrayVar(&o.Params, "param", nil, "extra request-body field `K=V`, V parsed as JSON when it can be (repeatable; K= removes)")
	fl.BoolVar(&o.MakeDefault, "default", false, "make this the default profile")
	fl.StringVar(&apiKey, "api-key", "", "refused: use --key-env")
	_ = fl.MarkHidden("api-key")
	return c
}

func profileSetRun(o *ProfileSetOptions) error {
	f := o.Factory
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
	setString("fetch-model", &p.FetchModel, o.FetchModel)
	setInt("fetch-context-window", &p.FetchContextWindow, o.FetchWindow)
	setBool("tools", &p.Tools, o.Tools)
	setBool("dynamic-tools", &p.DynamicTools, o.DynamicTools)
	setBool("stream", &p.Stream, o.Stream)
	setInt("max-rounds", &p.MaxRounds, o.MaxRounds)
	setInt("max-tool-calls", &p.MaxToolCalls, o.MaxToolCalls)
	setString("tool-timeout", &p.ToolTimeout, o.ToolTimeout)
	setString("timeout", &p.Timeout, o.Timeout)
	setString("response-timeout", &p.ResponseTimeout, o.ResponseTimeout)
	setString("stream-idle-timeout", &p.StreamIdleTimeout, o.StreamIdle)
	setString("reasoning-context", &p.ReasoningContext, o.ReasoningContext)
	setBool("code-mode", &p.CodeMode, o.CodeMode)
	setString("code-timeout", &p.CodeTimeout, o.CodeTimeout)
	if changed("code-mode-direct") {
		// --code-mode-direct "" removes the list: the default applies.
		p.CodeModeDirect = nil
		for _, n := range o.CodeModeDirect {
			if n = strings.TrimSpace(n); n != "" {
				p.CodeModeDirect = append(p.CodeModeDirect, n)
			}
		}
	}
	if changed("system") {
		if p.System, err = readSystem(o.System); err != nil {
			return usageError(err)
		}
	}
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
	if err := saveConfig(cfg); err != nil {
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
