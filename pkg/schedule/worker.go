package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
)

// RunRequest is a run the worker starts in a session.
type RunRequest struct {
	SessionID string
	Prompt    string
	// Config, when set, is the session.Config (JSON) to run with: a loop's
	// settings recorded at its creation. Nil runs with the session's.
	Config json.RawMessage
	// LoopID is the loop whose firing this is ("" for none).
	LoopID string
	// OnBound is called once the run holds the session, with its id,
	// before the model is asked anything.
	OnBound func(runID string)
}

// RunOutcome is how a started run ended.
type RunOutcome struct {
	RunID    string
	Status   string
	ExitCode int
	WakeAt   *time.Time
}

// Starter starts a run in a session with its stored settings and waits
// for it: cmd's one run path, the one `tavo session send` takes. An error
// wrapping store.ErrSessionBusy means the session runs another run.
type Starter func(ctx context.Context, req RunRequest) (RunOutcome, error)

// Handler works tavo's jobs.
type Handler struct {
	Store *store.Store
	Start Starter
	// BusyWait is how long a job whose session is busy is snoozed
	// (default 10s).
	BusyWait time.Duration
	// Log reports each job's outcome in one line; nil is silent.
	Log func(format string, args ...any)

	queue *Queue
}

func (h *Handler) logf(format string, args ...any) {
	if h.Log != nil {
		h.Log(format, args...)
	}
}

func (h *Handler) busyWait() time.Duration { return cmpDur(h.BusyWait, 10*time.Second) }

// bookkeeping is a context for what must be recorded after a run even when
// the worker is stopping.
func bookkeeping(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
}

// InterruptCause is how a run the worker still has when its --grace
// passes ends: status interrupted (exit 130), resumable with `tavo runs
// resume` like a run whose process died.
func InterruptCause() *runner.StopCause {
	return &runner.StopCause{Reason: "the worker stopped before the run ended (its --grace passed)",
		ExitCode: events.ExitInterrupted, Status: events.StatusInterrupted, Code: "interrupted"}
}

// start starts req through h.Start. River cancels a job's context when the
// worker's grace has passed (StopAndCancel); the run then sees
// InterruptCause as the reason, so it ends interrupted, not cancelled.
func (h *Handler) start(ctx context.Context, req RunRequest) (RunOutcome, error) {
	runCtx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancel(nil)
	stop := context.AfterFunc(ctx, func() { cancel(InterruptCause()) })
	defer stop()
	return h.Start(runCtx, req)
}

// fireLoop works one loop firing.
func (h *Handler) fireLoop(ctx context.Context, job *river.Job[LoopFire]) error {
	id := job.Args.LoopID
	l, err := h.Store.GetLoop(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case l.ClaimedJob == -job.ID:
		return nil // finished already; River is only completing it again
	case l.ClaimedJob == job.ID:
		return h.rescued(ctx, job, l)
	case !l.NextRunAt.Equal(job.Args.Due) || l.Status != store.LoopActive:
		// Stale (the loop was resumed or rescheduled since) or not active:
		// resuming queues a new firing.
		return nil
	}
	var cfg json.RawMessage
	if len(l.Config) > 0 {
		cfg = l.Config
	}
	out, err := h.start(ctx, RunRequest{SessionID: l.SessionID, Prompt: l.Prompt, Config: cfg, LoopID: l.ID,
		OnBound: func(runID string) {
			bctx, cancel := bookkeeping(ctx)
			defer cancel()
			if _, err := h.Store.ClaimFiring(bctx, id, job.ID, runID); err != nil {
				h.logf("loop %s: recording the firing: %v", id, err)
			}
		}})
	if errors.Is(err, store.ErrSessionBusy) {
		h.logf("loop %s: session %s is busy; firing again in %s", id, l.SessionID, h.busyWait())
		return river.JobSnooze(h.busyWait())
	}
	bctx, cancel := bookkeeping(ctx)
	defer cancel()
	if err != nil {
		h.logf("loop %s: the firing could not start: %v", id, err)
		l, _, err = h.Store.FinishFiring(bctx, id, 0)
	} else {
		h.logf("loop %s: run %s %s", id, out.RunID, out.Status)
		l, _, err = h.Store.FinishFiring(bctx, id, job.ID)
		h.afterRun(bctx, l.SessionID, out)
	}
	if err != nil {
		return err
	}
	return h.next(bctx, l)
}

// rescued finishes a firing whose worker died mid-run: its run is marked
// interrupted (never replayed) and the next firing is queued. While the
// run is still alive (River took a slow job for a stuck one), the job
// waits for it.
func (h *Handler) rescued(ctx context.Context, job *river.Job[LoopFire], l *store.Loop) error {
	if _, err := h.Store.ReapSession(ctx, l.SessionID); err != nil {
		return err
	}
	if l.LastRunID != "" {
		r, err := h.Store.GetRun(ctx, l.LastRunID)
		if err == nil && r.Status == store.StatusRunning {
			return river.JobSnooze(h.busyWait())
		}
	}
	h.logf("loop %s: run %s was interrupted (its worker died); not replayed", l.ID, l.LastRunID)
	l, _, err := h.Store.FinishFiring(ctx, l.ID, job.ID)
	if err != nil {
		return err
	}
	return h.next(ctx, l)
}

