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
	"github.com/tavo-cli/tavo/pkg/schedule"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools/state"
)

// RunOptions are the inputs of `tavo run` and `tavo session send`.
type RunOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Args are the prompt's words; none reads the prompt from stdin.
	Args []string
	// Changed reports whether a flag was given: a run setting given
	// overrides the profile's. Nil means none was.
	Changed func(flag string) bool

	Profile, Provider, Model, BaseURL string
	System                            string
	Tools                             bool
	AllowTools                        []string
	DynamicTools                      bool
	MaxRounds, MaxToolCalls           int
	ToolTimeout, Timeout              time.Duration
	ResponseTimeout, StreamIdle       time.Duration
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
	// Vars are run-local variables (--var), SetVars chat variables
	// stored in the session (--set-var).
	Vars, SetVars []string
	// ResumeRun continues that run (tavo runs resume) instead of sending
	// a prompt; Answer answers the question it waits on.
	ResumeRun string
	Answer    string
	Workspace string
	// CodeMode is --code-mode (SPEC §12; see run_codemode.go).
	CodeMode bool
	// Goal, when set, gives the run's session a goal that keeps the run
	// going turn after turn (--goal); MaxTurns caps its turns and Detach
	// hands the run to the worker (SPEC §14).
	Goal     string
	MaxTurns int
	Detach   bool

	// headless, when set, is a run the worker starts (loop firings,
	// wake-ups, detached goals): no terminal output, no signal handling of
	// its own, and its outcome reported back (see schedule_run.go).
	headless *headlessRun
}

const runExitCodes = `Exit codes:
  0    completed (or waiting: the run ended with tavo_wait; a worker wakes it)
  1    failed (provider or internal error)
  2    usage or configuration error
  3    stopped at a limit (--max-rounds, --max-tool-calls, --timeout, a --goal's --max-turns)
  4    session busy or not found
  5    a person's answer was required and none could be had (--ask fail)
  129  hung up (SIGHUP)
  130  interrupted (SIGINT, or a driver's cancel line)
  141  standard output closed by its reader (a pipe's reader went away)
  143  terminated (SIGTERM)`

// NewCmdRun builds `tavo run`; runF, when not nil, runs instead of runRun
// (for tests).
func NewCmdRun(f *Factory, runF func(*RunOptions) error) *cobra.Command {
	o := &RunOptions{Factory: f}
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
			o.Ctx, o.Args, o.Changed = cmd.Context(), args, cmd.Flags().Changed
			return runOr(runF, runRun, o)
		},
	}
	addRunFlags(c, o)
	c.Flags().StringVar(&o.Session, "session", "", "continue this session (default: a new one)")
	_ = c.RegisterFlagCompletionFunc("session", completeSessions(f))
	addGoalFlags(c, o)
	return c
}

