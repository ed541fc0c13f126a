package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/store"
)

// goalIDProxy stands between tavo and the fake provider and writes the
// goal id the request names where the scripted reply says GOAL_ID: a
// static script cannot know the id a run creates.
func goalIDProxy(t *testing.T, target string) *httptest.Server {
	t.Helper()
	re := regexp.MustCompile(`goal_[0-9A-Za-z]+`)
	p := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req, err := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		out = bytes.ReplaceAll(out, []byte("GOAL_ID"), re.Find(body))
		for k, v := range resp.Header {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(resp.StatusCode)
		w.Write(out)
	}))
	t.Cleanup(p.Close)
	return p
}

// TestGoalRunFirstTurnKnowsTheGoal: `tavo run --goal` tells the first turn
// the goal's id and condition, so the model completes it with
// tavo_goal_complete in turn 1 (no judge request, no second turn), and
// goal.updated "created" follows run.started.
func TestGoalRunFirstTurnKnowsTheGoal(t *testing.T) {
	e := newRunEnv(t)
	proxy := goalIDProxy(t, e.srv.URL)
	cfg, err := os.ReadFile(e.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.cfgPath, bytes.ReplaceAll(cfg, []byte(e.srv.URL), []byte(proxy.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	e.srv.Enqueue(
		fake.Reply{Chunks: 1, ToolCalls: []fake.ToolCall{{ID: "c1", Name: "tavo_goal_complete", Arguments: `{"goal_id":"GOAL_ID"}`}}},
		fake.Reply{Text: "Done: the build is green."},
	)
	f, out := e.factory("ndjson")
	o := &RunOptions{Factory: f, Ctx: context.Background(), Args: []string{"Fix the build"}, Goal: "the build is green",
		MaxTurns: 5, Tools: true, AllowTools: []string{"tavo_goal_complete"}}
	if err := runRun(o); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var types []string
	var created, completed events.GoalUpdatedP
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var ev struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		types = append(types, ev.Type)
		if ev.Type == string(events.GoalUpdated) {
			var p events.GoalUpdatedP
			_ = json.Unmarshal(ev.Payload, &p)
			if p.By == "created" {
				created = p
			} else {
				completed = p
			}
		}
	}
	if len(types) < 2 || types[0] != string(events.RunStarted) || types[1] != string(events.GoalUpdated) ||
		created.Status != store.GoalActive || created.Condition != "the build is green" || created.MaxTurns != 5 {
		t.Fatalf("events %v, created %+v", types, created)
	}
	if completed.By != "model" || completed.Status != store.GoalCompleted || completed.GoalID != created.GoalID {
		t.Fatalf("completion %+v\n%s", completed, out)
	}
	if types[len(types)-1] != string(events.RunCompleted) || !strings.Contains(out.String(), `"status":"completed","exit_code":0`) {
		t.Fatalf("run did not complete:\n%s", out)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests; want the turn's two, no judge", len(reqs))
	}
	first := string(reqs[0].Body)
	if !strings.Contains(first, "Goal "+created.GoalID+": the build is green") || !strings.Contains(first, "tavo_goal_complete") {
		t.Fatalf("the first request does not carry the goal:\n%s", first)
	}
}
