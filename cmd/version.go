package cmd

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
)

// VersionOptions are the inputs of `tavo version`.
type VersionOptions struct {
	Factory *Factory
}

// NewCmdVersion builds `tavo version`; runF, when not nil, runs instead of
// versionRun (for tests). It reads no config and opens no store.
func NewCmdVersion(f *Factory, runF func(*VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{Factory: f}
	return &cobra.Command{
		Use:   "version",
		Short: "Print tavo's version",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return runOr(runF, versionRun, opts) },
		Example: `  tavo version
  tavo version -o json`,
	}
}

func versionRun(opts *VersionOptions) error {
	f := opts.Factory
	info := map[string]string{"version": Version, "go": runtime.Version(), "os": runtime.GOOS, "arch": runtime.GOARCH}
	format, err := cli.ResolveFormat(f.Output, f.IO, cli.FormatText)
	if err != nil {
		return usageError(err)
	}
	if format != cli.FormatText || f.JQ != "" {
		return printJSON(f, info)
	}
	_, err = fmt.Fprintf(f.IO.Out, "tavo %s (%s %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
