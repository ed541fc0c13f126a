package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools/turn"
)

type reply = func(context.Context, *providers.Request, providers.Sink) (*providers.Response, error)

func call(id, name, args string) providers.ToolCall {
	return providers.ToolCall{ID: id, Name: name, Arguments: args}
}

func TestSendMessageEndsTheTurn(t *testing.T) {
	p := &scripted{replies: []reply{calls(call("c1", "tavo_send_message", `{"text":"done here"}`))}}
	opts, rec := newOpts(t, p, turn.All()...)
	opts.DynamicTools = false
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusCompleted || res.Text != "done here" || len(p.requests) != 1 {
		t.Fatalf("result %+v after %d requests", res, len(p.requests))
	}
	if !strings.Contains(strings.Join(rec.types(), " "), "message.sent") {
		t.Fatalf("no message.sent: %v", rec.types())
	}
}

func TestSendMessageContinue(t *testing.T) {
	p := &scripted{replies: []reply{calls(call("c1", "tavo_send_message", `{"text":"working","continue":true}`)), text("all done")}}
	opts, rec := newOpts(t, p, turn.All()...)
	opts.DynamicTools = false
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusCompleted || res.Text != "all done" || len(p.requests) != 2 {
		t.Fatalf("result %+v after %d requests", res, len(p.requests))
	}
}

func TestWaitEndsWaiting(t *testing.T) {
	until := time.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	p := &scripted{replies: []reply{calls(call("c1", "tavo_wait", `{"seconds":3600,"until":"`+until+`"}`))}}
	opts, rec := newOpts(t, p, turn.All()...)
	opts.DynamicTools = false
	before := time.Now()
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if res.Status != events.StatusWaiting || res.ExitCode != 0 || res.WakeAt == nil {
		t.Fatalf("result %+v", res)
	}
	if d := res.WakeAt.Sub(before); d < time.Hour || d > 2*time.Hour {
		t.Fatalf("wake_at %v is not the earlier of the two (an hour from now)", res.WakeAt)
	}
	last := rec.evs[len(rec.evs)-1].Payload.(events.RunCompletedP)
	if last.WakeAt == nil || last.Status != events.StatusWaiting {
		t.Fatalf("run.completed %+v", last)
	}
}

func TestEmptyWaitCompletes(t *testing.T) {
	p := &scripted{replies: []reply{calls(call("c1", "tavo_wait", `{}`))}}
	opts, _ := newOpts(t, p, turn.All()...)
	opts.DynamicTools = false
	res := Run(context.Background(), opts)
	if res.Status != events.StatusCompleted || res.WakeAt != nil {
		t.Fatalf("result %+v", res)
	}
}

func TestAfterTurnStartsTurnsWithLimitsPerTurn(t *testing.T) {
	// Each turn may use MaxRounds rounds: two turns of two rounds each
	// under --max-rounds 2.
	p := &scripted{replies: []reply{
		calls(call("c1", "echo", `{"x":1}`)), text("turn one"),
		calls(call("c2", "echo", `{"x":2}`)), text("turn two"),
	}}
	opts, rec := newOpts(t, p)
	opts.MaxRounds = 2
	var ends []TurnEnd
	opts.AfterTurn = func(_ context.Context, end TurnEnd) TurnNext {
		ends = append(ends, end)
		if end.Turn == 1 {
			return TurnNext{Prompt: "keep going"}
		}
		return TurnNext{Status: events.StatusGoalExhausted, Err: &events.ErrorInfo{Code: "goal_exhausted", Message: "out of turns"}}
	}
	res := Run(context.Background(), opts)
	checkEvents(t, rec, opts.Emitter)
	if len(ends) != 2 || ends[0].Text != "turn one" || ends[1].Text != "turn two" {
		t.Fatalf("turn ends %+v", ends)
	}
	if res.Status != events.StatusGoalExhausted || res.ExitCode != events.ExitLimit || res.Rounds != 4 {
		t.Fatalf("result %+v", res)
	}
	last := p.requests[2].Messages
	if got := last[len(last)-1].Text(); got != "keep going" {
		t.Fatalf("turn two starts with %q", got)
	}
}
