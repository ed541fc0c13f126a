package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// storeTimeout bounds store writes made after a run was stopped, so a
// cancelled run still records what it did.
const storeTimeout = 10 * time.Second

// resumeCommand, followed by the session id, continues a session; it is
// run.completed's resume.
const resumeCommand = "tavo session send "

// Errors Bind wraps (together with the store's own error), so a caller can
// tell a person what to do: both are exit 4 in the CLI.
var (
	// ErrNotFound: the session to continue does not exist.
	ErrNotFound = errors.New("session not found")
	// ErrBusy: another live run holds the session.
	ErrBusy = errors.New("session busy")
)

// BindOptions say which session a run binds to and what it brings along.
type BindOptions struct {
	// SessionID is the session to continue (its history is loaded). ""
	// creates a new session, with NewSessionID, titled after Prompt.
	SessionID string
	// NewSessionID is the id of a new session; "" makes one.
	NewSessionID string
	// Prompt is the new user message's text; it titles a new session.
	Prompt string
	// RunID is the run's id; "" makes one.
	RunID string
	// Meta is what the run record shows: profile, provider, model.
	Meta store.RunMeta
	// Vars are chat variables set in the session before the run starts.
	Vars map[string]json.RawMessage
	// Config is how the session is run, stored when the session keeps
	// none yet (its first run); nil stores nothing.
	Config *Config
	// PromptMessage is the whole user message (with attachments), kept so
	// a run killed before its first round was stored can be resumed.
	PromptMessage providers.Message
	// ResumeFrom continues that run (tavo runs resume): it must have ended
	// input_required or interrupted, in SessionID, with no run after it.
	// A refusal wraps ErrCannotResume.
	ResumeFrom string
}

// UntitledTitle is the title `tavo session create` gives a session when
// none is asked for; such a session, while it has no message, takes its
// title from its first prompt.
const UntitledTitle = "Untitled"

// Binding is a run attached to its stored session: it holds the session's
// lease until Finish, journals every event it is given as an events.Sink,
// audits tool calls, and stores the run's messages round by round.
type Binding struct {
	st        *store.Store
	lease     *store.Lease
	history   *History // nil for a new session
	memory    string   // the memory prompt, "" when memory is off or empty
	store     func(round int, msgs []providers.Message) error
	completed json.RawMessage
	calls     map[string]json.RawMessage // call id → arguments, for the audit
	parents   map[string]string          // call id → its code-mode program's call id

	// Resuming: the run continued, the prompt to send again (a run killed
	// before storing anything), and the calls of the question to answer.
	resumedFrom string
	prompt      providers.Message
	pending     *runner.Pending
	// resumePoint is what this run keeps for a later resume of it;
	// question the tavo_ask_user call asked and not yet answered.
	resumePoint resumePoint
	question    string

	// retained are the images the session shows in every request: those
	// it kept from earlier runs, then what the run's stored rounds left
	// retained; att is the run's attachments (nil without vision);
	// hadRetained says the session kept some when the run began.
	retained    []resources.Attachment
	att         *resources.Attachments
	hadRetained bool
}

