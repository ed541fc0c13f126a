package schedule

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools/turn"
)

// judgeSays answers every judge request with text.
type judgeSays struct {
	text string
	reqs []*providers.Request
}

func (j *judgeSays) Protocol() providers.Protocol { return providers.ProtocolOpenAI }

func (j *judgeSays) Complete(_ context.Context, req *providers.Request, _ providers.Sink) (*providers.Response, error) {
	j.reqs = append(j.reqs, req)
	return &providers.Response{Message: providers.Message{Role: providers.RoleAssistant,
		Parts: []providers.Part{{Type: providers.PartText, Text: j.text}}}}, nil
}

func goalStore(t *testing.T) (*store.Store, *store.Goal) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.CreateSession(context.Background(), "ses_g", "g"); err != nil {
		t.Fatal(err)
	}
	g, err := st.CreateGoal(context.Background(), "ses_g", "tests pass", 3)
	if err != nil {
		t.Fatal(err)
	}
	return st, g
}

func TestGoalTurnsContinueUntilTheJudgeSaysMet(t *testing.T) {
	st, g := goalStore(t)
	j := &judgeSays{text: `{"met":false,"reason":"2 failures"}`}
	var evs []events.GoalUpdatedP
	h := &GoalTurns{Store: st, SessionID: "ses_g", Judge: j, JudgeModel: "judge-m",
		Emit: func(_ events.Type, p any) { evs = append(evs, p.(events.GoalUpdatedP)) }}
	next := h.AfterTurn(context.Background(), runner.TurnEnd{Turn: 1, Status: events.StatusCompleted, Text: "2 failures left"})
	if !strings.Contains(next.Prompt, "tests pass") || !strings.Contains(next.Prompt, g.ID) || !strings.Contains(next.Prompt, "Turns used: 1 of 3") {
		t.Fatalf("continuation %q", next.Prompt)
	}
	req := j.reqs[0]
	if req.Model != "judge-m" || len(req.Tools) != 0 || req.Schema == nil || !json.Valid(req.Schema.Schema) {
		t.Fatalf("judge request %+v", req)
	}
	j.text = "```json\n{\"met\":true,\"reason\":\"all pass\"}\n```"
	next = h.AfterTurn(context.Background(), runner.TurnEnd{Turn: 2, Status: events.StatusCompleted, Text: "all pass"})
	if next.Prompt != "" || next.Status != "" {
		t.Fatalf("after met: %+v", next)
	}
	if len(evs) != 2 || evs[1].Status != store.GoalCompleted || evs[1].By != "judge" || evs[1].Reason != "all pass" || evs[1].CompletedTurns != 2 {
		t.Fatalf("events %+v", evs)
	}
}

func TestGoalCompletedByTheModelEndsTheRun(t *testing.T) {
	st, g := goalStore(t)
	// tavo_goal_complete ran during the turn.
	if _, err := st.EndGoal(context.Background(), g.ID, store.GoalCompleted, ""); err != nil {
		t.Fatal(err)
	}
	j := &judgeSays{text: `{"met":false,"reason":"x"}`}
	h := &GoalTurns{Store: st, SessionID: "ses_g", Judge: j}
	if next := h.AfterTurn(context.Background(), runner.TurnEnd{Turn: 1, Status: events.StatusCompleted}); next.Prompt != "" || next.Status != "" {
		t.Fatalf("after the model completed the goal: %+v", next)
	}
	if len(j.reqs) != 0 {
		t.Fatal("the judge was asked about a goal that had ended")
	}
}

func TestGoalExhaustsAndWaitHandsOff(t *testing.T) {
	st, _ := goalStore(t)
	j := &judgeSays{text: `{"met":false,"reason":"no"}`}
	h := &GoalTurns{Store: st, SessionID: "ses_g", Judge: j}
	wake := time.Now().Add(time.Hour)
	// A turn that ended with tavo_wait: no next turn now (the worker wakes
	// the session), the goal stays active.
	next := h.AfterTurn(context.Background(), runner.TurnEnd{Turn: 1, Action: turn.ActionWait, WakeAt: &wake})
	if next.Prompt != "" || next.Status != "" {
		t.Fatalf("after wait: %+v", next)
	}
	h.AfterTurn(context.Background(), runner.TurnEnd{Turn: 2})
	next = h.AfterTurn(context.Background(), runner.TurnEnd{Turn: 3})
	if next.Status != events.StatusGoalExhausted || next.Err == nil || next.Err.Code != "goal_exhausted" {
		t.Fatalf("after max_turns: %+v", next)
	}
}

func TestJudgeFailureKeepsTheGoalGoing(t *testing.T) {
	st, _ := goalStore(t)
	h := &GoalTurns{Store: st, SessionID: "ses_g", Judge: &judgeSays{text: "I think so"}}
	var warned bool
	h.Emit = func(ty events.Type, _ any) { warned = warned || ty == events.Warning }
	if next := h.AfterTurn(context.Background(), runner.TurnEnd{Turn: 1}); next.Prompt == "" || !warned {
		t.Fatalf("after an unreadable judgement: %+v, warned %v", next, warned)
	}
}

func TestJudgeSeesTheConditionAndABoundedDigestOfTheTurn(t *testing.T) {
	st, _ := goalStore(t)
	j := &judgeSays{text: `{"met":false,"reason":"no"}`}
	h := &GoalTurns{Store: st, SessionID: "ses_g", Judge: j}
	calls := []runner.TurnCall{{Name: "tavo_shell", OK: true}, {Name: "tavo_file_read", Code: "not_found"}}
	for range 100 {
		calls = append(calls, runner.TurnCall{Name: "tavo_fetch", OK: true})
	}
	long := "start " + strings.Repeat("x", 20_000) + " end"
	h.AfterTurn(context.Background(), runner.TurnEnd{Turn: 1, Text: long, Calls: calls})
	msg := j.reqs[0].Messages[0].Text()
	for _, want := range []string{"Condition: tests pass", "Tool calls of the turn: 102 (1 failed)", "- tavo_shell: ok",
		"- tavo_file_read: error (not_found)", "… and 62 more", "Final answer of the turn:\nstart ", " end", "bytes cut"} {
		if !strings.Contains(msg, want) {
			t.Errorf("judge message lacks %q", want)
		}
	}
	if len(msg) > 8000 {
		t.Fatalf("judge message of %d bytes", len(msg))
	}
	if len(j.reqs[0].Tools) != 0 {
		t.Fatal("the judge was offered tools")
	}
}