// addRunFlags defines the flags `tavo run` and `tavo session send` share.
func addRunFlags(c *cobra.Command, o *RunOptions) {
	fl := c.Flags()
	fl.StringVarP(&o.Profile, "profile", "p", "", "profile from the config file (env TAVO_PROFILE)")
	_ = c.RegisterFlagCompletionFunc("profile", completeProfiles(o.Factory))
	fl.StringVar(&o.Provider, "provider", "", "protocol: "+strings.Join(providers.ProtocolNames(), "|"))
	_ = c.RegisterFlagCompletionFunc("provider", completeProtocols)
	fl.StringVarP(&o.Model, "model", "m", "", "model name")
	fl.StringVar(&o.BaseURL, "base-url", "", "API base URL")
	fl.StringVar(&o.System, "system", "", "system prompt, or @FILE to read it from a file")
	fl.BoolVarP(&o.Tools, "tools", "T", config.DefaultTools, "let the model use tools ("+onOff(config.DefaultTools)+" by default)")
	fl.StringArrayVar(&o.AllowTools, "tool", nil, "allow only this tool, sent from the first request (repeatable; implies -T and --dynamic-tools=false)")
	_ = c.RegisterFlagCompletionFunc("tool", completeTools(o.Factory))
	fl.BoolVar(&o.DynamicTools, "dynamic-tools", config.DefaultDynamicTools, "send resident tools and tavo_tool_search first; others on demand")
	fl.IntVar(&o.MaxRounds, "max-rounds", config.DefaultMaxRounds, "most model requests in the run")
	fl.IntVar(&o.MaxToolCalls, "max-tool-calls", config.DefaultMaxToolCalls, "most tool calls in the run")
	fl.DurationVar(&o.ToolTimeout, "tool-timeout", config.DefaultToolTimeout, "timeout of one tool call (time waiting for a person excluded)")
	fl.DurationVar(&o.Timeout, "timeout", config.DefaultTimeout, "timeout of the whole run (0: none)")
	fl.DurationVar(&o.ResponseTimeout, "response-timeout", config.DefaultResponseTimeout, "limit for the model server's response headers, per request (overrides the profile's response_timeout)")
	fl.DurationVar(&o.StreamIdle, "stream-idle-timeout", config.DefaultStreamIdleTimeout, "limit for silence inside the model's answer (overrides the profile's stream_idle_timeout)")
	fl.StringVar(&o.ReasoningContext, "reasoning-context", config.DefaultReasoningContext, "earlier reasoning sent back: "+strings.Join(config.ReasoningContexts, "|"))
	_ = c.RegisterFlagCompletionFunc("reasoning-context", completeReasoningContext)
	fl.BoolVar(&o.NoStream, "no-stream", !config.DefaultStream, "ask for whole responses instead of streams")
	fl.StringVar(&o.Ask, "ask", "auto", "where tavo_ask_user answers come from: auto|tty|stdin|cancel|fail")
	_ = c.RegisterFlagCompletionFunc("ask", completeAsk)
	fl.StringVar(&o.Input, "input", "", "ndjson: read a driver's control lines from stdin")
	fl.StringArrayVar(&o.Params, "param", nil, "extra request-body field key=value (value parsed as JSON when it parses)")
	fl.StringArrayVar(&o.Attach, "attach", nil, "add a file's content to the prompt (repeatable)")
	fl.StringVar(&o.Workspace, "workspace", "", "let tavo_read read files under DIR, read-only (workspace://PATH)")
	_ = c.MarkFlagDirname("workspace")
	fl.BoolVar(&o.CodeMode, "code-mode", config.DefaultCodeMode, "code mode: the model calls tools from JavaScript programs (tavo_code); implies -T")
	fl.IntVar(&o.MaxOutputTokens, "max-output-tokens", config.DefaultMaxOutputTokens, "limit the answer's tokens (0: the profile's or the provider's default)")
	fl.BoolVarP(&o.Yes, "yes", "y", false, "allow every tool that asks for confirmation")
	fl.StringArrayVar(&o.Vars, "var", nil, "run-local variable key=value, seen by the variable tools in this run only, never stored (value JSON when it parses; repeatable)")
	fl.StringArrayVar(&o.SetVars, "set-var", nil, "store a chat variable of the run's session before the run, key=value (value JSON when it parses; repeatable)")
	fl.StringVar(&o.Schema, "schema", "", "JSON Schema FILE the final answer must match; the parsed value is run.completed.structured")
}

// runSetup is everything decided before the run starts.
type runSetup struct {
	opts     runner.Options
	settings *config.RunSettings
	format   cli.Format
	jq       *cli.JQ
	ask      runner.AskMode
	driver   bool
	// vars are --set-var values, set in the session before the run;
	// runVars the --var values, this run's only.
	vars    map[string]json.RawMessage
	runVars map[string]json.RawMessage
	// remember is what a new session keeps of how this run was started.
	remember session.Config
	// attached are the --attach files, stored as assets once the store is
	// open and added to the prompt with their asset:// notes.
	attached []attachment
	// judgeModel judges goals (the profile's judge_model or model).
	judgeModel string
}

