package mcptest

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Main runs the test server over stdin/stdout, as a re-executed test binary
// does, and returns the exit status. The first argument picks a behaviour:
//
//	(none)    serve the tools until stdin closes; Crash exits with status 3
//	silent    read stdin and never answer
//	garbage   answer every line with bytes that are not JSON-RPC
//	exit      write "fatal: no config" to stderr and exit 1 at once
//	env       serve, with the tool "env" returning the environment
func Main(args []string) int {
	mode := ""
	if len(args) > 0 {
		mode = args[0]
	}
	switch mode {
	case "silent":
		_, _ = io.Copy(io.Discard, os.Stdin)
		return 0
	case "garbage":
		buf := make([]byte, 4096)
		for {
			if _, err := os.Stdin.Read(buf); err != nil {
				return 0
			}
			fmt.Fprintln(os.Stdout, "\x00\xffnot json at all {{{")
		}
	case "exit":
		fmt.Fprintln(os.Stderr, "fatal: no config")
		return 1
	}
	s := NewServer(func() {
		fmt.Fprintln(os.Stderr, "panic: crashing on purpose")
		os.Exit(3)
	})
	if mode == "env" {
		s.AddTool(&mcp.Tool{Name: "env", Description: "Show the environment.", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text(strings.Join(os.Environ(), "\n")), nil
			})
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcptest:", err)
		return 1
	}
	return 0
}
