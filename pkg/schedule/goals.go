// Package schedule is tavo's scheduled and continued work (SPEC §14):
// goals that keep a run going turn after turn until a judge finds their
// condition met, loops that fire a prompt in a session on an interval,
// wake-ups declared with tavo_wait, and `tavo worker`, which works loop
// firings, wake-ups and detached goal runs as River jobs
// (github.com/riverqueue/river) on the embedded store's SQLite database.
//
// A run is never assembled here: the worker calls a Starter that cmd
// provides, the same path `tavo session send` takes.
package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
	goaltools "github.com/tavo-cli/tavo/pkg/tools/goals"
	"github.com/tavo-cli/tavo/pkg/tools/turn"
)

// GoalTurns decides, after each turn of a run, whether the session's active
// goal keeps the run going (runner.Options.AfterTurn). It is installed on
// every run with a store, so a goal the model creates with
// tavo_goal_create is pursued as well as one given with `tavo run --goal`.
type GoalTurns struct {
	Store     *store.Store
	SessionID string
	// Judge and JudgeModel answer the judge request; a nil Judge leaves
	// completion to the model's tavo_goal_complete.
	Judge      providers.Provider
	JudgeModel string
	// Emit publishes goal.updated and warnings in the run's stream.
	Emit func(t events.Type, payload any)
}

// AfterTurn implements runner.Options.AfterTurn.
func (g *GoalTurns) AfterTurn(ctx context.Context, end runner.TurnEnd) runner.TurnNext {
	goal, err := g.Store.ActiveGoal(ctx, g.SessionID)
	if err != nil {
		g.emit(events.Warning, events.WarningP{Code: "goal_unreadable", Message: err.Error()})
		return runner.TurnNext{}
	}
	if goal == nil {
		// No goal, or the model completed or cancelled it this turn.
		return runner.TurnNext{}
	}
	var next runner.TurnNext
	met, reason := false, ""
	if g.Judge != nil {
		var usage providers.Usage
		met, reason, usage, err = Judge(ctx, g.Judge, g.JudgeModel, goal.Condition, TurnDigest(end))
		next.Usage = usage
		if err != nil {
			g.emit(events.Warning, events.WarningP{Code: "goal_judge_failed", Message: "the goal's judge request failed; the goal stays active: " + err.Error()})
		}
	}
	goal, err = g.Store.AdvanceGoal(ctx, goal.ID, met, reason)
	if err != nil {
		g.emit(events.Warning, events.WarningP{Code: "goal_unwritable", Message: err.Error()})
		return next
	}
	by := goaltools.ByTurn
	switch goal.Status {
	case store.GoalCompleted:
		by = goaltools.ByJudge
	case store.GoalExhausted:
		by = goaltools.ByMaxTurns
	}
	g.emit(events.GoalUpdated, goaltools.GoalEvent(goal, by))
	switch {
	case goal.Status == store.GoalExhausted:
		next.Status = events.StatusGoalExhausted
		next.Err = &events.ErrorInfo{Code: "goal_exhausted",
			Message: fmt.Sprintf("the goal %q was not met in %d turns (raise --max-turns)", goal.Condition, goal.MaxTurns)}
	case goal.Status != store.GoalActive:
	case end.Action == turn.ActionWait && end.WakeAt != nil:
		// The model asked to be woken later: the worker continues the goal
		// then (the run ends waiting).
	case ctx.Err() == nil:
		next.Prompt = Continuation(goal)
	}
	return next
}

func (g *GoalTurns) emit(t events.Type, p any) {
	if g.Emit != nil {
		g.Emit(t, p)
	}
}

// Continuation is the user message that starts a goal's next turn.
func Continuation(g *store.Goal) string {
	return fmt.Sprintf("Keep working toward the goal: %s\n\nTurns used: %d of %d. When the condition is met, call tavo_goal_complete "+
		"with goal_id %q; if it cannot be met, call tavo_goal_cancel.", g.Condition, g.CompletedTurns, g.MaxTurns, g.ID)
}

