package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
)

// runEnv is a config with two profiles on one fake server and a data
// directory, for run functions called without Cobra.
type runEnv struct {
	srv     *fake.Server
	cfgPath string
	dataDir string
}

func newRunEnv(t *testing.T) *runEnv {
	t.Helper()
	dir := t.TempDir()
	e := &runEnv{srv: fake.NewServer(t), cfgPath: filepath.Join(dir, "config.toml"), dataDir: filepath.Join(dir, "data")}
	cfg := fmt.Sprintf(`default_profile = "win"

[profiles.win]
protocol = "openai"
base_url = %[1]q
model = "m"
api_key_env = "K"
context_window = 8000
max_output_tokens = 50

[profiles.nowin]
protocol = "openai"
base_url = %[1]q
model = "m"
api_key_env = "K"
`, e.srv.URL)
	if err := os.WriteFile(e.cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

// factory is a Factory on the env with piped streams and -o output, and
// its stdout.
func (e *runEnv) factory(output string) (*Factory, *bytes.Buffer) {
	ios, _, out, _ := cli.Test()
	f := &Factory{IO: ios, ConfigPath: e.cfgPath, DataDir: e.dataDir, Output: output,
		Getenv: func(k string) string {
			if k == "K" {
				return "sk-test"
			}
			return ""
		}}
	return f, out
}

// lastBody decodes the body of the fake's latest request.
func (e *runEnv) lastBody(t *testing.T) map[string]any {
	t.Helper()
	reqs := e.srv.Requests()
	var body map[string]any
	if err := json.Unmarshal(reqs[len(reqs)-1].Body, &body); err != nil {
		t.Fatal(err)
	}
	return body
}

// TestRunRunWithoutCobra runs `tavo run` through its options alone: the
// prompt words, -o json, and a run setting that Changed says was given,
// which overrides the profile's; with Changed nil the profile's applies.
func TestRunRunWithoutCobra(t *testing.T) {
	e := newRunEnv(t)
	e.srv.Enqueue(fake.Reply{Text: "Hello there."}, fake.Reply{Text: "Again."})
	f, out := e.factory("json")
	o := &RunOptions{Factory: f, Ctx: context.Background(), Args: []string{"say", "hi"},
		MaxOutputTokens: 7, Changed: func(flag string) bool { return flag == "max-output-tokens" }}
	if err := runRun(o); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Text      string `json:"text"`
		SessionID string `json:"session_id"`
		Status    string `json:"status"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("-o json output: %v", err)
	}
	if doc.Text != "Hello there." || doc.Status != events.StatusCompleted || doc.SessionID == "" {
		t.Fatalf("run document %+v", doc)
	}
	body := e.lastBody(t)
	if body["max_completion_tokens"] != float64(7) || !strings.Contains(string(e.srv.Requests()[0].Body), "say hi") {
		t.Fatalf("request body %v", body)
	}

	// session send is the same function with Session set; nothing changed,
	// so the profile's max_output_tokens applies.
	f, _ = e.factory("json")
	o = &RunOptions{Factory: f, Ctx: context.Background(), Session: doc.SessionID, Args: []string{"more"}}
	if err := runRun(o); err != nil {
		t.Fatal(err)
	}
	if body := e.lastBody(t); body["max_completion_tokens"] != float64(50) || len(body["messages"].([]any)) != 3 {
		t.Fatalf("second request body %v", body)
	}
}

// TestSessionCompactRunWithoutCobra compacts a session through its options
// alone, and checks the exit codes of what session.Compact refuses.
func TestSessionCompactRunWithoutCobra(t *testing.T) {
	e := newRunEnv(t)
	e.srv.Enqueue(fake.Reply{Text: "one"}, fake.Reply{Text: "two"}, fake.Reply{Text: "SUMMARY", Stream: new(bool)})
	f, out := e.factory("json")
	if err := runRun(&RunOptions{Factory: f, Ctx: context.Background(), Args: []string{"first"}}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	f, _ = e.factory("json")
	if err := runRun(&RunOptions{Factory: f, Ctx: context.Background(), Session: doc.SessionID, Args: []string{"second"}}); err != nil {
		t.Fatal(err)
	}

	compact := func(profile, id string) (string, error) {
		f, out := e.factory("")
		err := sessionCompactRun(&SessionCompactOptions{Factory: f, Ctx: context.Background(), ID: id, Profile: profile})
		return out.String(), err
	}
	exitCode := func(err error) int {
		var ee *ExitError
		if !errors.As(err, &ee) {
			return -1
		}
		return ee.Code
	}
	if _, err := compact("nowin", doc.SessionID); exitCode(err) != events.ExitUsage || !strings.Contains(err.Error(), "context_limits_missing") {
		t.Fatalf("no context window: %v", err)
	}
	if _, err := compact("win", "ses_nope"); exitCode(err) != events.ExitSession {
		t.Fatalf("unknown session: %v", err)
	}
	got, err := compact("win", doc.SessionID)
	if err != nil || !strings.HasPrefix(got, "compacted: kept from seq 3, ") {
		t.Fatalf("compact: %q, %v", got, err)
	}
	if body := e.lastBody(t); !strings.Contains(fmt.Sprint(body["messages"]), "user: first") {
		t.Fatalf("summary request %v", body)
	}
}