// runRun is `tavo run` and `tavo session send`: flags → settings →
// session.Bind → runner.Run → output.
func runRun(o *RunOptions) error {
	f := o.Factory
	if err := checkGoalFlags(o); err != nil {
		return err
	}
	s, err := prepareRun(o)
	if err != nil {
		return err
	}
	ctx, stop := o.Ctx, func() {}
	if o.headless == nil {
		ctx, stop = signalContext(o.Ctx)
	}
	defer stop()
	if s.settings.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.settings.Timeout)
		defer cancel()
	}
	ctx, cancelRun := context.WithCancelCause(ctx)
	defer cancelRun(nil)

	st, closeStore, err := runStore(ctx, o)
	if err != nil {
		return err
	}
	defer closeStore()
	if o.Detach {
		return detachGoal(ctx, f, st, o, s)
	}
	if err := checkNoActiveGoal(ctx, st, o); err != nil {
		return err
	}
	prompt := s.opts.Prompt.Text()
	newSession, assets := "", []string(nil)
	if len(s.attached) > 0 {
		// Assets need their session's id before the session exists.
		sid := o.Session
		if sid == "" {
			newSession = ids.New("ses", time.Now())
			sid = newSession
		}
		var parts []providers.Part
		if parts, assets, err = storeAssets(ctx, st, sid, s.attached); err != nil {
			return failedError(err)
		}
		s.opts.Prompt.Parts = append(s.opts.Prompt.Parts, parts...)
	}
	bound, err := session.Bind(ctx, st, session.BindOptions{
		SessionID:     o.Session,
		NewSessionID:  newSession,
		Prompt:        prompt,
		Meta:          store.RunMeta{Profile: s.settings.ProfileName, Provider: string(s.settings.Protocol), Model: s.settings.Model},
		Vars:          s.vars,
		Config:        &s.remember,
		PromptMessage: s.opts.Prompt,
		ResumeFrom:    o.ResumeRun,
	})
	if err != nil {
		removeAssets(ctx, st, assets)
		if o.headless != nil {
			return err
		}
		if session.IsCannotResume(err) {
			return usageError(err)
		}
		return sessionError(err, o.Session)
	}
	bound.Configure(&s.opts)
	bound.WatchCancel(ctx, cancelRun)
	out := newRunOutput(f, s.format, s.jq)
	out.onFail = func(err error) { cancelRun(outputStopCause(err)) }
	if o.headless != nil {
		s.opts.Emitter = events.NewEmitter(s.opts.RunID, s.opts.SessionID, nil, bound)
	} else {
		s.opts.Emitter = events.NewEmitter(s.opts.RunID, s.opts.SessionID, nil, bound, out)
	}
	if ctx, err = startGoal(ctx, st, o, s); err != nil {
		res := &runner.Result{Status: events.StatusFailed, ExitCode: events.ExitUsage, Err: &events.ErrorInfo{Code: "goal_active", Message: err.Error()}}
		_ = bound.Finish(ctx, res)
		return usageError(err)
	}
	if o.Goal != "" {
		// A resume of a run killed before its first round starts from the
		// prompt: with the goal's note, or the model never learns the goal.
		if err := bound.SetResumePrompt(ctx, s.opts.Prompt); err != nil {
			res := &runner.Result{Status: events.StatusFailed, ExitCode: events.ExitFailed, Err: &events.ErrorInfo{Code: "store_failed", Message: err.Error()}}
			_ = bound.Finish(ctx, res)
			return failedError(err)
		}
	}

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
		s.opts.BeforeCompleted = d.WarnUnused
	} else if (o.ResumeRun != "" || !promptFromStdin(f, o.Args)) && !f.IO.IsStdinTTY() {
		src.Stdin = f.IO.In
	}
	s.opts.Asker = runner.NewAsker(s.ask, src)
	if id := bound.PendingQuestion(); id != "" && o.Answer != "" {
		s.opts.Asker = runner.PresetAnswer(id, o.Answer, s.opts.Asker)
	}
	s.opts.Confirmer = runner.NewConfirmer(o.Yes, src)

	// Run-local variables travel with the run's context to every tool call
	// (and to the run's sub-agents, which share the tree's context).
	runCtx := rootOfTree(state.WithRunVars(ctx, state.NewRunVars(s.runVars)), f, st, s)
	res := runner.Run(runCtx, s.opts)
	err = bound.Finish(ctx, res)
	if err == nil {
		err = recordWake(ctx, f, st, o, s.opts.SessionID, s.opts.RunID, res)
	}
	if o.headless != nil {
		o.headless.outcome = schedule.RunOutcome{RunID: s.opts.RunID, Status: res.Status, ExitCode: res.ExitCode, WakeAt: res.WakeAt}
		return err
	}
	if cerr := closeStore(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(f.IO.ErrOut, "tavo: recording the run: %v\n", err)
	}
	ferr := out.finish(res)
	if res.ExitCode == events.ExitClosedPipe {
		// The reader of stdout went away: it wanted no more, so there is
		// nothing to tell it (run.completed in the store says why).
		return silentExit(res.ExitCode)
	}
	if out.jqErr != nil {
		printError(f, out.jqErr)
	}
	if res.Err != nil && res.Status != events.StatusCompleted && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "tavo: run %s: %s\n", res.Status, oneLine(res.Err.Message))
	}
	switch {
	case res.ExitCode != 0:
		return silentExit(res.ExitCode)
	case ferr != nil:
		// -o json writes after the run; outputExit reports the failure.
		return failedError(ferr)
	case out.jqErr != nil:
		return silentExit(events.ExitFailed)
	}
	return nil
}

