package extensions

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/extensions/mcptest"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// serverEnv, when set, makes the test binary an MCP test server (stdio)
// whose behaviour is the variable's value ("serve", "silent", …).
const serverEnv = "TAVO_MCPTEST_MODE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverEnv); mode != "" {
		var args []string
		if mode != "serve" {
			args = []string{mode}
		}
		os.Exit(mcptest.Main(args))
	}
	// A test binary built with -cover warns on stderr at exit when it has
	// nowhere to write its counters, and the tests read the server's
	// stderr tail: give the servers a folder of their own.
	dir, err := os.MkdirTemp("", "tavo-mcptest-cover-")
	if err != nil {
		panic(err)
	}
	childCoverDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// childCoverDir is GOCOVERDIR for the test binary run as a server.
var childCoverDir string

// stdioServer is the config of the test binary as a stdio server.
func stdioServer(mode string) *config.MCPServer {
	return &config.MCPServer{Command: []string{os.Args[0]}, Env: map[string]string{serverEnv: mode, "GOCOVERDIR": childCoverDir}}
}

// testEnv is a fake environment with a provider key that must never reach
// an extension process.
func testEnv(extra ...string) func(string) string {
	vars := map[string]string{
		"PATH":           os.Getenv("PATH"),
		"HOME":           "/home/test",
		"OPENAI_API_KEY": "sk-secret-never-leak",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		vars[extra[i]] = extra[i+1]
	}
	return func(k string) string { return vars[k] }
}

// script writes an executable sh script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tool.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// call runs one call through an Executor, as a run would, and returns the
// outcome.
func call(t *testing.T, cat *tools.Catalog, name, args string, timeout time.Duration) tools.Outcome {
	t.Helper()
	x := &tools.Executor{Catalog: cat, Timeout: timeout, Budget: tools.NewBudget(tools.MaxResultBytes, tools.MaxRunResultBytes)}
	env := &tools.Env{RunID: "run_test", SessionID: "ses_test", Catalog: cat}
	return x.Execute(context.Background(), env, providers.ToolCall{ID: "call_1", Name: name, Arguments: args})
}

// mustCatalog builds a catalog of ts.
func mustCatalog(t *testing.T, ts ...tools.Tool) *tools.Catalog {
	t.Helper()
	cat, err := tools.NewCatalog(ts...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// wantError checks that an outcome failed with code and a message holding
// every one of parts.
func wantError(t *testing.T, out tools.Outcome, code string, parts ...string) {
	t.Helper()
	if out.OK || out.Err == nil {
		t.Fatalf("want %s error, got ok: %s", code, out.Envelope)
	}
	if out.Err.Code != code {
		t.Fatalf("want code %s, got %s: %s", code, out.Err.Code, out.Err.Message)
	}
	for _, p := range parts {
		if !strings.Contains(out.Err.Message, p) {
			t.Errorf("message %q does not contain %q", out.Err.Message, p)
		}
	}
}

// resultText is an ok outcome's result as a string (JSON for a structured
// one).
func resultText(t *testing.T, out tools.Outcome) string {
	t.Helper()
	if !out.OK {
		t.Fatalf("want ok, got %s", out.Envelope)
	}
	switch v := out.Result.(type) {
	case string:
		return v
	case json.RawMessage:
		return string(v)
	}
	b, _ := json.Marshal(out.Result)
	return string(b)
}