// Bind attaches a run to a session: the one named by opts.SessionID, or a
// new one. It takes the session's lease at once (ErrBusy, wrapped, when
// another run holds it; ErrNotFound for an unknown session), sets opts.Vars,
// and reads the history and the memories the run starts from. The caller
// owns st and closes it after Finish. Configure then wires a run to the
// binding.
func Bind(ctx context.Context, st *store.Store, opts BindOptions) (*Binding, error) {
	now := time.Now()
	runID := opts.RunID
	if runID == "" {
		runID = ids.New("run", now)
	}
	sessionID := opts.SessionID
	retitle := false
	if sessionID != "" {
		s, err := st.GetSession(ctx, sessionID)
		if err != nil {
			return nil, sessionErr(err)
		}
		retitle = s.Title == UntitledTitle && s.Messages == 0 && opts.Prompt != ""
	} else {
		sessionID = opts.NewSessionID
		if sessionID == "" {
			sessionID = ids.New("ses", now)
		}
		// A sub-agent's session is created by BeginRun, in the run's
		// own transaction (opts.Meta.Child).
		if opts.Meta.Child == nil {
			if _, err := st.CreateSession(ctx, sessionID, store.AutoTitle(opts.Prompt)); err != nil {
				return nil, err
			}
		}
	}
	lease, err := st.BeginRun(ctx, runID, sessionID, opts.Meta)
	if err != nil {
		return nil, sessionErr(err)
	}
	b := &Binding{st: st, lease: lease, calls: map[string]json.RawMessage{}, parents: map[string]string{}}
	b.store = func(round int, msgs []providers.Message) error {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
		defer cancel()
		_, err := lease.AppendMessages(ctx, round, msgs)
		return err
	}
	err = b.load(ctx, opts)
	if err == nil && retitle {
		// Under the lease, so no other run can have added a message.
		err = st.RenameSession(ctx, sessionID, store.AutoTitle(opts.Prompt))
	}
	if err != nil {
		_ = b.Finish(ctx, &runner.Result{Status: events.StatusFailed, ExitCode: events.ExitFailed})
		return nil, err
	}
	return b, nil
}

// load reads what the run starts from, under the lease.
func (b *Binding) load(ctx context.Context, opts BindOptions) error {
	sessionID := b.lease.SessionID()
	if opts.SessionID != "" {
		h, err := LoadHistory(ctx, b.st, sessionID)
		if err != nil {
			return err
		}
		b.history = h
		if b.retained, err = loadRetained(ctx, b.st, sessionID); err != nil {
			return err
		}
		b.hadRetained = len(b.retained) > 0
	}
	if opts.ResumeFrom != "" {
		if err := b.resumeFrom(ctx, opts.ResumeFrom); err != nil {
			return err
		}
	} else if len(opts.PromptMessage.Parts) > 0 {
		pm := opts.PromptMessage
		b.resumePoint = resumePoint{Prompt: &pm}
	}
	if err := b.saveResumePoint(ctx); err != nil {
		return err
	}
	if err := saveConfig(ctx, b.st, sessionID, opts.Config); err != nil {
		return fmt.Errorf("storing how session %s is run: %w", sessionID, err)
	}
	for name, value := range opts.Vars {
		if err := b.st.SetVar(ctx, store.ScopeChat, sessionID, name, value); err != nil {
			return fmt.Errorf("setting chat variable %s: %w", name, err)
		}
	}
	// Memories join the system prompt only while memory is enabled (SPEC §5).
	m, err := b.st.Memory(ctx)
	if err != nil {
		return err
	}
	b.memory = MemoryPrompt(m)
	return nil
}

// sessionErr adds ErrNotFound or ErrBusy to a store error about the session.
func sessionErr(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	case errors.Is(err, store.ErrSessionBusy):
		return fmt.Errorf("%w: %w", ErrBusy, err)
	}
	return err
}

// RunID is the bound run's id.
func (b *Binding) RunID() string { return b.lease.RunID() }

// SessionID is the session the run is bound to.
func (b *Binding) SessionID() string { return b.lease.SessionID() }

// Configure wires a run to the binding: its run and session ids, the
// session's history with a compactor (for a continued session, targeting
// half of o.ContextBudget), the memories after o.System, the resume command,
// OnMessages storing each round, and, for a run that shows images
// (o.Attachments), the images the session retains. Set o.Provider, o.Model,
// o.System, o.ContextBudget and o.Attachments first.
func (b *Binding) Configure(o *runner.Options) {
	o.RunID = b.RunID()
	o.SessionID = b.SessionID()
	if h := b.history; h != nil {
		o.History = h.Messages
		o.Compactor = &Compactor{Store: b.st, SessionID: o.SessionID, Provider: o.Provider, Model: o.Model, History: h, Target: o.ContextBudget / 2}
	}
	if b.memory != "" {
		if o.System != "" {
			o.System += "\n\n" + b.memory
		} else {
			o.System = b.memory
		}
	}
	o.Resume = resumeCommand + o.SessionID
	o.OnMessages = b.store
	b.configureRetained(o)
	if b.resumedFrom != "" {
		o.Prompt = b.prompt
		o.Pending = b.pending
		o.Started.ResumedFrom = b.resumedFrom
	}
}

