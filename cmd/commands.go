package cmd

import "github.com/spf13/cobra"

// subcommands lists tavo's top-level commands.
func subcommands(f *Factory) []*cobra.Command {
	return []*cobra.Command{
		NewCmdProfile(f),
		NewCmdRun(f, nil),
		NewCmdTools(f),
		NewCmdSearch(f, nil),
		NewCmdFetch(f, nil),
		NewCmdSession(f),
		NewCmdRuns(f),
		NewCmdLogs(f),
		NewCmdSearchAPI(f),
		NewCmdFile(f),
		NewCmdMemory(f),
		NewCmdVar(f),
		NewCmdVersion(f, nil),
		NewCmdDoctor(f, nil),
	}
}
