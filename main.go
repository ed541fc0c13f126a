// Command tavo runs LLM tool-calling loops headlessly for people who script.
package main

import (
	"os"

	"github.com/tavo-cli/tavo/cmd"
)

func main() {
	os.Exit(cmd.Execute())
}
