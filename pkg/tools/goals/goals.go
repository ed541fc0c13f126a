// Package goals holds the goal tools of SPEC §14 (seed 004):
// tavo_goal_create, tavo_goal_complete and tavo_goal_cancel. A goal keeps a
// run going turn after turn (pkg/schedule.GoalTurns) until it is met,
// cancelled or out of turns. The tools are thin adapters over the store.
package goals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// The model-facing names of the goal tools.
const (
	CreateName   = "tavo_goal_create"
	CompleteName = "tavo_goal_complete"
	CancelName   = "tavo_goal_cancel"
)

// Opener opens the store the tools work on, on their first call.
type Opener func(ctx context.Context) (*store.Store, error)

// All returns the three goal tools; none is resident.
func All(open Opener) []tools.Tool {
	return []tools.Tool{
		&tool{open: open, spec: spec(CreateName, fmt.Sprintf("Set yourself a goal that keeps you working, turn after turn, until its condition "+
			"is met: after each of your turns a judge checks the condition, and if it is not met you get another turn, up to "+
			"max_turns (default %d). One active goal per conversation. Returns {\"goal_id\",\"status\"}.", store.DefaultGoalMaxTurns),
			fmt.Sprintf(`{"type":"object","properties":{"condition":{"type":"string","minLength":1,"description":"What must be true for the goal to be met."},`+
				`"max_turns":{"type":"integer","minimum":%d,"maximum":%d,"description":"Most turns to spend (default %d)."}},"required":["condition"],"additionalProperties":false}`,
				config.GoalTurnsRange.Min, config.GoalTurnsRange.Max, store.DefaultGoalMaxTurns)),
			run: create},
		&tool{open: open, spec: spec(CompleteName, "Mark the active goal as met, so no further turn starts. Returns {\"goal_id\",\"status\"}.", idSchema), run: end(store.GoalCompleted)},
		&tool{open: open, spec: spec(CancelName, "Cancel a goal that cannot or should no longer be met. Returns {\"goal_id\",\"status\"}.", idSchema), run: end(store.GoalCancelled)},
	}
}

const idSchema = `{"type":"object","properties":{"goal_id":{"type":"string","minLength":1}},"required":["goal_id"],"additionalProperties":false}`

func spec(name, description, schema string) tools.Spec {
	return tools.Spec{Name: name, ID: name, Description: description, Parameters: json.RawMessage(schema), Source: tools.SourceBuiltin}
}

type tool struct {
	open Opener
	spec tools.Spec
	run  func(ctx context.Context, st *store.Store, call *tools.Call) (any, error)
}

func (t *tool) Spec() tools.Spec { return t.spec }

func (t *tool) Run(ctx context.Context, call *tools.Call) (any, error) {
	if t.open == nil || call.Env == nil || call.Env.SessionID == "" {
		return nil, tools.Errorf(tools.CodeResourceNotFound, "this run has no session, so it cannot hold goals")
	}
	st, err := t.open(ctx)
	if err != nil {
		return nil, tools.Errorf(tools.CodeInternalError, "tavo's store could not be opened; the call did nothing")
	}
	return t.run(ctx, st, call)
}

// Result is what the goal tools return.
type Result struct {
	GoalID string `json:"goal_id"`
	Status string `json:"status"`
}

func create(ctx context.Context, st *store.Store, call *tools.Call) (any, error) {
	var a struct {
		Condition string `json:"condition"`
		MaxTurns  int    `json:"max_turns"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	a.Condition = strings.TrimSpace(a.Condition)
	if a.Condition == "" {
		return nil, tools.InvalidArgument("condition", "non-empty string", "string")
	}
	g, err := st.CreateGoal(ctx, call.Env.SessionID, a.Condition, a.MaxTurns)
	if errors.Is(err, store.ErrGoalActive) {
		active, _ := st.ActiveGoal(ctx, call.Env.SessionID)
		msg := "this conversation already has an active goal; complete or cancel it first"
		if active != nil {
			msg += " (goal_id " + active.ID + ")"
		}
		return nil, tools.Errorf(tools.CodeLimitExceeded, msg)
	}
	if err != nil {
		return nil, err
	}
	call.Env.EmitEvent(string(events.GoalUpdated), GoalEvent(g, ByCreated))
	return Result{GoalID: g.ID, Status: g.Status}, nil
}

func end(status string) func(ctx context.Context, st *store.Store, call *tools.Call) (any, error) {
	return func(ctx context.Context, st *store.Store, call *tools.Call) (any, error) {
		var a struct {
			GoalID string `json:"goal_id"`
		}
		if err := tools.DecodeArgs(call.Args, &a); err != nil {
			return nil, err
		}
		g, err := st.GetGoal(ctx, a.GoalID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && g.SessionID != call.Env.SessionID) {
			return nil, tools.Errorf(tools.CodeResourceNotFound, "no goal "+a.GoalID+" in this conversation")
		}
		if err != nil {
			return nil, err
		}
		g, err = st.EndGoal(ctx, a.GoalID, status, "")
		if errors.Is(err, store.ErrNotActive) {
			return nil, tools.Errorf(tools.CodeInvalidArguments, "goal "+a.GoalID+" has already ended")
		}
		if err != nil {
			return nil, err
		}
		call.Env.EmitEvent(string(events.GoalUpdated), GoalEvent(g, ByModel))
		return Result{GoalID: g.ID, Status: g.Status}, nil
	}
}

// Who changed a goal, as goal.updated's "by" says.
const (
	ByCreated  = "created"
	ByTurn     = "turn"
	ByModel    = "model"
	ByJudge    = "judge"
	ByPerson   = "person"
	ByMaxTurns = "max_turns"
)

// GoalEvent is the goal.updated payload of g.
func GoalEvent(g *store.Goal, by string) events.GoalUpdatedP {
	return events.GoalUpdatedP{GoalID: g.ID, Condition: g.Condition, Status: g.Status, CompletedTurns: g.CompletedTurns,
		MaxTurns: g.MaxTurns, By: by, Reason: g.Reason}
}