// GoalNote is what the first turn of a `tavo run --goal` run is told
// besides its prompt, so the model can complete the goal in that turn.
func GoalNote(g *store.Goal) string {
	return fmt.Sprintf("Goal %s: %s\n\nYou have %d turns to meet it. When the condition is met, call tavo_goal_complete with goal_id %q; "+
		"if it cannot be met, call tavo_goal_cancel.", g.ID, g.Condition, g.MaxTurns, g.ID)
}

// judgeSystem tells the judge its job.
const judgeSystem = "You judge whether a goal's condition is met, from a digest of the latest turn of an assistant working toward it: " +
	"the tool calls it made (name and whether each succeeded) and its final answer. " +
	"Answer only with JSON {\"met\": boolean, \"reason\": string}; met is true only when the turn shows the condition holds."

// Digest bounds: the judge sees at most this much of a turn.
const (
	digestMaxCalls = 40
	digestMaxText  = 4000 // bytes of the final answer, head and tail kept
)

// TurnDigest is what the judge sees of a turn: its tool calls (name and
// ok or the error code; the first digestMaxCalls, then a count) and its
// final text (at most digestMaxText bytes, the middle cut). Bounded
// whatever the turn did, so the judge request stays small.
func TurnDigest(end runner.TurnEnd) string {
	var b strings.Builder
	failed := 0
	for _, c := range end.Calls {
		if !c.OK {
			failed++
		}
	}
	fmt.Fprintf(&b, "Tool calls of the turn: %d (%d failed)\n", len(end.Calls), failed)
	for i, c := range end.Calls {
		if i == digestMaxCalls {
			fmt.Fprintf(&b, "- … and %d more\n", len(end.Calls)-i)
			break
		}
		switch {
		case c.OK:
			fmt.Fprintf(&b, "- %s: ok\n", c.Name)
		case c.Code != "":
			fmt.Fprintf(&b, "- %s: error (%s)\n", c.Name, c.Code)
		default:
			fmt.Fprintf(&b, "- %s: error\n", c.Name)
		}
	}
	text := end.Text
	if len(text) > digestMaxText {
		head, tail := text[:digestMaxText/2], text[len(text)-digestMaxText/2:]
		head = strings.ToValidUTF8(head, "")
		tail = strings.ToValidUTF8(tail, "")
		text = head + fmt.Sprintf("\n[… %d bytes cut …]\n", len(end.Text)-len(head)-len(tail)) + tail
	}
	b.WriteString("\nFinal answer of the turn:\n")
	b.WriteString(text)
	return b.String()
}

var judgeSchema = []byte(`{"type":"object","properties":{"met":{"type":"boolean"},"reason":{"type":"string"}},"required":["met","reason"],"additionalProperties":false}`)

// Judge asks model whether condition is met, given digest (TurnDigest) of
// the latest turn: one request, no tools, structured output {met, reason}.
func Judge(ctx context.Context, p providers.Provider, model, condition, digest string) (met bool, reason string, usage providers.Usage, err error) {
	req := &providers.Request{
		Model:  model,
		System: judgeSystem,
		Messages: []providers.Message{{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText,
			Text: "Condition: " + condition + "\n\n" + digest}}}},
		Schema: &providers.OutputSchema{Name: "goal_judgement", Schema: judgeSchema},
	}
	resp, err := p.Complete(ctx, req, quiet{})
	if err != nil {
		return false, "", usage, err
	}
	usage = resp.Usage
	var v struct {
		Met    bool   `json:"met"`
		Reason string `json:"reason"`
	}
	text := strings.TrimSpace(resp.Message.Text())
	text = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(text, "```json"), "```"), "```")
	if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &v); err != nil {
		return false, "", usage, fmt.Errorf("the judge's answer is not {met, reason}: %w", err)
	}
	return v.Met, v.Reason, usage, nil
}

// quiet is a providers.Sink that drops the judge's progress: its answer is
// not the run's.
type quiet struct{}

func (quiet) TextDelta(string)                 {}
func (quiet) ReasoningDelta(string)            {}
func (quiet) Retry(int, time.Duration, string) {}