// PendingQuestion is the call id of the question a resumed run answers
// first (its run ended input_required), "" otherwise.
func (b *Binding) PendingQuestion() string {
	if b.pending == nil || len(b.pending.Calls) == 0 {
		return ""
	}
	return b.pending.Calls[0].ID
}

// saveResumePoint stores what a later resume of this run starts from.
func (b *Binding) saveResumePoint(ctx context.Context) error {
	if b.resumePoint == (resumePoint{}) {
		return nil
	}
	doc, err := json.Marshal(b.resumePoint)
	if err != nil {
		return err
	}
	return b.st.SetResumePoint(ctx, b.RunID(), doc)
}

// WriteEvent implements events.Sink: it journals each event exactly as
// streamed and audits tool calls.
func (b *Binding) WriteEvent(e *events.Envelope, line []byte) error {
	b.lease.Journal(e.Seq, string(e.Type), line)
	switch p := e.Payload.(type) {
	case events.ToolCallP:
		args, _ := json.Marshal(p.Arguments)
		b.calls[p.CallID] = auditArguments(p.ToolID, p.Name, args)
		if p.ParentCallID != "" {
			b.parents[p.CallID] = p.ParentCallID
		}
	case events.ToolResultP:
		row := map[string]any{
			"run_id": e.RunID, "session_id": e.SessionID, "call_id": p.CallID, "tool": p.Name,
			"arguments": b.calls[p.CallID], "ok": p.OK, "bytes": p.Bytes, "truncated": p.Truncated, "duration_ms": p.DurationMS,
		}
		if p.Error != nil {
			row["error_code"] = p.Error.Code
		}
		data, _ := json.Marshal(row)
		// Written with the run's journal: a tool call costs no write of
		// its own.
		if err := b.lease.Audit(store.AuditTool, time.Now().UTC(), data); err != nil {
			return err
		}
	case events.RunCompletedP:
		b.completed, _ = json.Marshal(p)
	case tools.Question:
		b.question = p.CallID
	case tools.AskAnswerEvent:
		if p.CallID == b.question {
			b.question = ""
		}
	}
	return nil
}

// WatchCancel stops the run, through cancel, when another process asks
// (tavo runs cancel) or when the session's lease was lost to another
// machine (a shared store), until ctx ends.
func (b *Binding) WatchCancel(ctx context.Context, cancel context.CancelCauseFunc) {
	go func() {
		select {
		case <-b.lease.Cancelled():
			cancel(&runner.StopCause{Reason: "cancelled by `tavo runs cancel`", ExitCode: events.ExitInterrupted})
		case <-b.lease.Lost():
			// Another machine took the session after this one missed its
			// heartbeats: its store has marked this run interrupted, and
			// going on would write beside the new holder.
			cancel(&runner.StopCause{Reason: "the session's lease was lost: another machine took the session after this one missed its heartbeats",
				ExitCode: events.ExitInterrupted, Status: events.StatusInterrupted, Code: "interrupted"})
		case <-ctx.Done():
		}
	}()
}

// Finish records how the run ended (with run.completed's payload when it
// was journalled) and the images the session now retains, and releases the
// session. It records even when ctx is
// already cancelled, as it is after a signal. Later calls return the first
// call's result.
func (b *Binding) Finish(ctx context.Context, res *runner.Result) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	var err error
	if res.Status == events.StatusInputRequired && b.question != "" {
		// The question waiting for an answer is where a resume starts.
		b.resumePoint.PendingCall = b.question
		b.resumePoint.Program = b.parents[b.question]
		err = b.saveResumePoint(ctx)
	}
	if rerr := b.saveRetained(ctx); err == nil {
		err = rerr
	}
	if ferr := b.lease.Finish(ctx, res.Status, res.ExitCode, b.completed); ferr != nil {
		return ferr
	}
	return err
}
