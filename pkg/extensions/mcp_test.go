package extensions

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/extensions/mcptest"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// transports runs f once over stdio (the test binary as a server) and once
// over streamable HTTP (an in-process server).
func transports(t *testing.T, f func(t *testing.T, srv *config.MCPServer)) {
	t.Run("stdio", func(t *testing.T) { f(t, stdioServer("serve")) })
	t.Run("http", func(t *testing.T) {
		h := mcptest.NewHTTPServer("", "")
		t.Cleanup(h.Close)
		f(t, &config.MCPServer{URL: h.URL})
	})
}

// loaded connects srv as server "demo" and returns a catalog of its tools.
func loaded(t *testing.T, srv *config.MCPServer) (*Set, *tools.Catalog) {
	t.Helper()
	set, err := New(&config.Config{MCP: map[string]*config.MCPServer{"demo": srv}}, Options{Getenv: testEnv(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = set.Close() })
	cat := mustCatalog(t)
	if _, failed := set.Load(context.Background(), cat); len(failed) > 0 {
		t.Fatal(failed[0])
	}
	return set, cat
}

func TestMCPListsTools(t *testing.T) {
	transports(t, func(t *testing.T, srv *config.MCPServer) {
		_, cat := loaded(t, srv)
		want := map[string]struct {
			id      string
			confirm bool
		}{
			"demo__echo":                     {"mcp/demo:echo", false},
			"demo__add":                      {"mcp/demo:add", false},
			"demo__delete_item":              {"mcp/demo:delete_item", true},
			"demo__lookup":                   {"mcp/demo:lookup", false},
			ModelName("demo", mcptest.Weird): {"mcp/demo:" + mcptest.Weird, false},
		}
		for name, w := range want {
			s, ok := cat.SpecOf(name)
			if !ok {
				t.Fatalf("no tool %q in %v", name, names(cat))
			}
			if s.ID != w.id || s.NeedsConfirm != w.confirm || s.Source != tools.SourceMCP {
				t.Errorf("%s: %+v", name, s)
			}
		}
		if s, _ := cat.SpecOf("demo__add"); s.DisplayName != "Adder" || !strings.Contains(string(s.Parameters), `"required":["a","b"]`) {
			t.Errorf("add: %+v", s)
		}
		if cat.Len() != 10 {
			t.Errorf("%d tools: %v", cat.Len(), names(cat))
		}
	})
}

func TestMCPCallResults(t *testing.T) {
	transports(t, func(t *testing.T, srv *config.MCPServer) {
		_, cat := loaded(t, srv)
		if got := resultText(t, call(t, cat, "demo__echo", `{"text":"hi"}`, 0)); got != "echo: hi" {
			t.Errorf("echo = %q", got)
		}
		if got := resultText(t, call(t, cat, "demo__add", `{"a":2,"b":3}`, 0)); got != `{"sum":5}` {
			t.Errorf("add = %q", got)
		}
		if got := resultText(t, call(t, cat, "demo__picture", `{}`, 0)); got != "a red dot\n[image image/png, 9 bytes, not shown]" {
			t.Errorf("picture = %q", got)
		}
		wantError(t, call(t, cat, "demo__fail", `{}`, 0), tools.CodeUpstreamError, mcptest.FailMessage)
		// tavo validates arguments before the server sees them.
		wantError(t, call(t, cat, "demo__add", `{"a":"2"}`, 0), tools.CodeInvalidArguments)
		// A result past the budget is cut like any other.
		out := call(t, cat, "demo__big", `{"n":200000}`, 0)
		if !out.OK || !out.Truncated {
			t.Errorf("big: ok=%v truncated=%v", out.OK, out.Truncated)
		}
	})
}

// TestMCPHangingCall: a call that never returns times out with "result
// unknown", and the server still answers the next call.
func TestMCPHangingCall(t *testing.T) {
	transports(t, func(t *testing.T, srv *config.MCPServer) {
		_, cat := loaded(t, srv)
		wantError(t, call(t, cat, "demo__hang", `{}`, 300*time.Millisecond), tools.CodeTimeout, "result is unknown")
		if got := resultText(t, call(t, cat, "demo__echo", `{"text":"still here"}`, 0)); got != "echo: still here" {
			t.Errorf("echo after a hang = %q", got)
		}
	})
}

// TestMCPServerDiesMidCall: a server that dies during a call is an
// upstream_error naming it, not a hung run.
func TestMCPServerDiesMidCall(t *testing.T) {
	transports(t, func(t *testing.T, srv *config.MCPServer) {
		_, cat := loaded(t, srv)
		out := call(t, cat, "demo__crash", `{}`, time.Minute)
		wantError(t, out, tools.CodeUpstreamError, `MCP server "demo"`)
		if srv.URL == "" {
			wantError(t, out, tools.CodeUpstreamError, "stopped during the call", "exit status 3", "crashing on purpose")
			// The dead server is not restarted behind the model's back.
			wantError(t, call(t, cat, "demo__echo", `{"text":"x"}`, time.Minute), tools.CodeUpstreamError, "has stopped")
		}
	})
}

// TestMCPHostileStart: servers that cannot be connected fail with one line
// naming why, within the connect timeout.
func TestMCPHostileStart(t *testing.T) {
	cases := []struct {
		mode string
		want []string
	}{
		{"silent", []string{"did not answer within 500ms"}},
		{"garbage", []string{"connecting failed"}},
		{"exit", []string{"connecting failed", "fatal: no config"}},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			m := NewMCP(map[string]*config.MCPServer{"bad": stdioServer(tc.mode)}, testEnv(), "test")
			if tc.mode == "silent" {
				// Only the silent server needs the limit; the others fail
				// on their own, however slowly the test binary starts.
				m.ConnectTimeout = 500 * time.Millisecond
			}
			defer m.Close()
			_, failed := m.AllTools(context.Background())
			if len(failed) != 1 {
				t.Fatalf("failed = %v", failed)
			}
			msg := failed[0].Error()
			if !strings.HasPrefix(msg, `MCP server "bad": `) || strings.Contains(msg, "\n") {
				t.Errorf("message %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			// The failure sticks: no second start.
			if _, err := m.Tools(context.Background(), "bad"); err == nil || err.Error() != failed[0].Err.Error() {
				t.Errorf("second try: %v", err)
			}
		})
	}
}

func TestMCPMissingCommand(t *testing.T) {
	m := NewMCP(map[string]*config.MCPServer{"gone": {Command: []string{"/nonexistent/mcp-server"}}}, testEnv(), "test")
	defer m.Close()
	if _, err := m.Tools(context.Background(), "gone"); err == nil || !strings.Contains(err.Error(), "connecting failed") {
		t.Fatalf("err = %v", err)
	}
}

func TestMCPHTTPHeaders(t *testing.T) {
	h := mcptest.NewHTTPServer("Authorization", "Bearer s3cret")
	defer h.Close()
	getenv := testEnv("MCP_TOKEN", "s3cret")
	good := NewMCP(map[string]*config.MCPServer{"remote": {URL: h.URL, Headers: map[string]string{"Authorization": "Bearer $MCP_TOKEN"}}}, getenv, "test")
	defer good.Close()
	if ts, err := good.Tools(context.Background(), "remote"); err != nil || len(ts) == 0 {
		t.Fatalf("tools = %d, err = %v", len(ts), err)
	}
	bad := NewMCP(map[string]*config.MCPServer{"remote": {URL: h.URL, Headers: map[string]string{"Authorization": "Bearer wrong"}}}, getenv, "test")
	defer bad.Close()
	if _, err := bad.Tools(context.Background(), "remote"); err == nil || !strings.Contains(err.Error(), "nauthorized") {
		t.Fatalf("err = %v", err)
	}
}

func TestMCPStdioEnvironmentIsExplicit(t *testing.T) {
	srv := stdioServer("env")
	srv.Env["GREETING"] = "hello $USER"
	set, err := New(&config.Config{MCP: map[string]*config.MCPServer{"demo": srv}}, Options{Getenv: testEnv("USER", "ada")})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	cat := mustCatalog(t)
	set.Load(context.Background(), cat)
	got := resultText(t, call(t, cat, "demo__env", `{}`, 0))
	if !strings.Contains(got, "GREETING=hello ada") || strings.Contains(got, "sk-secret-never-leak") {
		t.Fatalf("env:\n%s", got)
	}
}

// TestMCPCloseStopsServers: Close ends the stdio process and later calls
// say the server was shut down.
func TestMCPCloseStopsServers(t *testing.T) {
	set, cat := loaded(t, stdioServer("serve"))
	srv := set.MCP().servers["demo"]
	pid := srv.cmd.Process.Pid
	if err := set.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	wantError(t, call(t, cat, "demo__echo", `{"text":"x"}`, 0), tools.CodeUpstreamError, "shut down")
	if err := set.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

func names(cat *tools.Catalog) []string {
	var ns []string
	for _, s := range cat.Specs() {
		ns = append(ns, fmt.Sprintf("%s(%s)", s.Name, s.ID))
	}
	return ns
}
