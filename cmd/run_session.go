package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools/state"
)

// storeTimeout bounds store writes made after a run was stopped, so a
// cancelled run still records what it did.
const storeTimeout = 10 * time.Second

// boundRun is a run attached to its stored session.
type boundRun struct {
	st        *store.Store
	lease     *store.Lease
	completed json.RawMessage
	tools     map[string]json.RawMessage // call id → arguments, for the audit
}

// bindSession attaches s to a session: the one named by sessionID (its
// history is loaded) or a new one titled after the prompt. It takes the
// session's lock (session_busy at once when another run holds it), journals
// every event, stores messages as rounds complete, and compacts the history
// when it would not fit.
func bindSession(ctx context.Context, f *Factory, s *runSetup, sessionID string) (*boundRun, error) {
	st, err := openStore(ctx, f)
	if err != nil {
		return nil, err
	}
	b := &boundRun{st: st, tools: map[string]json.RawMessage{}}
	if sessionID != "" {
		if _, err := st.GetSession(ctx, sessionID); err != nil {
			st.Close()
			return nil, sessionError(err, sessionID)
		}
		s.opts.SessionID = sessionID
	} else {
		if _, err := st.CreateSession(ctx, s.opts.SessionID, store.AutoTitle(s.opts.Prompt.Text())); err != nil {
			st.Close()
			return nil, &ExitError{Code: events.ExitFailed, Err: err}
		}
	}
	lease, err := st.BeginRun(ctx, s.opts.RunID, s.opts.SessionID, store.RunMeta{
		Profile: s.resolved.ProfileName, Provider: string(s.resolved.Protocol), Model: s.opts.Model, PID: os.Getpid(),
	})
	if err != nil {
		st.Close()
		return nil, sessionError(err, s.opts.SessionID)
	}
	b.lease = lease
	if sessionID != "" {
		h, err := session.LoadHistory(ctx, st, sessionID)
		if err != nil {
			b.finish(&runner.Result{Status: events.StatusFailed, ExitCode: events.ExitFailed})
			return nil, &ExitError{Code: events.ExitFailed, Err: err}
		}
		s.opts.History = h.Messages
		s.opts.Compactor = &session.Compactor{Store: st, SessionID: sessionID, Provider: s.opts.Provider, Model: s.opts.Model, History: h, Target: s.budget / 2}
	}
	for name, value := range s.vars {
		if err := st.SetVar(ctx, store.ScopeChat, s.opts.SessionID, name, value); err != nil {
			b.finish(&runner.Result{Status: events.StatusFailed, ExitCode: events.ExitFailed})
			return nil, &ExitError{Code: events.ExitFailed, Err: fmt.Errorf("setting --var %s: %w", name, err)}
		}
	}
	// Memories join the system prompt only while memory is enabled (SPEC §5).
	if m, err := st.Memory(ctx); err != nil {
		b.finish(&runner.Result{Status: events.StatusFailed, ExitCode: events.ExitFailed})
		return nil, &ExitError{Code: events.ExitFailed, Err: err}
	} else if p := state.MemoryPrompt(m); p != "" {
		if s.opts.System != "" {
			p = s.opts.System + "\n\n" + p
		}
		s.opts.System = p
	}
	s.opts.ContextBudget = s.budget
	s.opts.Resume = "tavo session send " + s.opts.SessionID
	s.opts.OnMessages = func(round int, msgs []providers.Message) error {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
		defer cancel()
		_, err := lease.AppendMessages(ctx, round, msgs)
		return err
	}
	return b, nil
}

// WriteEvent journals each event exactly as streamed and audits tool calls.
func (b *boundRun) WriteEvent(e *events.Envelope, line []byte) error {
	b.lease.Journal(e.Seq, string(e.Type), line)
	switch p := e.Payload.(type) {
	case events.ToolCallP:
		args, _ := json.Marshal(p.Arguments)
		b.tools[p.CallID] = args
	case events.ToolResultP:
		row := map[string]any{
			"run_id": e.RunID, "session_id": e.SessionID, "call_id": p.CallID, "tool": p.Name,
			"arguments": b.tools[p.CallID], "ok": p.OK, "bytes": p.Bytes, "truncated": p.Truncated, "duration_ms": p.DurationMS,
		}
		if p.Error != nil {
			row["error_code"] = p.Error.Code
		}
		data, _ := json.Marshal(row)
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if err := b.st.RecordAudit(ctx, "tool", time.Now().UTC(), data); err != nil {
			return err
		}
	case events.RunCompletedP:
		b.completed, _ = json.Marshal(p)
	}
	return nil
}

// watchCancel stops the run when another process asks (tavo runs cancel).
func (b *boundRun) watchCancel(ctx context.Context, cancel context.CancelCauseFunc) {
	go func() {
		select {
		case <-b.lease.Cancelled():
			cancel(&runner.StopCause{Reason: "cancelled by `tavo runs cancel`", ExitCode: events.ExitInterrupted})
		case <-ctx.Done():
		}
	}()
}

// finish records how the run ended and releases the session.
func (b *boundRun) finish(res *runner.Result) error {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	err := b.lease.Finish(ctx, res.Status, res.ExitCode, b.completed)
	if cerr := b.st.Close(); err == nil {
		err = cerr
	}
	return err
}

// contextBudget is the token budget of a request: the context window less
// the room kept for the answer; 0 when the profile gives no window.
func contextBudget(window, maxOut int) int {
	if window <= 0 {
		return 0
	}
	if maxOut <= 0 {
		maxOut = 4096
	}
	if b := window - maxOut; b > 0 {
		return b
	}
	return window / 2
}
