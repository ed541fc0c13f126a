package tools

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// DefaultTimeout is the per-call timeout when Executor.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// Executor runs tool calls for one run: it checks visibility, validates
// arguments, runs the tool under a per-call timeout that stops while a
// person is asked, and turns the result into the envelope the model reads,
// within the result budgets.
type Executor struct {
	// Catalog holds the run's tools.
	Catalog *Catalog
	// Timeout is the per-call timeout; 0 means DefaultTimeout.
	Timeout time.Duration
	// Budget is the run's result budget; nil sets no run-wide cap. One
	// result is bounded by the text budget of SPEC §11 (the one exit).
	Budget *Budget

	// clock is the timeout clock; nil is the wall clock.
	clock clock
	// exit holds the in-memory artifact centre of a catalog without one.
	exit exit
}

// runResult is what a tool's Run returned.
type runResult struct {
	value any
	err   error
}

// Execute runs one call and always returns an Outcome with its Envelope
// set; a tool failure is an Outcome, never a Go error. When the tool returns
// ErrInputRequired, Outcome.InputRequired is set and the runner ends the run.
func (x *Executor) Execute(ctx context.Context, env *Env, call providers.ToolCall) Outcome {
	return x.run(ctx, env, call, false)
}

// run is Execute, or ExecuteInner when inner is set.
func (x *Executor) run(ctx context.Context, env *Env, call providers.ToolCall, inner bool) Outcome {
	start := time.Now()
	out := x.execute(ctx, env, call, inner)
	out.Duration = time.Since(start)
	if out.Envelope == "" {
		out.Envelope = errorEnvelope(out.Err)
	}
	return out
}

// execute is Execute without the timing.
func (x *Executor) execute(ctx context.Context, env *Env, call providers.ToolCall, inner bool) Outcome {
	e := x.Catalog.lookup(call.Name)
	if e == nil {
		return Outcome{Err: unknownTool(call.Name)}
	}
	if env != nil && env.Visibility != nil && !env.Visibility.IsVisible(call.Name) {
		if env.CodeTool != "" {
			return Outcome{ToolID: e.spec.ID, Err: codeOnly(e.spec, env.CodeTool)}
		}
		return Outcome{ToolID: e.spec.ID, Err: notLoaded(e.spec)}
	}
	args, verr := e.validate([]byte(call.Arguments))
	if verr != nil {
		return Outcome{ToolID: e.spec.ID, Err: verr}
	}
	if ctx.Err() != nil {
		return Outcome{ToolID: e.spec.ID, Err: cancelledError()}
	}
	if e.spec.NeedsConfirm {
		// An inner call's confirmation stops the clocks of the calls
		// around it: time waiting for a person does not count.
		resume := env.WaitForPerson()
		cerr := confirm(ctx, env, e.spec, call.ID, args)
		resume()
		if cerr != nil {
			return Outcome{ToolID: e.spec.ID, Err: cerr}
		}
	}

	// Each call gets its own copy of the Env so that its pause hook belongs
	// to this call's timer alone.
	var callEnv Env
	if env != nil {
		callEnv = *env
	}
	clk := x.clock
	if clk == nil {
		clk = realClock{}
	}
	timeout := x.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if t, ok := e.tool.(CallTimeouter); ok && t.CallTimeout() > 0 {
		timeout = t.CallTimeout()
	}
	timer := startCallTimer(clk, timeout)
	defer timer.stop()
	callEnv.pause = chainPause(callEnv.pause, timer.pause)

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Buffered so a tool that finishes after it was abandoned does not block.
	done := make(chan runResult, 1)
	go func() {
		var r runResult
		defer func() {
			if p := recover(); p != nil {
				r = runResult{err: Errorf(CodeInternalError, "the tool failed unexpectedly")}
			}
			done <- r
		}()
		r.value, r.err = e.tool.Run(runCtx, &Call{ID: call.ID, Args: args, Env: &callEnv})
	}()

	select {
	case r := <-done:
		return x.finish(ctx, env, e, r, inner)
	case <-timer.expired:
		select {
		case r := <-done:
			return x.finish(ctx, env, e, r, inner)
		default:
		}
		return Outcome{ToolID: e.spec.ID, Err: &Error{
			Code: CodeTimeout,
			Message: "the tool did not finish within " + seconds(timeout) +
				"; its result is unknown (it may or may not have taken effect) and the call was not re-run",
		}}
	case <-ctx.Done():
		select {
		case r := <-done:
			return x.finish(ctx, env, e, r, inner)
		default:
		}
		return Outcome{ToolID: e.spec.ID, Err: cancelledError()}
	}
}

