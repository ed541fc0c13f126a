package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// NewCmdTools builds `tavo tools` and its subcommands.
func NewCmdTools(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "tools",
		Short: "List, inspect, search and call tools",
	}
	c.AddCommand(NewCmdToolsList(f, nil), NewCmdToolsShow(f, nil), NewCmdToolsSearch(f, nil), NewCmdToolsCall(f, nil))
	return c
}

// ToolsListOptions are the inputs of `tavo tools list`.
type ToolsListOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Context adds what the first request of a run carries.
	Context bool
	Dynamic bool
}

// NewCmdToolsList builds `tavo tools list`; runF, when not nil, runs
// instead of toolsListRun (for tests).
func NewCmdToolsList(f *Factory, runF func(*ToolsListOptions) error) *cobra.Command {
	opts := &ToolsListOptions{Factory: f}
	c := &cobra.Command{
		Use:   "list",
		Short: "List the tools a run may use: built-in, command and MCP tools",
		Long: `List every tool a run may use, with its model name, stable ID and source:
builtin, command ([tools.NAME] in the config) or mcp ([mcp.NAME]; the servers are
started or reached to list their tools, and one that cannot be is reported on
stderr). -o json prints each tool's full spec, argument schema included.

--context also shows what the first request of a run carries: which tools
(FIRST) and the approximate size of each definition in bytes (BYTES: its name,
description and schema as JSON), with the total on stderr. Under dynamic loading
(the default) that is tool search, the resident tools and, when extension tools
exist, extension_tool_search; with --dynamic-tools=false it is every tool.
-o json --context adds "first_request" and "bytes" to each tool.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			return runOr(runF, toolsListRun, opts)
		},
		Example: `  tavo tools list
  tavo tools list --context
  tavo tools list -o json --jq '.[].name'`,
	}
	c.Flags().BoolVar(&opts.Context, "context", false, "also show what the first request of a run carries")
	c.Flags().BoolVar(&opts.Dynamic, "dynamic-tools", true, "with --context: the first request under dynamic loading")
	return c
}

func toolsListRun(opts *ToolsListOptions) error {
	f := opts.Factory
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	var cat *tools.Catalog
	var err error
	if opts.Context && !opts.Dynamic {
		cat, err = runCatalog(ctx, f, nil, true, false)
	} else {
		cat, err = fullCatalog(ctx, f)
	}
	if err != nil {
		return err
	}
	if !opts.Context {
		return printSpecs(f, cat.Specs())
	}
	return printContext(f, cat.Specs(), opts.Dynamic)
}

func printSpecs(f *Factory, specs []tools.Spec) error {
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	if out.Structured() {
		return cli.WriteList(out, specs)
	}
	t := cli.NewTable(f.IO, "NAME", "ID", "SOURCE", "RESIDENT", "CONFIRM", "DESCRIPTION")
	for _, s := range specs {
		t.AddRow(s.Name, s.ID, string(s.Source), yesNo(s.Resident), yesNo(s.NeedsConfirm), firstSentence(s.Description))
	}
	return t.Render()
}

// contextSpec is a tool with what it costs the first request of a run.
type contextSpec struct {
	tools.Spec
	// FirstRequest says whether the first request carries the tool.
	FirstRequest bool `json:"first_request"`
	// Bytes is the approximate size of its definition in a request.
	Bytes int `json:"bytes"`
}

// printContext lists specs with whether the first request of a run carries
// them and their approximate size, and the total on stderr.
func printContext(f *Factory, specs []tools.Spec, dynamic bool) error {
	rows := make([]contextSpec, len(specs))
	count, total := 0, 0
	for i, s := range specs {
		def, _ := json.Marshal(providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
		first := !dynamic || s.Resident
		rows[i] = contextSpec{Spec: s, FirstRequest: first, Bytes: len(def)}
		if first {
			count++
			total += len(def)
		}
	}
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	if out.Structured() {
		return cli.WriteList(out, rows)
	}
	t := cli.NewTable(f.IO, "NAME", "ID", "SOURCE", "RESIDENT", "CONFIRM", "FIRST", "BYTES", "DESCRIPTION")
	for _, r := range rows {
		t.AddRow(r.Name, r.ID, string(r.Source), yesNo(r.Resident), yesNo(r.NeedsConfirm), yesNo(r.FirstRequest),
			strconv.Itoa(r.Bytes), firstSentence(r.Description))
	}
	if err := t.Render(); err != nil {
		return err
	}
	if !f.Quiet {
		mode := "dynamic loading"
		if !dynamic {
			mode = "dynamic loading off"
		}
		fmt.Fprintf(f.IO.ErrOut, "first request (%s): %d of %d tools, about %d bytes of tool definitions\n", mode, count, len(rows), total)
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// findTool returns a catalog holding the tool nameOrRef names (its model
// name or stable ID) and the tool's spec. MCP servers are connected only
// when the tool is not a built-in or command tool, and only the one an
// mcp/SERVER:TOOL ID names.
func findTool(ctx context.Context, f *Factory, nameOrID string) (*tools.Catalog, tools.Spec, error) {
	cat, err := builtinCatalog(f, nil)
	if err != nil {
		return nil, tools.Spec{}, err
	}
	if s, ok := lookupTool(cat, nameOrID); ok {
		return cat, s, nil
	}
	var servers []string
	if rest, ok := strings.CutPrefix(nameOrID, "mcp/"); ok {
		server, _, _ := strings.Cut(rest, ":")
		servers = []string{server}
	}
	if cat, err = fullCatalog(ctx, f, servers...); err != nil {
		return nil, tools.Spec{}, err
	}
	if s, ok := lookupTool(cat, nameOrID); ok {
		return cat, s, nil
	}
	return nil, tools.Spec{}, usageError(fmt.Errorf("unknown tool %q (see `tavo tools list`)", nameOrID))
}

// lookupTool finds a tool by model name, then by stable ID.
func lookupTool(cat *tools.Catalog, nameOrID string) (tools.Spec, bool) {
	if s, ok := cat.SpecOf(nameOrID); ok {
		return s, true
	}
	for _, s := range cat.Specs() {
		if s.ID == nameOrID {
			return s, true
		}
	}
	return tools.Spec{}, false
}

func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return clip(s, 72)
}

// ToolsShowOptions are the inputs of `tavo tools show`.
type ToolsShowOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Tool is a model name or a stable ID.
	Tool string
}

// NewCmdToolsShow builds `tavo tools show`; runF, when not nil, runs
// instead of toolsShowRun (for tests).
func NewCmdToolsShow(f *Factory, runF func(*ToolsShowOptions) error) *cobra.Command {
	opts := &ToolsShowOptions{Factory: f}
	return &cobra.Command{
		Use:   "show NAME|ID",
		Short: "Show a tool's description and argument schema",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Tool = cmd.Context(), args[0]
			return runOr(runF, toolsShowRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeTools(f)),
		Example: `  tavo tools show tavo_web_fetch
  tavo tools show tavo_file_save -o json --jq .parameters`,
	}
}

func toolsShowRun(opts *ToolsShowOptions) error {
	f := opts.Factory
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	_, s, err := findTool(ctx, f, opts.Tool)
	if err != nil {
		return err
	}
	format, err := cli.ResolveFormat(f.Output, f.IO, cli.FormatText)
	if err != nil {
		return usageError(err)
	}
	if format != cli.FormatText || f.JQ != "" {
		return printJSON(f, s)
	}
	out := f.IO.Out
	fmt.Fprintf(out, "name:        %s\nid:          %s\nsource:      %s\nresident:    %v\nconfirm:     %v\n",
		s.Name, s.ID, s.Source, s.Resident, s.NeedsConfirm)
	if s.DisplayName != "" {
		fmt.Fprintf(out, "display:     %s\n", s.DisplayName)
	}
	fmt.Fprintf(out, "\n%s\n\narguments schema:\n", s.Description)
	return cli.WriteJSON(out, json.RawMessage(s.Parameters), true)
}

// ToolsSearchOptions are the inputs of `tavo tools search`.
type ToolsSearchOptions struct {
	Factory *Factory
	Ctx     context.Context
	Query   string
	Limit   int
}

// NewCmdToolsSearch builds `tavo tools search`; runF, when not nil, runs
// instead of toolsSearchRun (for tests).
func NewCmdToolsSearch(f *Factory, runF func(*ToolsSearchOptions) error) *cobra.Command {
	opts := &ToolsSearchOptions{Factory: f}
	c := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search built-in, command and MCP tools by name and description",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Query = cmd.Context(), strings.Join(args, " ")
			return runOr(runF, toolsSearchRun, opts)
		},
		Example: `  tavo tools search "read a web page"
  tavo tools search files -n 3 -o json`,
	}
	c.Flags().IntVarP(&opts.Limit, "limit", "n", 5, "most matches (1-20)")
	return c
}

func toolsSearchRun(opts *ToolsSearchOptions) error {
	if err := checkLimit(opts.Limit, 20); err != nil {
		return err
	}
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	cat, err := fullCatalog(ctx, opts.Factory)
	if err != nil {
		return err
	}
	return printSpecs(opts.Factory, cat.Search(opts.Query, opts.Limit, nil))
}

// ToolsCallOptions are the inputs of `tavo tools call`.
type ToolsCallOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Tool is a model name or a stable ID.
	Tool string
	// Args is the JSON arguments; ArgsSet false reads them from stdin.
	Args    string
	ArgsSet bool
	Timeout time.Duration
	Ask     string
	Yes     bool
}

// NewCmdToolsCall builds `tavo tools call`; runF, when not nil, runs
// instead of toolsCallRun (for tests).
func NewCmdToolsCall(f *Factory, runF func(*ToolsCallOptions) error) *cobra.Command {
	opts := &ToolsCallOptions{Factory: f}
	c := &cobra.Command{
		Use:   "call NAME|ID [--args JSON]",
		Short: "Run one tool and print its result envelope",
		Long: `Run one tool with JSON arguments, from --args or standard input, and print the
envelope the model would get: {"ok":true,"result":…} or {"ok":false,"error":…}.
NAME is a model name or a stable ID (extension/command:NAME, mcp/SERVER:TOOL).
A tool that needs confirmation asks on the terminal; --yes allows it, and
without a terminal it is denied (permission_denied).
Exit status 0 when ok, 1 when the tool failed, 2 on a usage error.`,
		Example: `  tavo tools call tavo_tool_search --args '{"query":"files"}'
  echo '{"question":"Which scope?","options":["chat","global"]}' | tavo tools call tavo_ask_user`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Tool, opts.ArgsSet = cmd.Context(), args[0], cmd.Flags().Changed("args")
			return runOr(runF, toolsCallRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeTools(f)),
	}
	c.Flags().StringVar(&opts.Args, "args", "", "arguments as a JSON object (default: read from stdin, or {} on a terminal)")
	c.Flags().DurationVar(&opts.Timeout, "timeout", config.DefaultToolTimeout, "timeout of the call")
	c.Flags().StringVar(&opts.Ask, "ask", "auto", "where tavo_ask_user answers come from: auto|tty|stdin|cancel|fail")
	_ = c.RegisterFlagCompletionFunc("ask", completeAsk)
	c.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "allow a tool that asks for confirmation")
	return c
}

func toolsCallRun(opts *ToolsCallOptions) error {
	f := opts.Factory
	mode, err := runner.ParseAskMode(opts.Ask)
	if err != nil {
		return usageError(err)
	}
	// The same range as a run's --tool-timeout, under this command's name.
	if err := checkRange(config.Range[time.Duration]{Flag: "--timeout", Min: config.ToolTimeoutRange.Min, Max: config.ToolTimeoutRange.Max}, opts.Timeout); err != nil {
		return err
	}
	raw := opts.Args
	stdinUsed := false
	if !opts.ArgsSet {
		if f.IO.IsStdinTTY() {
			raw = "{}"
		} else {
			b, err := io.ReadAll(io.LimitReader(f.IO.In, 16<<20))
			if err != nil {
				return failedError(fmt.Errorf("reading arguments from stdin: %w", err))
			}
			raw, stdinUsed = string(b), true
		}
	}
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	cat, spec, err := findTool(ctx, f, opts.Tool)
	if err != nil {
		return err
	}
	src := runner.AskSources{}
	if f.IO.IsStdinTTY() || f.IO.IsStderrTTY() {
		src.Terminal = f.IO.OpenTerminal
	}
	if !stdinUsed && !f.IO.IsStdinTTY() {
		src.Stdin = f.IO.In
	}
	now := time.Now()
	env := &tools.Env{
		RunID:     ids.New("run", now),
		SessionID: ids.New("ses", now),
		Asker:     runner.NewAsker(mode, src),
		Confirmer: runner.NewConfirmer(opts.Yes, runner.AskSources{Terminal: src.Terminal}),
		Catalog:   cat,
		Emit: func(t string, p any) {
			if f.Verbose {
				b, _ := json.Marshal(p)
				fmt.Fprintf(f.IO.ErrOut, "tavo: %s %s\n", t, b)
			}
		},
	}
	x := &tools.Executor{Catalog: cat, Timeout: opts.Timeout, Budget: tools.NewBudget(tools.MaxResultBytes, tools.MaxRunResultBytes)}
	out := x.Execute(ctx, env, providers.ToolCall{ID: "call_cli", Name: spec.Name, Arguments: raw})
	if err := printEnvelope(f, out.Envelope); err != nil {
		return err
	}
	switch {
	case out.InputRequired:
		return silentExit(events.ExitInputRequired)
	case !out.OK:
		return silentExit(events.ExitFailed)
	}
	return nil
}

func printEnvelope(f *Factory, envelope string) error {
	var doc any
	if err := json.Unmarshal([]byte(envelope), &doc); err != nil {
		return failedError(errors.New("the tool produced an invalid envelope"))
	}
	return printJSON(f, doc)
}
