package extensions

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func commandTool(t *testing.T, c *config.CommandTool, getenv func(string) string) *CommandTool {
	t.Helper()
	ct, err := NewCommandTool("demo", c, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if err := tools.CheckTool(ct); err != nil {
		t.Fatal(err)
	}
	return ct
}

func TestCommandToolSpec(t *testing.T) {
	ct := commandTool(t, &config.CommandTool{
		Command: []string{"cat"}, Confirm: true, DisplayName: "Demo tool", Description: "Echo the arguments.",
	}, testEnv())
	s := ct.Spec()
	if s.Name != "demo" || s.ID != "extension/command:demo" || s.Source != tools.SourceCommand || !s.NeedsConfirm ||
		s.DisplayName != "Demo tool" || s.Resident || string(s.Parameters) != `{"type":"object"}` {
		t.Fatalf("spec = %+v", s)
	}
	if ct.Timeout() != DefaultCommandTimeout {
		t.Errorf("default timeout = %v", ct.Timeout())
	}
	if _, err := NewCommandTool("x", &config.CommandTool{Command: []string{"cat"}, Timeout: "soon"}, nil); err == nil {
		t.Error("a bad timeout was accepted")
	}
	if _, err := NewCommandTool("x", &config.CommandTool{Command: []string{"cat"}, Schema: "{"}, nil); err == nil {
		t.Error("a bad schema was accepted")
	}
}

func TestCommandToolResults(t *testing.T) {
	cases := []struct {
		name, body, args, want string
	}{
		{"json stdout is structured", "cat", `{"n":1}`, `{"n":1}`},
		{"text stdout is text", "echo '  hello world  '", `{}`, "hello world"},
		{"json-looking text stays text", "echo '{oops'", `{}`, "{oops"},
		{"garbage becomes valid text", `printf 'bad \377\376 bytes\000'`, `{}`, "bad \uFFFD bytes\x00"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cat := mustCatalog(t, commandTool(t, &config.CommandTool{Command: []string{script(t, tc.body)}}, testEnv()))
			out := call(t, cat, "demo", tc.args, 0)
			if got := resultText(t, out); got != tc.want {
				t.Fatalf("result = %q, want %q", got, tc.want)
			}
			if _, structured := out.Result.(json.RawMessage); structured != strings.HasPrefix(tc.want, "{\"") {
				t.Errorf("structured = %v for %q", structured, tc.want)
			}
		})
	}
}

func TestCommandToolGetsArgumentsOnStdinAndCallEnv(t *testing.T) {
	body := `read line; printf '{"stdin":%s,"run":"%s","call":"%s"}' "$line" "$TAVO_RUN_ID" "$TAVO_CALL_ID"`
	cat := mustCatalog(t, commandTool(t, &config.CommandTool{Command: []string{script(t, body)}}, testEnv()))
	got := resultText(t, call(t, cat, "demo", `{"q":"x y"}`, 0))
	if got != `{"stdin":{"q":"x y"},"run":"run_test","call":"call_1"}` {
		t.Fatalf("result = %s", got)
	}
}

func TestCommandToolNonZeroExit(t *testing.T) {
	body := `i=0; while [ $i -lt 300 ]; do echo "noise line $i" >&2; i=$((i+1)); done; echo "fatal: the disk is full" >&2; exit 7`
	cat := mustCatalog(t, commandTool(t, &config.CommandTool{Command: []string{script(t, body)}}, testEnv()))
	out := call(t, cat, "demo", `{}`, 0)
	wantError(t, out, tools.CodeUpstreamError, "exited with status 7", "fatal: the disk is full")
	if strings.Contains(out.Err.Message, "noise line 0\n") || len(out.Err.Message) > 3<<10 {
		t.Errorf("the message is not the tail of stderr (%d bytes)", len(out.Err.Message))
	}
	if out.Err.Details["exitCode"] != 7 {
		t.Errorf("details = %v", out.Err.Details)
	}
}

