package cmd

import "github.com/spf13/cobra"

// subcommands lists tavo's top-level commands.
func subcommands(f *Factory) []*cobra.Command {
	return []*cobra.Command{
		NewCmdProfile(f),
		newCmdRun(f),
		newCmdTools(f),
		newCmdSearch(f),
		newCmdFetch(f),
		newCmdSession(f),
		newCmdRuns(f),
		newCmdLogs(f),
		newCmdSearchAPI(f),
		NewCmdFile(f),
		newCmdMemory(f),
		newCmdVar(f),
		newCmdVersion(f),
	}
}
