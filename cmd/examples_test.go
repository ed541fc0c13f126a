package cmd

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
)

// TestEveryLeafCommandHasExamples pins the help that teaches: every command
// a person runs shows 2 to 4 real invocations under Examples, and a comment
// line naming exit codes links the table in docs/exit-codes.md.
func TestEveryLeafCommandHasExamples(t *testing.T) {
	ios, _, _, _ := cli.Test()
	root := NewCmdRoot(&Factory{IO: ios, Getenv: func(string) string { return "" }})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			walk(s)
		}
		if c.HasSubCommands() || !c.IsAvailableCommand() || c.Name() == "help" {
			return
		}
		n := 0
		for _, l := range strings.Split(c.Example, "\n") {
			l = strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(l, "#") && strings.Contains(l, "exit "):
				if !strings.Contains(l, "docs/exit-codes.md") {
					t.Errorf("%s: an exit-code line without docs/exit-codes.md: %q", c.CommandPath(), l)
				}
			case l != "" && !strings.HasPrefix(l, "#") && strings.Contains(l, "tavo "):
				n++
			}
		}
		if n < 2 || n > 4 {
			t.Errorf("%s: %d example invocations, want 2 to 4", c.CommandPath(), n)
		}
	}
	walk(root)
}