func TestCommandToolNotFound(t *testing.T) {
	cat := mustCatalog(t, commandTool(t, &config.CommandTool{Command: []string{"/nonexistent/tavo-tool"}}, testEnv()))
	out := call(t, cat, "demo", `{}`, 0)
	wantError(t, out, tools.CodeUpstreamError, `"tavo-tool" could not be started`)
	if strings.Contains(out.Err.Message, "/nonexistent") {
		t.Errorf("the message shows a path: %s", out.Err.Message)
	}
}

// TestCommandToolTimeoutKillsGroup runs a command that starts a background
// child and never exits: the call times out, says the result is unknown,
// and both processes are gone.
func TestCommandToolTimeoutKillsGroup(t *testing.T) {
	for _, who := range []string{"tool timeout", "executor timeout"} {
		t.Run(who, func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			body := `sleep 600 & echo $! > ` + pids + `; echo $$ >> ` + pids + `; while :; do sleep 1; done`
			c := &config.CommandTool{Command: []string{script(t, body)}, Timeout: "1s"}
			timeout := time.Minute
			if who == "executor timeout" {
				c.Timeout, timeout = "1h", time.Second
			}
			cat := mustCatalog(t, commandTool(t, c, testEnv()))
			out := call(t, cat, "demo", `{}`, timeout)
			wantError(t, out, tools.CodeTimeout, "result is unknown", "not re-run")
			for _, pid := range readPIDs(t, pids) {
				waitGone(t, pid)
			}
		})
	}
}

func TestCommandToolFloodsStdout(t *testing.T) {
	body := `head -c 17000000 /dev/zero | tr '\000' a`
	ct := commandTool(t, &config.CommandTool{Command: []string{script(t, body)}}, testEnv())
	v, err := ct.Run(context.Background(), &tools.Call{Args: []byte(`{}`), Env: &tools.Env{}})
	if err != nil {
		t.Fatal(err)
	}
	s := v.(string)
	if !strings.HasPrefix(s, strings.Repeat("a", MaxStdout)) || !strings.Contains(s, "output truncated: the command wrote 17000000 bytes") {
		t.Fatalf("result of %d bytes ends with %q", len(s), s[len(s)-100:])
	}
	// Through the executor the result is archived and a first page shown.
	out := call(t, mustCatalog(t, ct), "demo", `{}`, 0)
	if !out.OK || !out.Truncated || out.Bytes > tools.MaxResultBytes {
		t.Fatalf("ok=%v truncated=%v bytes=%d", out.OK, out.Truncated, out.Bytes)
	}
}

func TestCommandToolEnvironmentIsExplicit(t *testing.T) {
	c := &config.CommandTool{
		Command: []string{script(t, "env")},
		Env:     map[string]string{"TOKEN": "${MY_TOKEN}-x", "PRICE": "$$5", "HOME": "/elsewhere"},
	}
	ct := commandTool(t, c, testEnv("MY_TOKEN", "t0k", "LANG", "C.UTF-8", "AWS_SECRET_ACCESS_KEY", "aws"))
	got := resultText(t, call(t, mustCatalog(t, ct), "demo", `{}`, 0))
	for _, want := range []string{"TOKEN=t0k-x", "PRICE=$5", "HOME=/elsewhere", "LANG=C.UTF-8", "TAVO_RUN_ID=run_test"} {
		if !strings.Contains(got, want+"\n") && !strings.HasSuffix(got, want) {
			t.Errorf("env lacks %s:\n%s", want, got)
		}
	}
	for _, leak := range []string{"sk-secret-never-leak", "OPENAI_API_KEY", "aws", "/home/test"} {
		if strings.Contains(got, leak) {
			t.Errorf("env leaks %q:\n%s", leak, got)
		}
	}
}

func TestCommandToolCancelled(t *testing.T) {
	ct := commandTool(t, &config.CommandTool{Command: []string{script(t, "sleep 600")}}, testEnv())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ct.Run(ctx, &tools.Call{Args: []byte(`{}`), Env: &tools.Env{}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func readPIDs(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	if len(pids) != 2 {
		t.Fatalf("pids = %v", pids)
	}
	return pids
}

// waitGone waits until pid no longer runs (gone, or a zombie nobody reaped
// yet), failing after a generous deadline.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs: %s", pid, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
