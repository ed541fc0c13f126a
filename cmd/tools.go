package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func newCmdTools(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "tools",
		Short: "List, inspect, search and call tools",
	}
	c.AddCommand(newCmdToolsList(f), newCmdToolsShow(f), newCmdToolsSearch(f), newCmdToolsCall(f))
	return c
}

func newCmdToolsList(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the tools a run may use",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cat, err := builtinCatalog(f, nil)
			if err != nil {
				return err
			}
			return printSpecs(f, cat.Specs())
		},
	}
}

func printSpecs(f *Factory, specs []tools.Spec) error {
	format, err := cli.ResolveFormat(f.Output, f.IO, cli.FormatText)
	if err != nil {
		return usageError(err)
	}
	if format != cli.FormatText || f.JQ != "" {
		return printJSON(f, specs)
	}
	t := cli.NewTable(f.IO, "NAME", "ID", "SOURCE", "RESIDENT", "DESCRIPTION")
	for _, s := range specs {
		resident := "no"
		if s.Resident {
			resident = "yes"
		}
		t.AddRow(s.Name, s.ID, string(s.Source), resident, firstSentence(s.Description))
	}
	return t.Render()
}

// printJSON prints v as JSON, through --jq when given.
func printJSON(f *Factory, v any) error {
	if f.JQ != "" {
		jq, err := cli.NewJQ(f.JQ)
		if err != nil {
			return usageError(err)
		}
		var doc any
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return err
		}
		return jq.Apply(f.IO.Out, doc)
	}
	return cli.WriteJSON(f.IO.Out, v, f.IO.IsStdoutTTY())
}

func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return clip(s, 100)
}

func newCmdToolsShow(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Show a tool's description and argument schema",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cat, err := builtinCatalog(f, nil)
			if err != nil {
				return err
			}
			t, ok := cat.Get(args[0])
			if !ok {
				return usageError(fmt.Errorf("unknown tool %q (see `tavo tools list`)", args[0]))
			}
			s := t.Spec()
			format, err := cli.ResolveFormat(f.Output, f.IO, cli.FormatText)
			if err != nil {
				return usageError(err)
			}
			if format != cli.FormatText || f.JQ != "" {
				return printJSON(f, s)
			}
			out := f.IO.Out
			fmt.Fprintf(out, "name:        %s\nid:          %s\nsource:      %s\nresident:    %v\nconfirm:     %v\n\n%s\n\narguments schema:\n",
				s.Name, s.ID, s.Source, s.Resident, s.NeedsConfirm, s.Description)
			return cli.WriteJSON(out, json.RawMessage(s.Parameters), true)
		},
	}
}

func newCmdToolsSearch(f *Factory) *cobra.Command {
	var limit int
	c := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search tools by name and description, as tavo_tool_search does",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 1 || limit > 20 {
				return usageError(fmt.Errorf("--limit must be 1-20, got %d", limit))
			}
			cat, err := builtinCatalog(f, nil)
			if err != nil {
				return err
			}
			return printSpecs(f, cat.Search(strings.Join(args, " "), limit, nil))
		},
	}
	c.Flags().IntVarP(&limit, "limit", "n", 5, "most matches (1-20)")
	return c
}

func newCmdToolsCall(f *Factory) *cobra.Command {
	var argsJSON string
	var timeout time.Duration
	var ask string
	c := &cobra.Command{
		Use:   "call NAME [--args JSON]",
		Short: "Run one tool and print its result envelope",
		Long: `Run one tool with JSON arguments, from --args or standard input, and print the
envelope the model would get: {"ok":true,"result":…} or {"ok":false,"error":…}.
Exit status 0 when ok, 1 when the tool failed, 2 on a usage error.`,
		Example: `  tavo tools call tavo_tool_search --args '{"query":"files"}'
  echo '{"question":"Which scope?","options":["chat","global"]}' | tavo tools call tavo_ask_user`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			mode, err := runner.ParseAskMode(ask)
			if err != nil {
				return usageError(err)
			}
			raw := argsJSON
			stdinUsed := false
			if !cmd.Flags().Changed("args") {
				if f.IO.IsStdinTTY() {
					raw = "{}"
				} else {
					b, err := io.ReadAll(io.LimitReader(f.IO.In, 16<<20))
					if err != nil {
						return fmt.Errorf("reading arguments from stdin: %w", err)
					}
					raw, stdinUsed = string(b), true
				}
			}
			cat, err := builtinCatalog(f, nil)
			if err != nil {
				return err
			}
			if _, ok := cat.Get(args[0]); !ok {
				return usageError(fmt.Errorf("unknown tool %q (see `tavo tools list`)", args[0]))
			}
			src := runner.AskSources{}
			if f.IO.IsStdinTTY() || f.IO.IsStderrTTY() {
				src.Terminal = f.IO.OpenTerminal
			}
			if !stdinUsed && !f.IO.IsStdinTTY() {
				src.Stdin = f.IO.In
			}
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			now := time.Now()
			env := &tools.Env{
				RunID:     ids.New("run", now),
				SessionID: ids.New("ses", now),
				Asker:     runner.NewAsker(mode, src),
				Catalog:   cat,
				Emit: func(t string, p any) {
					if f.Verbose {
						b, _ := json.Marshal(p)
						fmt.Fprintf(f.IO.ErrOut, "tavo: %s %s\n", t, b)
					}
				},
			}
			x := &tools.Executor{Catalog: cat, Timeout: timeout, Budget: tools.NewBudget(tools.MaxResultBytes, tools.MaxRunResultBytes)}
			out := x.Execute(ctx, env, providers.ToolCall{ID: "call_cli", Name: args[0], Arguments: raw})
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
		},
	}
	c.Flags().StringVar(&argsJSON, "args", "", "arguments as a JSON object (default: read from stdin, or {} on a terminal)")
	c.Flags().DurationVar(&timeout, "timeout", runner.DefaultToolTimeout, "timeout of the call")
	c.Flags().StringVar(&ask, "ask", "auto", "where tavo_ask_user answers come from: auto|tty|stdin|cancel|fail")
	return c
}

func printEnvelope(f *Factory, envelope string) error {
	var doc any
	if err := json.Unmarshal([]byte(envelope), &doc); err != nil {
		return errors.New("the tool produced an invalid envelope")
	}
	return printJSON(f, doc)
}