// stopCauseFor maps the signal that stopped a run to its StopCause.
func stopCauseFor(s os.Signal) *runner.StopCause {
	switch s {
	case syscall.SIGTERM:
		return &runner.StopCause{Reason: "terminated (SIGTERM)", ExitCode: events.ExitTerminated}
	case syscall.SIGHUP:
		return &runner.StopCause{Reason: "hung up (SIGHUP)", ExitCode: events.ExitHangup}
	}
	return &runner.StopCause{Reason: "interrupted (SIGINT)", ExitCode: events.ExitInterrupted}
}

// onOff names a boolean default in help text.
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func promptFromStdin(f *Factory, args []string) bool {
	return len(args) == 0 && !f.IO.IsStdinTTY()
}

// runFlags are the run settings given on the command line: a flag the
// person did not set is left nil, so the profile's value applies.
func runFlags(o *RunOptions) config.RunFlags {
	set := o.Changed
	if set == nil {
		set = func(string) bool { return false }
	}
	var rf config.RunFlags
	if set("tools") {
		rf.Tools = &o.Tools
	}
	if set("dynamic-tools") {
		rf.DynamicTools = &o.DynamicTools
	}
	if set("no-stream") {
		stream := !o.NoStream
		rf.Stream = &stream
	}
	if set("max-rounds") {
		rf.MaxRounds = &o.MaxRounds
	}
	if set("max-tool-calls") {
		rf.MaxToolCalls = &o.MaxToolCalls
	}
	if set("max-output-tokens") {
		rf.MaxOutputTokens = &o.MaxOutputTokens
	}
	if set("tool-timeout") {
		rf.ToolTimeout = &o.ToolTimeout
	}
	if set("timeout") {
		rf.Timeout = &o.Timeout
	}
	if set("reasoning-context") {
		rf.ReasoningContext = &o.ReasoningContext
	}
	if set("response-timeout") {
		rf.ResponseTimeout = &o.ResponseTimeout
	}
	if set("stream-idle-timeout") {
		rf.StreamIdleTimeout = &o.StreamIdle
	}
	rf.Params = o.Params
	return rf
}

// allowListFlags applies what --tool implies: tools on (naming a tool asks
// for it, so -T is implied; --tools=false with --tool contradicts itself)
// and dynamic loading off, so every allowed tool is in the first request
// (an allow-list is short, and under dynamic loading a tool that is not
// resident would stay hidden behind a tool search the list may leave out).
func allowListFlags(o *RunOptions, rf *config.RunFlags) error {
	if len(o.AllowTools) == 0 {
		return nil
	}
	if rf.Tools != nil && !*rf.Tools {
		return errors.New("--tool allows a tool but --tools=false turns tools off: drop one of them")
	}
	on, off := true, false
	rf.Tools, rf.DynamicTools = &on, &off
	return nil
}

