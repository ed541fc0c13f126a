package tools

import (
	"context"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// InnerCaller runs a tool call made from inside another call, parent (a
// code-mode program, SPEC §12), the way the run runs the model's own calls:
// validated, confirmed, audited, counted against the run's tool-call limit
// and emitted as tool.call/tool.result with parent_call_id. The runner
// provides it (Env.CallInner). The Outcome always has its Envelope set.
type InnerCaller func(ctx context.Context, parent *Call, call providers.ToolCall) Outcome

// CallTimeouter is implemented by a tool whose calls have their own
// timeout instead of the run's per-call timeout (tavo_code: the wall clock
// of its program). Time waiting for a person does not count, as for any
// call.
type CallTimeouter interface {
	CallTimeout() time.Duration
}

// ExecuteInner runs call like Execute, except that a successful result is
// the tool's whole value: an inner call's result goes to the program that
// made it, not to the model, so it passes neither the one exit of SPEC §11
// nor the run's result budget. Only the program's return value does.
func (x *Executor) ExecuteInner(ctx context.Context, env *Env, call providers.ToolCall) Outcome {
	return x.run(ctx, env, call, true)
}

// ErrorOutcome is the Outcome of a call refused before it ran, with its
// envelope.
func ErrorOutcome(toolID string, e *Error) Outcome {
	return Outcome{ToolID: toolID, Err: e, Envelope: errorEnvelope(e)}
}

// chainPause makes a call's pause also pause the calls around it (outer is
// the pause of the call that made this one, nil for a model's call).
func chainPause(outer, own func() (resume func())) func() (resume func()) {
	if outer == nil {
		return own
	}
	return func() func() {
		r1, r2 := outer(), own()
		return func() { r2(); r1() }
	}
}
