// Package cmd holds tavo's Cobra commands. Commands are thin: flags become an
// options struct, one call goes into pkg/, and the result is printed.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
)

// Version is set at build time with -ldflags "-X github.com/tavo-cli/tavo/cmd.Version=…".
var Version = "dev"

// Execute runs the root command with the process's streams and environment
// and returns the exit code.
func Execute() int {
	f := &Factory{IO: cli.System(), Getenv: os.Getenv}
	// With SIGPIPE caught, a write to a pipe whose reader went away fails
	// with EPIPE instead of killing the process, so a run can still record
	// its run.completed and exit as closedPipeExit says. Caught rather than
	// ignored: an ignored signal would stay ignored in the tools tavo starts.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	return ExecuteWith(context.Background(), f, os.Args[1:])
}

// ExecuteWith runs tavo with the given factory and arguments.
func ExecuteWith(ctx context.Context, f *Factory, args []string) int {
	root := NewCmdRoot(f)
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)

	err := root.ExecuteContext(ctx)
	f.runCleanup()
	if code, ok := outputExit(f, err); ok {
		return code
	}
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			printError(f, ee.Err)
		}
		return ee.Code
	}
	printError(f, err)
	// Cobra's own flag and argument errors are usage errors.
	return 2
}

func printError(f *Factory, err error) {
	msg := strings.TrimSpace(err.Error())
	// One actionable line: collapse anything multi-line a library produced.
	msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " ")), " ")
	fmt.Fprintf(f.IO.ErrOut, "tavo: %s\n", msg)
}

// NewCmdRoot builds the command tree.
func NewCmdRoot(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "tavo",
		Short: "Run LLM tool-calling loops headlessly, for scripts",
		Long: `tavo runs a model loop once — prompt in, tools called, final answer out — and
streams NDJSON events a program can read line by line. Whatever a model can do
through a tool, a person can do through a subcommand.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.SetVersionTemplate("tavo {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringVar(&f.ConfigPath, "config", "", "config file (env TAVO_CONFIG; default $XDG_CONFIG_HOME/tavo/config.toml)")
	pf.StringVar(&f.DataDir, "data-dir", "", "data directory (env TAVO_DATA_DIR; default $XDG_DATA_HOME/tavo)")
	pf.StringVarP(&f.Output, "output", "o", "", "output format: text|json|ndjson (default: text on a terminal, else the command's pipe format)")
	_ = root.RegisterFlagCompletionFunc("output", completeOutput)
	pf.StringVar(&f.JQ, "jq", "", "filter JSON output with a jq expression")
	pf.BoolVarP(&f.Quiet, "quiet", "q", false, "print less")
	pf.BoolVarP(&f.Verbose, "verbose", "v", false, "print diagnostics to stderr")
	// -v: every HTTP request of the command is printed (cmd/verbose.go).
	root.PersistentPreRun = func(c *cobra.Command, _ []string) { c.SetContext(verboseContext(c.Context(), f)) }
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError(err) })

	for _, c := range subcommands(f) {
		root.AddCommand(c)
	}
	root.SetUsageTemplate(groupUsageTemplate(root.UsageTemplate()))
	rejectUnknownSubcommands(root)
	return root
}

// signalContext returns a context cancelled on SIGINT, SIGTERM or SIGHUP,
// with a runner.StopCause naming the signal and its exit code as the cause.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case s := <-ch:
			cancel(stopCauseFor(s))
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}
