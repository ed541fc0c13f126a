package runner

import (
	"context"
	"fmt"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// This file is code mode's hook into the run (SPEC §12): the calls a
// tavo_code program makes go through the same executor as the model's,
// validated, confirmed, audited (by the tool.call/tool.result events the
// session journals), counted against --max-tool-calls and emitted with
// parent_call_id.

// codeModeTools are the tools the model is sent in code mode: those of
// Options.CodeModeTools the catalog has, in that order.
func (r *run) codeModeTools() []string {
	names := []string{}
	for _, n := range r.opts.CodeModeTools {
		if _, ok := r.opts.Catalog.Get(n); ok {
			names = append(names, n)
		}
	}
	return names
}

// callInner is the run's tools.InnerCaller.
func (r *run) callInner(ctx context.Context, parent *tools.Call, call providers.ToolCall) tools.Outcome {
	round := r.round
	var env tools.Env
	if parent != nil && parent.Env != nil {
		env = *parent.Env
		round = env.Round
	} else {
		env = *r.env
	}
	// Every tool of the catalog may be called from code, visible to the
	// model or not.
	env.Visibility = nil
	var parentID string
	if parent != nil {
		parentID = parent.ID
	}
	toolID := call.Name
	if t, ok := r.opts.Catalog.Get(call.Name); ok {
		toolID = t.Spec().ID
	}
	if r.callsLeft() <= 0 {
		return tools.ErrorOutcome(toolID, tools.Errorf(tools.CodeLimitExceeded,
			fmt.Sprintf("the run reached --max-tool-calls %d; this call was not run (return what you have)", r.opts.MaxToolCalls)))
	}
	r.countCall()
	r.emit(events.ToolCall, events.ToolCallP{
		Round: round, CallID: call.ID, Name: call.Name, ToolID: toolID,
		Arguments: eventArguments(call.Arguments), ParentCallID: parentID,
	})
	out := r.exec.ExecuteInner(ctx, &env, call)
	r.countOutcome(out)
	p := r.toolResultP(call, out)
	p.Round, p.ParentCallID = round, parentID
	r.emit(events.ToolResult, p)
	return out
}

// countCall counts one call that runs.
func (r *run) countCall() {
	r.countMu.Lock()
	defer r.countMu.Unlock()
	r.counts.Total++
}

// countOutcome counts how a call ended.
func (r *run) countOutcome(out tools.Outcome) {
	if out.OK {
		return
	}
	r.countMu.Lock()
	defer r.countMu.Unlock()
	r.counts.Failed++
	if out.Err != nil && out.Err.Code == tools.CodePermissionDenied {
		r.counts.Denied++
	}
}

// callsLeft is how many more calls --max-tool-calls allows in this turn.
func (r *run) callsLeft() int {
	r.countMu.Lock()
	defer r.countMu.Unlock()
	return r.opts.MaxToolCalls - (r.counts.Total - r.turnCalls)
}

// callCounts is a copy of the counts.
func (r *run) callCounts() events.ToolCallCounts {
	r.countMu.Lock()
	defer r.countMu.Unlock()
	return r.counts
}