// finish turns what Run returned into an Outcome; an inner call's result
// is kept whole, outside the one exit and the run's result budget.
func (x *Executor) finish(ctx context.Context, env *Env, e *entry, r runResult, inner bool) Outcome {
	out := Outcome{ToolID: e.spec.ID}
	if r.err != nil {
		switch {
		case errors.Is(r.err, ErrInputRequired):
			out.InputRequired = true
			out.Err = Errorf(CodeCancelled, "a person's answer was required and none could be had, so the run stops here")
		case ctx.Err() != nil && (errors.Is(r.err, context.Canceled) || errors.Is(r.err, context.DeadlineExceeded)):
			out.Err = cancelledError()
		default:
			out.Err = toolError(r.err)
		}
		return out
	}
	sr, err := shapeResult(r.value)
	if err != nil {
		out.Err = Errorf(CodeInternalError, "the tool's result could not be encoded as JSON")
		return out
	}
	if inner {
		out.OK, out.Result, out.Bytes, out.Envelope = true, sr.value, len(sr.json), okEnvelope(sr)
		return out
	}
	if overBudget(r.value, sr) {
		if sr, out.Artifact, err = x.archive(ctx, env, e.spec, sr); err != nil {
			out.Err = Errorf(CodeInternalError, "the result was too large to show whole and could not be archived for reading on")
			return out
		}
		out.Truncated = true
	}
	if !x.Budget.take(len(sr.json)) {
		remaining := x.Budget.Remaining()
		details := map[string]any{"resultBytes": len(sr.json), "remainingBytes": remaining}
		// Nothing is lost: the full result is archived for a person (tavo
		// read) or a later run, even though this run may not see it.
		if out.Artifact == "" {
			if _, url, err := x.archive(ctx, env, e.spec, sr); err == nil {
				out.Artifact = url
			}
		}
		if out.Artifact != "" {
			details["artifact"] = out.Artifact
		}
		out.Err = &Error{
			Code: CodeResultTooLarge,
			Message: fmt.Sprintf("the result (%d bytes) does not fit in the %d bytes left of this run's result budget; "+
				"ask for less, for example a smaller page, a narrower query or a lower limit", len(sr.json), remaining),
			Details: details,
		}
		return out
	}
	out.OK = true
	out.Result = sr.value
	out.Bytes = len(sr.json)
	out.Envelope = okEnvelope(sr)
	return out
}

// toolError is AsError guarding against a typed nil or code-less *Error.
func toolError(err error) *Error {
	te := AsError(err)
	if te == nil || te.Code == "" {
		return Errorf(CodeInternalError, "the tool failed unexpectedly")
	}
	return te
}

// cancelledError is the error of a call cut short by the run ending.
func cancelledError() *Error {
	return Errorf(CodeCancelled, "the call was cancelled before it finished; its result is unknown")
}

// unknownTool is the error for a name no tool has.
func unknownTool(name string) *Error {
	if len(name) > 64 {
		name = name[:64] + "…"
	}
	return Errorf(CodeUnknownTool, "there is no tool named "+strconv.Quote(name)+"; call only the tools you were given")
}

// notLoaded is the error for a tool that exists but is not visible yet.
func notLoaded(s Spec) *Error {
	search := "tavo_tool_search"
	if s.Source != SourceBuiltin {
		search = "extension_tool_search"
	}
	return Errorf(CodeUnknownTool, "the tool "+strconv.Quote(s.Name)+" is not loaded; find it with "+search+
		" and it becomes callable in your next response")
}

// codeOnly is the error for a direct call, in code mode, of a tool the
// model may call only from a program.
func codeOnly(s Spec, codeTool string) *Error {
	return Errorf(CodeUnknownTool, "the tool "+strconv.Quote(s.Name)+" is callable only from code in this run: call "+codeTool+
		` with {"code": "return await tools.`+s.Name+`({...})"}`)
}

// seconds renders a timeout for a message ("60 seconds", "1.5 seconds").
func seconds(d time.Duration) string {
	s := strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
	if s == "1" {
		return "1 second"
	}
	return s + " seconds"
}
