// Package loops holds the loop tools of SPEC §14 (seed 004):
// tavo_loop_create, tavo_loop_cancel, tavo_loop_complete, tavo_loop_list,
// tavo_loop_pause and tavo_loop_resume. A loop fires its prompt in its
// session every interval; `tavo worker` works the firings. The tools are thin
// adapters over the store and the scheduler.
package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// The model-facing names of the loop tools.
const (
	CreateName   = "tavo_loop_create"
	CancelName   = "tavo_loop_cancel"
	CompleteName = "tavo_loop_complete"
	ListName     = "tavo_loop_list"
	PauseName    = "tavo_loop_pause"
	ResumeName   = "tavo_loop_resume"
)

// Deps are what the loop tools work on.
type Deps struct {
	// Open opens the store, on the first call.
	Open func(ctx context.Context) (*store.Store, error)
	// Schedule makes the queue match a loop just created or moved: the
	// next firing of an active loop queued, no other firing of it left
	// queued. nil leaves it to the worker, which queues every active loop
	// when it starts (and drops a firing its loop no longer wants).
	Schedule func(ctx context.Context, l *store.Loop) error
}

// minInterval is store.MinLoopInterval in the tool's unit, seconds.
const minInterval = int(store.MinLoopInterval / time.Second)

// All returns the six loop tools; none is resident.
func All(d Deps) []tools.Tool {
	idOnly := `{"type":"object","properties":{"loop_id":{"type":"string","minLength":1}},"required":["loop_id"],"additionalProperties":false}`
	return []tools.Tool{
		&tool{d: d, spec: spec(CreateName, fmt.Sprintf("Create a loop: the prompt is run again in this conversation every interval_seconds "+
			"(at least %d), up to max_turns times (default %d), by tavo's worker. Use it to check on something periodically. "+
			`Returns {"loop_id","next_run_at"}.`, minInterval, store.DefaultLoopMaxTurns),
			fmt.Sprintf(`{"type":"object","properties":{"prompt":{"type":"string","minLength":1,"description":"What to do at each firing."},`+
				`"interval_seconds":{"type":"integer","minimum":%d,"description":"Seconds between firings."},`+
				`"max_turns":{"type":"integer","minimum":%d,"maximum":%d,"description":"Most firings (default %d)."}},`+
				`"required":["prompt","interval_seconds"],"additionalProperties":false}`,
				minInterval, config.LoopTurnsRange.Min, config.LoopTurnsRange.Max, store.DefaultLoopMaxTurns)), run: create},
		&tool{d: d, spec: spec(CancelName, "Cancel a loop of this conversation: it fires no more.", idOnly), run: move(store.LoopCancelled)},
		&tool{d: d, spec: spec(CompleteName, "Mark the loop that started this run as completed (its work is done), with a reason.",
			`{"type":"object","properties":{"reason":{"type":"string","minLength":1}},"required":["reason"],"additionalProperties":false}`), run: complete},
		&tool{d: d, spec: spec(ListName, "List the loops of this conversation with their status and next firing.",
			`{"type":"object","properties":{},"additionalProperties":false}`), run: list},
		&tool{d: d, spec: spec(PauseName, "Pause an active loop of this conversation: no firing until it is resumed.", idOnly), run: move(store.LoopPaused)},
		&tool{d: d, spec: spec(ResumeName, "Resume a paused loop: it next fires one interval from now.", idOnly), run: move(store.LoopActive)},
	}
}

func spec(name, description, schema string) tools.Spec {
	return tools.Spec{Name: name, ID: name, Description: description, Parameters: json.RawMessage(schema), Source: tools.SourceBuiltin}
}

type tool struct {
	d    Deps
	spec tools.Spec
	run  func(ctx context.Context, d Deps, st *store.Store, call *tools.Call) (any, error)
}

func (t *tool) Spec() tools.Spec { return t.spec }

func (t *tool) Run(ctx context.Context, call *tools.Call) (any, error) {
	if t.d.Open == nil || call.Env == nil || call.Env.SessionID == "" {
		return nil, tools.Errorf(tools.CodeResourceNotFound, "this run has no session, so it cannot hold loops")
	}
	st, err := t.d.Open(ctx)
	if err != nil {
		return nil, tools.Errorf(tools.CodeInternalError, "tavo's store could not be opened; the call did nothing")
	}
	return t.run(ctx, t.d, st, call)
}