// prepareRun decides everything before the run starts: settings, output,
// prompt, tools and provider. Every error is a usage error.
func prepareRun(o *RunOptions) (*runSetup, error) {
	f := o.Factory
	cfg, err := loadConfig(f)
	if err != nil {
		return nil, err
	}
	if o.ResumeRun != "" {
		if err := checkResume(o); err != nil {
			return nil, err
		}
	}
	// A continued session runs as it was run: its stored config fills in
	// what the flags leave out (SPEC §17).
	flagCfg, err := flagConfig(o)
	if err != nil {
		return nil, usageError(err)
	}
	var stored session.Config
	switch {
	case o.headless != nil && o.headless.config != nil:
		// A loop fires with the settings recorded at its creation.
		stored = *o.headless.config
	case o.Session != "":
		if stored, err = storedSessionConfig(o.Ctx, f, o.Session, o.headless != nil); err != nil {
			return nil, err
		}
	}
	eff, fromSession := session.Layer(stored, flagCfg)
	res, err := cfg.Resolve(eff.Overrides(), f.Getenv)
	if err != nil {
		return nil, usageError(err)
	}
	s := &runSetup{}
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
	rf := runFlags(o)
	if err := allowListFlags(o, &rf); err != nil {
		return nil, usageError(err)
	}
	// The session's stored settings fill in what no flag set; --tool then
	// still turns tools on with every allowed tool in the first request.
	rf = eff.RunFlags(rf)
	_ = allowListFlags(o, &rf)
	codeMode, err := codeModeFlags(eff, res.Profile, &rf)
	if err != nil {
		return nil, usageError(err)
	}
	set, err := config.ResolveRun(res, rf)
	if err != nil {
		return nil, usageError(err)
	}
	s.settings = set
	s.judgeModel = judgeModel(res, set)
	verboseRunSettings(f, res, set)
	system := set.System
	s.remember = session.Remembered(flagCfg, res)
	var parts []providers.Part
	if o.ResumeRun == "" {
		// A resumed run sends no new prompt: it continues the stored one.
		prompt, err := readPrompt(f, o.Args, s.driver)
		if err != nil {
			return nil, usageError(err)
		}
		parts = []providers.Part{{Type: providers.PartText, Text: prompt}}
		if s.attached, err = attachments(o.Attach); err != nil {
			return nil, usageError(err)
		}
	}

	pc := res.ProviderConfig()
	pc.Timeouts = set.HTTPTimeouts
	provider, err := codecs.New(res.Protocol, pc)
	if err != nil {
		return nil, usageError(err)
	}
	catalog, err := runCatalogWith(o.Ctx, f, eff.AllowTools, set.Tools, set.DynamicTools && !codeMode.On, fetchOptions(res, provider))
	if err != nil {
		return nil, usageError(err)
	}
	codeModeTools, err := useCodeMode(catalog, codeMode)
	if err != nil {
		return nil, usageError(err)
	}
	if err := useWorkspace(catalog.Resources(), config.RunWorkspace(o.Workspace, res.Profile)); err != nil {
		return nil, usageError(err)
	}
	// Settings the provider is sure to refuse are the user's to fix (exit 2).
	if err := providers.CheckRequest(provider, &providers.Request{Model: set.Model, MaxOutputTokens: set.MaxOutputTokens, Params: set.Params}); err != nil {
		return nil, usageError(err)
	}
	s.opts = runner.Options{
		Provider:        provider,
		ProfileName:     set.ProfileName,
		Model:           set.Model,
		System:          system,
		Prompt:          promptMessage(parts),
		Catalog:         catalog,
		ToolsEnabled:    set.Tools,
		DynamicTools:    set.DynamicTools && !codeMode.On,
		CodeModeTools:   codeModeTools,
		MaxRounds:       set.MaxRounds,
		MaxToolCalls:    set.MaxToolCalls,
		ToolTimeout:     set.ToolTimeout,
		Reasoning:       runner.ReasoningContext(set.ReasoningContext),
		Stream:          set.Stream,
		MaxOutputTokens: set.MaxOutputTokens,
		Params:          set.Params,
		ContextBudget:   set.ContextBudget,
		Started: runner.StartInfo{BaseURL: res.BaseURL, System: system, AllowTools: eff.AllowTools,
			Sources: session.Sources(res, set, fromSession, len(flagCfg.AllowTools) > 0)},
	}
	useVision(s, provider, res.Profile)
	if pr := set.Prices; pr != nil {
		s.opts.Prices = &runner.Prices{InputPerMTok: pr.InputPerMTok, OutputPerMTok: pr.OutputPerMTok, CachedInputPerMTok: pr.CachedInputPerMTok}
	}
	if o.Schema != "" {
		if s.opts.Schema, err = runner.LoadOutputSchema(schemaName(o.Schema), o.Schema); err != nil {
			return nil, usageError(fmt.Errorf("--schema %s: %w", o.Schema, err))
		}
	}
	if s.vars, err = parseVars("--set-var", o.SetVars); err != nil {
		return nil, usageError(err)
	}
	if s.runVars, err = parseVars("--var", o.Vars); err != nil {
		return nil, usageError(err)
	}
	return s, nil
}

