package cmd

import (
	"fmt"
	"strings"

	"github.com/tavo-cli/tavo/pkg/config"

	"github.com/spf13/cobra"
)

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
		NewCmdRead(f, nil),
		NewCmdArtifacts(f, nil),
		NewCmdStore(f),
		NewCmdGoals(f),
		NewCmdLoops(f),
		NewCmdWorker(f, nil),
		NewCmdVersion(f, nil),
		NewCmdDoctor(f, nil),
		NewCmdCompletion(f),
		newHelpTopicEnvironment(),
	}
}

// rejectUnknownSubcommands makes every command group of the tree (root
// included) fail on a word that names none of its subcommands, the way git
// and gh do: `tavo session lst` is a usage error (exit 2) with a
// suggestion, not help and exit 0. A group given no word still prints its
// help. Cobra cannot do this itself: it prints help for any command that has
// no Run before it looks at the arguments.
func rejectUnknownSubcommands(c *cobra.Command) {
	if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		// Cobra's own default, which it applies only when it prints its
		// multi-line message itself.
		c.SuggestionsMinimumDistance = 2
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return c.Help()
			}
			return unknownCommandError(c, args[0])
		}
	}
	for _, sub := range c.Commands() {
		rejectUnknownSubcommands(sub)
	}
}

// unknownCommandError is the one line for a word that is not a subcommand
// of c, with the closest names when some are close.
func unknownCommandError(c *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, c.CommandPath())
	if s := closest(word, c.SuggestionsFor(word)); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", quotedOr(s))
	}
	msg += fmt.Sprintf("; run '%s --help' for its commands", c.CommandPath())
	return usageError(fmt.Errorf("%s", msg))
}

// quotedOr writes names as "a", "b" or "c".
func quotedOr(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// groupUsageTemplate is Cobra's usage template without the "tavo session
// [flags]" line for command groups: rejectUnknownSubcommands makes groups
// runnable only to report unknown words, and a group alone just prints its
// help, so the line would suggest a command that does nothing.
func groupUsageTemplate(t string) string {
	return strings.Replace(t, "Usage:{{if .Runnable}}", "Usage:{{if and .Runnable (not .HasAvailableSubCommands)}}", 1)
}

// closest keeps the names of Cobra's suggestions nearest to word: those it
// begins, else those fewest edits away, so "lst" suggests "ls" and not
// also "get" and "set".
func closest(word string, names []string) []string {
	best, out := -1, []string(nil)
	for _, n := range names {
		d := config.EditDistance(strings.ToLower(word), strings.ToLower(n))
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(word)) {
			d = 0
		}
		switch {
		case best < 0 || d < best:
			best, out = d, []string{n}
		case d == best:
			out = append(out, n)
		}
	}
	return out
}