// next queues the loop's next firing while it is active.
func (h *Handler) next(ctx context.Context, l *store.Loop) error {
	if l.Status != store.LoopActive {
		h.logf("loop %s: %s", l.ID, l.Status)
		return nil
	}
	return h.queue.ScheduleLoop(ctx, l)
}

// afterRun queues the wake-up a run declared.
func (h *Handler) afterRun(ctx context.Context, sessionID string, out RunOutcome) {
	if out.WakeAt == nil {
		return
	}
	if err := h.queue.ScheduleWake(ctx, sessionID, out.RunID, *out.WakeAt); err != nil {
		h.logf("session %s: %v", sessionID, err)
	}
}

// wake works a wake-up: a run of WakePrompt in the session.
//
// A job rescued from a worker that died wakes the session once: its
// interrupted run is left interrupted (never replayed) and a new wake-up
// run starts, unless the session has moved on since the run that asked to
// be woken (a later run in it ended some other way: the wake-up's run had
// finished before its worker died, or someone continued the session).
func (h *Handler) wake(ctx context.Context, job *river.Job[Wake]) error {
	what := "wake-up of " + job.Args.SessionID
	if job.Attempt > 1 {
		last, err := h.lastRun(ctx, job.Args.SessionID)
		if err != nil {
			return err
		}
		switch {
		case last != nil && last.Status == store.StatusRunning:
			return river.JobSnooze(h.busyWait()) // River took a slow job for a stuck one
		case last != nil && last.ID != job.Args.RunID && last.Status != store.StatusInterrupted:
			h.logf("%s: rescued, but run %s ended %s since; not woken again", what, last.ID, last.Status)
			return nil
		}
		h.logf("%s: rescued from a worker that died; waking the session", what)
	}
	_, err := h.runJob(ctx, what, RunRequest{SessionID: job.Args.SessionID, Prompt: WakePrompt})
	return err
}

// lastRun is the session's newest run once the runs that dead processes
// left running in it are marked interrupted; nil when it has none.
func (h *Handler) lastRun(ctx context.Context, sessionID string) (*store.Run, error) {
	if _, err := h.Store.ReapSession(ctx, sessionID); err != nil {
		return nil, err
	}
	runs, _, err := h.Store.ListRuns(ctx, sessionID, 1, "")
	if err != nil || len(runs) == 0 {
		return nil, err
	}
	return &runs[0], nil
}

// goalTurns works a detached goal run: the prompt, or once the goal has
// turns behind it the continuation message, in the goal's session.
//
// A job rescued from a worker that died, or whose run the worker
// interrupted when its grace passed, goes on with the goal's remaining
// turns: the interrupted run stays interrupted (not replayed, and not
// counted as a turn) and a new run continues the goal.
func (h *Handler) goalTurns(ctx context.Context, job *river.Job[GoalRun]) error {
	g, err := h.Store.GetGoal(ctx, job.Args.GoalID)
	if err != nil || g.Status != store.GoalActive {
		return nil
	}
	what := "goal " + g.ID
	if job.Attempt > 1 {
		last, err := h.lastRun(ctx, g.SessionID)
		if err != nil {
			return err
		}
		if last != nil && last.Status == store.StatusRunning {
			return river.JobSnooze(h.busyWait())
		}
		h.logf("%s: rescued from a worker that died; its turns go on", what)
	}
	prompt := job.Args.Prompt
	if g.CompletedTurns > 0 {
		prompt = Continuation(g)
	}
	out, err := h.runJob(ctx, what, RunRequest{SessionID: g.SessionID, Prompt: prompt})
	if err == nil && out.Status == events.StatusInterrupted {
		// The worker stopped mid-run: the next worker goes on with the
		// goal (a snooze keeps the job and is not counted as an attempt).
		return river.JobSnooze(0)
	}
	return err
}

// runJob starts req; a busy session snoozes the job.
func (h *Handler) runJob(ctx context.Context, what string, req RunRequest) (RunOutcome, error) {
	out, err := h.start(ctx, req)
	if errors.Is(err, store.ErrSessionBusy) {
		h.logf("%s: session %s is busy; trying again in %s", what, req.SessionID, h.busyWait())
		return out, river.JobSnooze(h.busyWait())
	}
	if err != nil {
		h.logf("%s: the run could not start: %v", what, err)
		return out, nil
	}
	h.logf("%s: run %s %s", what, out.RunID, out.Status)
	bctx, cancel := bookkeeping(ctx)
	defer cancel()
	h.afterRun(bctx, req.SessionID, out)
	return out, nil
}

// String describes a loop firing job in logs.
func (a LoopFire) String() string {
	return fmt.Sprintf("loop %s due %s", a.LoopID, a.Due.Format(time.RFC3339))
}