// promptMessage is the user message of parts; none for a resumed run.
func promptMessage(parts []providers.Part) providers.Message {
	if len(parts) == 0 {
		return providers.Message{}
	}
	return providers.Message{Role: providers.RoleUser, Parts: parts}
}

// checkResume refuses, before anything starts, a resume that cannot be
// (exit 2, with why) and points o at the run's session.
func checkResume(o *RunOptions) error {
	if len(o.Args) > 0 || len(o.Attach) > 0 {
		return usageError(errors.New("a resumed run takes no prompt or --attach: it continues where the run stopped; use `tavo session send` for a new prompt"))
	}
	if o.Answer != "" && o.Input != "" {
		return usageError(errors.New("--answer and --input ndjson both answer the question: give one"))
	}
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	r, err := session.CheckResumable(o.Ctx, st, o.ResumeRun)
	switch {
	case session.IsCannotResume(err):
		return usageError(err)
	case errors.Is(err, store.ErrNotFound):
		return usageError(fmt.Errorf("no run %q (see `tavo runs list`)", o.ResumeRun))
	case err != nil:
		return err
	}
	if o.Answer != "" && r.Status != events.StatusInputRequired {
		return usageError(fmt.Errorf("--answer is for a run that ended input_required; run %s was %s", r.ID, r.Status))
	}
	o.Session = r.SessionID
	return nil
}

// flagConfig is what the command line chooses of the settings a session
// remembers: the provider choice, and the run settings whose flags were
// given.
func flagConfig(o *RunOptions) (session.Config, error) {
	c := session.Config{Profile: o.Profile, Provider: o.Provider, Model: o.Model, BaseURL: o.BaseURL, AllowTools: o.AllowTools}
	given := func(flag string, nonZero bool) bool {
		if o.Changed == nil {
			return nonZero
		}
		return o.Changed(flag)
	}
	if given("system", o.System != "") {
		text, err := readSystem(o.System)
		if err != nil {
			return c, err
		}
		c.System = &text
	}
	if given("tools", false) {
		c.Tools = &o.Tools
	}
	if given("dynamic-tools", false) {
		c.DynamicTools = &o.DynamicTools
	}
	if given("reasoning-context", false) {
		c.ReasoningContext = o.ReasoningContext
	}
	if given("code-mode", false) {
		c.CodeMode = &o.CodeMode
	}
	return c, nil
}

// storedSessionConfig reads how session id is run; an unknown session is
// exit 4.
func storedSessionConfig(ctx context.Context, f *Factory, id string, shared bool) (session.Config, error) {
	st, closeStore, err := openRunStore(ctx, f, shared)
	if err != nil {
		return session.Config{}, err
	}
	defer closeStore()
	c, err := session.LoadConfig(ctx, st, id)
	if err != nil {
		return c, sessionError(err, id)
	}
	return c, nil
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

// parseVars reads key=value flags (--var, --set-var): the value is JSON
// when it parses, else a string.
func parseVars(flag string, flags []string) (map[string]json.RawMessage, error) {
	vars := map[string]json.RawMessage{}
	for _, kv := range flags {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("invalid %s %q: want name=value", flag, kv)
		}
		if err := store.CheckVarName(k); err != nil {
			return nil, fmt.Errorf("invalid %s %q: %w", flag, kv, err)
		}
		raw := []byte(v)
		if !json.Valid(raw) {
			raw, _ = json.Marshal(v)
		}
		val, _, err := store.PrepareValue(raw)
		if err != nil {
			return nil, fmt.Errorf("invalid %s %q: %w", flag, kv, err)
		}
		vars[k] = val
	}
	return vars, nil
}