// View is a loop as the tools show it.
type View struct {
	LoopID          string    `json:"loop_id"`
	Prompt          string    `json:"prompt"`
	IntervalSeconds int64     `json:"interval_seconds"`
	Status          string    `json:"status"`
	CompletedTurns  int       `json:"completed_turns"`
	MaxTurns        int       `json:"max_turns"`
	NextRunAt       time.Time `json:"next_run_at"`
	Reason          string    `json:"reason,omitempty"`
}

func view(l *store.Loop) View {
	return View{LoopID: l.ID, Prompt: l.Prompt, IntervalSeconds: int64(l.Interval / time.Second), Status: l.Status,
		CompletedTurns: l.CompletedTurns, MaxTurns: l.MaxTurns, NextRunAt: l.NextRunAt, Reason: l.Reason}
}

func create(ctx context.Context, d Deps, st *store.Store, call *tools.Call) (any, error) {
	var a struct {
		Prompt          string `json:"prompt"`
		IntervalSeconds int64  `json:"interval_seconds"`
		MaxTurns        int    `json:"max_turns"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Prompt) == "" {
		return nil, tools.InvalidArgument("prompt", "non-empty string", "string")
	}
	cfg, err := st.SessionConfig(ctx, call.Env.SessionID)
	if err != nil {
		return nil, err
	}
	l, err := st.CreateLoop(ctx, store.NewLoop{SessionID: call.Env.SessionID, Prompt: a.Prompt,
		Interval: time.Duration(a.IntervalSeconds) * time.Second, MaxTurns: a.MaxTurns, Config: cfg})
	if errors.Is(err, store.ErrInvalid) {
		return nil, tools.Errorf(tools.CodeInvalidArguments, "interval_seconds must be at least 10")
	}
	if err != nil {
		return nil, err
	}
	if d.Schedule != nil {
		if err := d.Schedule(ctx, l); err != nil {
			return nil, err
		}
	}
	return map[string]any{"loop_id": l.ID, "next_run_at": l.NextRunAt}, nil
}

// mine returns the loop id names when it belongs to the call's session.
func mine(ctx context.Context, st *store.Store, call *tools.Call, id string) (*store.Loop, error) {
	l, err := st.GetLoop(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && l.SessionID != call.Env.SessionID) {
		return nil, tools.Errorf(tools.CodeResourceNotFound, "no loop "+id+" in this conversation")
	}
	return l, err
}

func move(status string) func(ctx context.Context, d Deps, st *store.Store, call *tools.Call) (any, error) {
	return func(ctx context.Context, d Deps, st *store.Store, call *tools.Call) (any, error) {
		var a struct {
			LoopID string `json:"loop_id"`
		}
		if err := tools.DecodeArgs(call.Args, &a); err != nil {
			return nil, err
		}
		if _, err := mine(ctx, st, call, a.LoopID); err != nil {
			return nil, err
		}
		return setStatus(ctx, d, st, a.LoopID, status, "", true)
	}
}

func setStatus(ctx context.Context, d Deps, st *store.Store, id, status, reason string, reschedule bool) (any, error) {
	l, err := st.SetLoopStatus(ctx, id, status, reason)
	if errors.Is(err, store.ErrNotActive) {
		return nil, tools.Errorf(tools.CodeInvalidArguments, strings.TrimSuffix(err.Error(), ": "+store.ErrNotActive.Error()))
	}
	if err != nil {
		return nil, err
	}
	if reschedule && d.Schedule != nil {
		if err := d.Schedule(ctx, l); err != nil {
			return nil, err
		}
	}
	return view(l), nil
}

func complete(ctx context.Context, d Deps, st *store.Store, call *tools.Call) (any, error) {
	var a struct {
		Reason string `json:"reason"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	id := LoopFrom(ctx)
	if id == "" {
		return nil, tools.Errorf(tools.CodeResourceNotFound, "this run was not started by a loop; use tavo_loop_cancel with a loop_id to stop one")
	}
	return setStatus(ctx, d, st, id, store.LoopCompleted, a.Reason, false)
}

func list(ctx context.Context, _ Deps, st *store.Store, call *tools.Call) (any, error) {
	ls, err := st.ListLoops(ctx, call.Env.SessionID, "")
	if err != nil {
		return nil, err
	}
	out := make([]View, 0, len(ls))
	for i := range ls {
		out = append(out, view(&ls[i]))
	}
	return map[string]any{"loops": out}, nil
}
