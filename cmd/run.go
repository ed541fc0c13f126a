package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/codecs"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/tools/state"
)

// RunOptions are the flags of `tavo run`.
type RunOptions struct {
	Profile, Provider, Model, BaseURL string
	System                            string
	Tools                             bool
	AllowTools                        []string
	DynamicTools                      bool
	MaxRounds, MaxToolCalls           int
	ToolTimeout, Timeout              time.Duration
	ReasoningContext                  string
	NoStream                          bool
	Ask                               string
	Input                             string
	Params                            []string
	Attach                            []string
	MaxOutputTokens                   int
	Session                           string
	Schema                            string
	Yes                               bool
	Vars                              []string
}

const runExitCodes = `Exit codes:
  0    completed
  1    failed (provider or internal error)
  2    usage or configuration error
  3    stopped at a limit (--max-rounds, --max-tool-calls, --timeout)
  4    session busy or not found
  5    a person's answer was required and none could be had (--ask fail)
  130  interrupted (SIGINT, or a driver's cancel line)
  143  terminated (SIGTERM)`

func newCmdRun(f *Factory) *cobra.Command {
	o := &RunOptions{}
	c := &cobra.Command{
		Use:   "run [PROMPT...]",
		Short: "Run a model loop once",
		Long: `Run a model loop once: the prompt goes to the model, the tools it asks for run,
and the final answer comes out.

The prompt is the arguments, else standard input when it is not a terminal.
On a terminal the answer is printed as text; in a pipe every event is printed
as one NDJSON line (see docs/events.md); -o json prints one final document.

` + runExitCodes,
		Example: `  tavo run "Summarise RFC 9110 in three lines"
  git diff | tavo run -m gpt-4.1 --system "Review this patch" 
  tavo run -T "What is on https://example.com?" | jq -r 'select(.type=="text.delta").payload.text'
  tavo run -o json --jq .text "Say hi"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRun(cmd, f, o, args)
		},
	}
	addRunFlags(c, o)
	c.Flags().StringVar(&o.Session, "session", "", "continue this session (default: a new one)")
	return c
}

// addRunFlags defines the flags `tavo run` and `tavo session send` share.
func addRunFlags(c *cobra.Command, o *RunOptions) {
	fl := c.Flags()
	fl.StringVarP(&o.Profile, "profile", "p", "", "profile from the config file (env TAVO_PROFILE)")
	fl.StringVar(&o.Provider, "provider", "", "protocol: "+strings.Join(providers.ProtocolNames(), "|"))
	fl.StringVarP(&o.Model, "model", "m", "", "model name")
	fl.StringVar(&o.BaseURL, "base-url", "", "API base URL")
	fl.StringVar(&o.System, "system", "", "system prompt, or @FILE to read it from a file")
	fl.BoolVarP(&o.Tools, "tools", "T", false, "let the model use tools (off by default)")
	fl.StringArrayVar(&o.AllowTools, "tool", nil, "allow only this tool (repeatable)")
	fl.BoolVar(&o.DynamicTools, "dynamic-tools", true, "send resident tools and tavo_tool_search first; others on demand")
	fl.IntVar(&o.MaxRounds, "max-rounds", runner.DefaultMaxRounds, "most model requests in the run")
	fl.IntVar(&o.MaxToolCalls, "max-tool-calls", runner.DefaultMaxToolCalls, "most tool calls in the run")
	fl.DurationVar(&o.ToolTimeout, "tool-timeout", runner.DefaultToolTimeout, "timeout of one tool call (time waiting for a person excluded)")
	fl.DurationVar(&o.Timeout, "timeout", 0, "timeout of the whole run (0: none)")
	fl.StringVar(&o.ReasoningContext, "reasoning-context", "off", "earlier reasoning sent back: off|since-user|active-chain")
	fl.BoolVar(&o.NoStream, "no-stream", false, "ask for whole responses instead of streams")
	fl.StringVar(&o.Ask, "ask", "auto", "where tavo_ask_user answers come from: auto|tty|stdin|cancel|fail")
	fl.StringVar(&o.Input, "input", "", "ndjson: read a driver's control lines from stdin")
	fl.StringArrayVar(&o.Params, "param", nil, "extra request-body field key=value (value parsed as JSON when it parses)")
	fl.StringArrayVar(&o.Attach, "attach", nil, "add a file's content to the prompt (repeatable)")
	fl.IntVar(&o.MaxOutputTokens, "max-output-tokens", 0, "limit the answer's tokens (0: the profile's or the provider's default)")
	fl.BoolVarP(&o.Yes, "yes", "y", false, "allow every tool that asks for confirmation")
	fl.StringArrayVar(&o.Vars, "var", nil, "set a chat variable of the run's session, key=value (value JSON when it parses; repeatable)")
	fl.StringVar(&o.Schema, "schema", "", "JSON Schema FILE the final answer must match; the parsed value is run.completed.structured")
}

// runSetup is everything resolved before the run starts.
type runSetup struct {
	opts     runner.Options
	resolved *config.Resolved
	format   cli.Format
	jq       *cli.JQ
	ask      runner.AskMode
	driver   bool
	// budget is the request token budget from the profile's context limits.
	budget int
	// vars are --var values, set in the session before the run.
	vars map[string]json.RawMessage
}

func runRun(cmd *cobra.Command, f *Factory, o *RunOptions, args []string) error {
	s, err := prepareRun(cmd, f, o, args)
	if err != nil {
		return err
	}
	ctx, stop := signalContext(cmd.Context())
	defer stop()
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	ctx, cancelRun := context.WithCancelCause(ctx)
	defer cancelRun(nil)

	bound, err := bindSession(ctx, f, s, o.Session)
	if err != nil {
		return err
	}
	bound.watchCancel(ctx, cancelRun)
	out := newRunOutput(f, s.format, s.jq)
	s.opts.Emitter = events.NewEmitter(s.opts.RunID, s.opts.SessionID, nil, bound, out)

	src := runner.AskSources{}
	if f.IO.IsStdinTTY() || f.IO.IsStderrTTY() {
		src.Terminal = f.IO.OpenTerminal
	}
	if s.driver {
		d := runner.NewDriver(f.IO.In, func() {
			cancelRun(&runner.StopCause{Reason: "cancelled by the driver", ExitCode: events.ExitInterrupted})
		}, func(code, msg string) {
			s.opts.Emitter.Emit(events.Warning, events.WarningP{Code: code, Message: msg})
		})
		src.Driver = d
		s.opts.Guidance = d.Guidance()
	} else if !promptFromStdin(f, args) && !f.IO.IsStdinTTY() {
		src.Stdin = f.IO.In
	}
	s.opts.Asker = runner.NewAsker(s.ask, src)
	s.opts.Confirmer = runner.NewConfirmer(o.Yes, src)

	res := runner.Run(ctx, s.opts)
	if err := bound.finish(res); err != nil {
		fmt.Fprintf(f.IO.ErrOut, "tavo: recording the run: %v\n", err)
	}
	if err := out.finish(res); err != nil {
		fmt.Fprintf(f.IO.ErrOut, "tavo: writing output: %v\n", err)
	}
	if res.Err != nil && res.Status != events.StatusCompleted && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "tavo: run %s: %s\n", res.Status, oneLine(res.Err.Message))
	}
	if res.ExitCode != 0 {
		return silentExit(res.ExitCode)
	}
	return nil
}

// stopCauseFor maps the signal that stopped a run to its StopCause.
func stopCauseFor(s os.Signal) *runner.StopCause {
	if s == syscall.SIGTERM {
		return &runner.StopCause{Reason: "terminated (SIGTERM)", ExitCode: events.ExitTerminated}
	}
	return &runner.StopCause{Reason: "interrupted (SIGINT)", ExitCode: events.ExitInterrupted}
}

func promptFromStdin(f *Factory, args []string) bool {
	return len(args) == 0 && !f.IO.IsStdinTTY()
}

func prepareRun(cmd *cobra.Command, f *Factory, o *RunOptions, args []string) (*runSetup, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, usageError(err)
	}
	res, err := cfg.Resolve(config.Overrides{Profile: o.Profile, Provider: o.Provider, Model: o.Model, BaseURL: o.BaseURL}, f.Getenv)
	if err != nil {
		return nil, usageError(err)
	}
	if f.Verbose {
		for _, n := range res.Notes {
			fmt.Fprintf(f.IO.ErrOut, "tavo: %s\n", n)
		}
	}
	p := res.Profile
	fl := cmd.Flags()
	s := &runSetup{resolved: res}

	if s.format, err = cli.ResolveFormat(f.Output, f.IO, cli.FormatNDJSON); err != nil {
		return nil, usageError(err)
	}
	if f.JQ != "" {
		if s.format == cli.FormatText {
			return nil, usageError(errors.New("--jq needs JSON output: add -o json or -o ndjson"))
		}
		if s.jq, err = cli.NewJQ(f.JQ); err != nil {
			return nil, usageError(err)
		}
	}
	if s.ask, err = runner.ParseAskMode(o.Ask); err != nil {
		return nil, usageError(err)
	}
	switch o.Input {
	case "":
	case "ndjson":
		s.driver = true
	default:
		return nil, usageError(fmt.Errorf("invalid --input %q: the only input format is ndjson", o.Input))
	}

	// Flags given on the command line win over the profile's defaults.
	toolsOn := o.Tools
	if !fl.Changed("tools") && p.Tools != nil {
		toolsOn = *p.Tools
	}
	dynamic := o.DynamicTools
	if !fl.Changed("dynamic-tools") && p.DynamicTools != nil {
		dynamic = *p.DynamicTools
	}
	maxRounds := pickInt(fl.Changed("max-rounds"), o.MaxRounds, p.MaxRounds)
	maxCalls := pickInt(fl.Changed("max-tool-calls"), o.MaxToolCalls, p.MaxToolCalls)
	maxOut := pickInt(fl.Changed("max-output-tokens"), o.MaxOutputTokens, p.MaxOutputTokens)
	if maxRounds < 1 {
		return nil, usageError(fmt.Errorf("--max-rounds must be at least 1, got %d", maxRounds))
	}
	if maxCalls < 0 {
		return nil, usageError(fmt.Errorf("--max-tool-calls must not be negative, got %d", maxCalls))
	}
	toolTimeout, err := pickDuration(fl.Changed("tool-timeout"), o.ToolTimeout, p.ToolTimeout, "tool_timeout")
	if err != nil {
		return nil, usageError(err)
	}
	if toolTimeout <= 0 {
		return nil, usageError(errors.New("--tool-timeout must be positive"))
	}
	timeout, err := pickDuration(fl.Changed("timeout"), o.Timeout, p.Timeout, "timeout")
	if err != nil {
		return nil, usageError(err)
	}
	o.Timeout = timeout
	rcName := o.ReasoningContext
	if !fl.Changed("reasoning-context") && p.ReasoningContext != "" {
		rcName = p.ReasoningContext
	}
	rc, err := runner.ParseReasoningContext(rcName)
	if err != nil {
		return nil, usageError(err)
	}
	stream := !o.NoStream
	if !fl.Changed("no-stream") && p.Stream != nil {
		stream = *p.Stream
	}
	params, err := parseParams(p.Params, o.Params)
	if err != nil {
		return nil, usageError(err)
	}
	system, err := readSystem(o.System)
	if err != nil {
		return nil, usageError(err)
	}
	prompt, err := readPrompt(f, args, s.driver)
	if err != nil {
		return nil, usageError(err)
	}
	parts := []providers.Part{{Type: providers.PartText, Text: prompt}}
	att, err := attachments(o.Attach)
	if err != nil {
		return nil, usageError(err)
	}
	parts = append(parts, att...)

	catalog, err := runCatalog(cmd.Context(), f, o.AllowTools, toolsOn, dynamic)
	if err != nil {
		return nil, usageError(err)
	}
	provider, err := codecs.New(res.Protocol, res.ProviderConfig())
	if err != nil {
		return nil, usageError(err)
	}

	now := time.Now()
	s.opts = runner.Options{
		Provider:        provider,
		ProfileName:     res.ProfileName,
		Model:           res.Model,
		System:          system,
		Prompt:          providers.Message{Role: providers.RoleUser, Parts: parts},
		Catalog:         catalog,
		ToolsEnabled:    toolsOn,
		DynamicTools:    dynamic,
		MaxRounds:       maxRounds,
		MaxToolCalls:    maxCalls,
		ToolTimeout:     toolTimeout,
		Reasoning:       rc,
		Stream:          stream,
		MaxOutputTokens: maxOut,
		Params:          params,
		RunID:           ids.New("run", now),
		SessionID:       ids.New("ses", now),
	}
	if o.Schema != "" {
		doc, err := os.ReadFile(o.Schema)
		if err != nil {
			return nil, usageError(fmt.Errorf("reading --schema: %w", err))
		}
		if s.opts.Schema, err = runner.CompileOutputSchema(schemaName(o.Schema), doc); err != nil {
			return nil, usageError(fmt.Errorf("--schema %s: %w", o.Schema, err))
		}
	}
	if s.vars, err = parseVars(o.Vars); err != nil {
		return nil, usageError(err)
	}
	s.budget = contextBudget(p.ContextWindow, maxOut)
	if p.Prices != nil {
		s.opts.Prices = &runner.Prices{InputPerMTok: p.Prices.InputPerMTok, OutputPerMTok: p.Prices.OutputPerMTok, CachedInputPerMTok: p.Prices.CachedInputPerMTok}
	}
	return s, nil
}

func pickInt(changed bool, flag, profile int) int {
	if !changed && profile != 0 {
		return profile
	}
	return flag
}

func pickDuration(changed bool, flag time.Duration, profile, name string) (time.Duration, error) {
	if changed || profile == "" {
		return flag, nil
	}
	d, err := time.ParseDuration(profile)
	if err != nil {
		return 0, fmt.Errorf("profile %s %q is not a duration like 30s or 2m", name, profile)
	}
	return d, nil
}

// parseParams merges profile params with --param key=value flags; a value is
// JSON when it parses as JSON, else a string.
func parseParams(profile map[string]any, flags []string) (map[string]any, error) {
	if len(profile) == 0 && len(flags) == 0 {
		return nil, nil
	}
	out := map[string]any{}
	for k, v := range profile {
		out[k] = v
	}
	for _, kv := range flags {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("invalid --param %q: want key=value", kv)
		}
		var parsed any
		if err := json.Unmarshal([]byte(v), &parsed); err == nil {
			out[k] = parsed
		} else {
			out[k] = v
		}
	}
	return out, nil
}

func readSystem(s string) (string, error) {
	if !strings.HasPrefix(s, "@") {
		return s, nil
	}
	b, err := os.ReadFile(s[1:])
	if err != nil {
		return "", fmt.Errorf("reading --system file: %w", err)
	}
	return string(b), nil
}

func readPrompt(f *Factory, args []string, driver bool) (string, error) {
	if len(args) > 0 {
		return strings.Join(args, " "), nil
	}
	if driver {
		return "", errors.New("no prompt: with --input ndjson, stdin is the control channel, so pass the prompt as arguments")
	}
	if f.IO.IsStdinTTY() {
		return "", errors.New("no prompt: pass it as arguments or on standard input")
	}
	b, err := io.ReadAll(io.LimitReader(f.IO.In, 64<<20))
	if err != nil {
		return "", fmt.Errorf("reading the prompt from stdin: %w", err)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", errors.New("no prompt: standard input was empty; pass the prompt as arguments or on stdin")
	}
	return string(b), nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// schemaName derives the name some providers want for a schema from its
// file name: letters, digits, _ and - only.
func schemaName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var b strings.Builder
	for _, r := range base {
		if r < 128 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "answer"
	}
	return b.String()
}

// parseVars reads --var key=value flags: the value is JSON when it parses,
// else a string.
func parseVars(flags []string) (map[string]json.RawMessage, error) {
	vars := map[string]json.RawMessage{}
	for _, kv := range flags {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("invalid --var %q: want name=value", kv)
		}
		if err := state.CheckVarName(k); err != nil {
			return nil, fmt.Errorf("invalid --var %q: %w", kv, err)
		}
		raw := []byte(v)
		if !json.Valid(raw) {
			raw, _ = json.Marshal(v)
		}
		val, _, err := state.PrepareValue(raw)
		if err != nil {
			return nil, fmt.Errorf("invalid --var %q: %w", kv, err)
		}
		vars[k] = val
	}
	return vars, nil
}
