package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// RunMeta describes a run being started.
type RunMeta struct {
	Profile, Provider, Model string
	// PID is the process running it; 0 means this process.
	PID int
	// ParentRunID is the run that started this one as a sub-agent ("" for
	// none): stored with the run, so a child costs no second write.
	ParentRunID string
	// Child, when set, creates the session first, as CreateChildSession
	// does, in the same transaction.
	Child *ChildSession
}

// Journal batching: a batch is written every Store.flushEvery or as soon
// as journalBatch lines are waiting, whichever comes first.
const (
	journalBatch = 64
	// journalTxMax bounds the lines one transaction writes, so a journal
	// that fell behind never holds the write lock long.
	journalTxMax = 2048
	// journalMaxPending bounds the lines waiting to be written. A run that
	// gets this far ahead of a working database waits for it (it would take
	// tens of thousands of events a second); when writes fail (disk full),
	// later lines are dropped and the loss reported instead.
	journalMaxPending = 1 << 16
	// finishTimeout bounds how long Finish may wait for the database.
	finishTimeout = 30 * time.Second
)

// Lease is a running run's hold on its session: while it exists no other
// run can start on the session, in this process or any other. It journals
// the run's events, stores its messages and reports cancel requests. Finish
// ends it; a process that dies leaves its run to be marked interrupted.
type Lease struct {
	s         *Store
	runID     string
	sessionID string
	lock      SessionLock

	mu       sync.Mutex
	drained  *sync.Cond // signalled after each journal write attempt
	pending  []journalLine
	audits   []auditLine // audit records waiting, written with the journal
	writeErr error       // the last journal write error, nil after a success
	lost     int         // journal lines dropped or never written
	// lostAudits counts audit records dropped or never written.
	lostAudits int
	finished   bool

	kick      chan struct{}
	stop      chan struct{}
	done      chan struct{}
	cancelled chan struct{}
	lockLost  chan struct{} // closed when the session's lock was lost

	finishOnce sync.Once
	finishErr  error

	// cancelNote receives when another process asks to cancel (engines
	// with notifications; nil otherwise); unwatch stops it.
	cancelNote <-chan struct{}
	unwatch    func()
}

// auditLine is an audit record a Lease writes with its next journal
// batch.
type auditLine struct {
	kind string
	at   int64
	data string
}

type journalLine struct {
	seq  int64
	typ  string
	line []byte
}

// BeginRun starts run runID on a session: it takes the session's lock
// without waiting (another live run holding it is ErrSessionBusy at once),
// marks runs left running there by dead processes interrupted, stores the
// run as running and marks the session used. An unknown session is
// ErrNotFound; a run id already used is ErrInvalid.
func (s *Store) BeginRun(ctx context.Context, runID, sessionID string, meta RunMeta) (*Lease, error) {
	op := "starting run " + runID
	if s.readOnly != nil {
		return nil, s.readOnlyError(op)
	}
	if err := validID("run", runID); err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	if err := validID("session", sessionID); err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	lock, err := s.lockSession(sessionID)
	if errors.Is(err, ErrSessionBusy) {
		if active := s.activeRun(ctx, sessionID); active != "" {
			err = fmt.Errorf("store: session %s is busy: run %s is running on it: %w", sessionID, active, ErrSessionBusy)
		}
	}
	if err != nil {
		return nil, err
	}
	if meta.PID == 0 {
		meta.PID = os.Getpid()
	}
	now := toNS(s.now())
	err = s.write(ctx, op, func(tx *sql.Tx) error {
		if meta.Child != nil {
			// A session made in this transaction has no runs, and its
			// last use is now: nothing to check, mark or touch.
			if _, err := createChild(ctx, tx, sessionID, *meta.Child, now); err != nil {
				return err
			}
		} else {
			if err := sessionExists(ctx, tx, sessionID); err != nil {
				return err
			}
			// We hold the lock, so any run still "running" here is a dead one.
			if _, err := markInterrupted(ctx, tx, sessionID, now); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO runs (id, session_id, status, started_at, profile, provider, model, pid, parent_run_id)
			VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?)`, runID, sessionID, now, meta.Profile, meta.Provider, meta.Model, meta.PID, meta.ParentRunID)
		if sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT {
			return fmt.Errorf("run id %s is already used: %w", runID, ErrInvalid)
		}
		if err != nil || meta.Child != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET last_used_at = MAX(last_used_at, ?) WHERE id = ?`, now, sessionID)
		return err
	})
	if err != nil {
		lock.Release()
		return nil, err
	}
	l := &Lease{
		s: s, runID: runID, sessionID: sessionID, lock: lock,
		kick:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
		cancelled: make(chan struct{}),
		lockLost:  make(chan struct{}),
	}
	l.drained = sync.NewCond(&l.mu)
	// Watch before the loop starts, and look once after, so a cancel
	// requested as soon as BeginRun returns is heard, not left to the poll.
	l.cancelNote, l.unwatch = s.engine().Watch(TopicCancel, runID)
	go l.loop()
	return l, nil
}

// activeRun returns the id of a running run of the session, "" when none
// is found.
func (s *Store) activeRun(ctx context.Context, sessionID string) string {
	var id string
	_ = s.db.QueryRowContext(ctx, `SELECT id FROM runs WHERE session_id = ? AND status = 'running' ORDER BY started_at DESC LIMIT 1`, sessionID).Scan(&id)
	return id
}

// RunID is the leased run's id.
func (l *Lease) RunID() string { return l.runID }

// SessionID is the leased run's session.
func (l *Lease) SessionID() string { return l.sessionID }

// AppendMessages stores messages of this run's session, as
// Store.AppendMessages. After Finish it is ErrNotRunning.
func (l *Lease) AppendMessages(ctx context.Context, round int, msgs []providers.Message) (int64, error) {
	l.mu.Lock()
	finished := l.finished
	l.mu.Unlock()
	if finished {
		return 0, fmt.Errorf("store: storing messages of run %s: it is finished: %w", l.runID, ErrNotRunning)
	}
	return l.s.AppendMessages(ctx, l.sessionID, l.runID, round, msgs)
}

// Cancelled is closed when a cancel was requested for this run (by
// Store.RequestCancel, from any process). Polling stops at Finish.
func (l *Lease) Cancelled() <-chan struct{} { return l.cancelled }

// Lost is closed when the run's hold on its session was lost (a shared
// store's lease, taken by another machine after this one missed its
// heartbeats): the session may now be another run's, so this one must
// stop. On the embedded engine a lock is never lost.
func (l *Lease) Lost() <-chan struct{} { return l.lockLost }

// Finish flushes the journal, records the run's end (status is
// run.completed's status, summary its payload) and releases the session.
// It records the end even when ctx is already cancelled, as it is when a
// run was interrupted by a signal. Later calls return the first call's
// result. The error, if any, also reports journal lines that could not be
// stored.
func (l *Lease) Finish(ctx context.Context, status string, exitCode int, summary json.RawMessage) error {
	if status == "" || status == StatusRunning {
		return fmt.Errorf("store: finishing run %s: status %q is not an end status: %w", l.runID, status, ErrInvalid)
	}
	if len(summary) > 0 && !json.Valid(summary) {
		return fmt.Errorf("store: finishing run %s: the summary is not valid JSON: %w", l.runID, ErrInvalid)
	}
	l.finishOnce.Do(func() { l.finishErr = l.finish(ctx, status, exitCode, summary) })
	return l.finishErr
}

func (l *Lease) finish(ctx context.Context, status string, exitCode int, summary json.RawMessage) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	l.mu.Lock()
	l.finished = true
	l.drained.Broadcast()
	l.mu.Unlock()
	close(l.stop)
	<-l.done
	defer l.lock.Release()

	l.mu.Lock()
	batch, audits := l.pending, l.audits
	l.pending, l.audits = nil, nil
	l.mu.Unlock()

	var sum any
	if len(summary) > 0 {
		sum = string(summary)
	}
	// end records the run's end and counts the new journal lines on it,
	// in one statement.
	end := func(tx *sql.Tx, events int64) error {
		res, err := tx.ExecContext(ctx, `UPDATE runs SET status = ?, ended_at = ?, exit_code = ?, summary = ?, events = events + ? WHERE id = ? AND status = 'running'`,
			status, toNS(l.s.now()), exitCode, sum, events, l.runID)
		if err != nil || events == 0 {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			// Already ended (marked interrupted from outside): the lines
			// are still counted.
			_, err = tx.ExecContext(ctx, `UPDATE runs SET events = events + ? WHERE id = ?`, events, l.runID)
		}
		return err
	}
	op := "finishing run " + l.runID
	err := l.s.write(ctx, op, func(tx *sql.Tx) error {
		n, err := insertEventRows(ctx, tx, l.runID, batch)
		if err != nil {
			return err
		}
		if err := insertAudits(ctx, tx, audits); err != nil {
			return err
		}
		return end(tx, n)
	})
	if err != nil && len(batch)+len(audits) > 0 {
		// Record the end without the events rather than leave the run
		// looking alive.
		l.mu.Lock()
		l.lost += len(batch)
		l.lostAudits += len(audits)
		l.writeErr = err
		l.mu.Unlock()
		err = l.s.write(ctx, op, func(tx *sql.Tx) error { return end(tx, 0) })
	}
	if err == nil {
		l.s.engine().Notify(ctx, TopicJournal, l.runID)
	}
	l.mu.Lock()
	jerr := l.journalErr()
	l.mu.Unlock()
	if err != nil {
		return err
	}
	return jerr
}

// loop writes the journal in batches and polls for cancel requests until
// Finish stops it.
func (l *Lease) loop() {
	defer close(l.done)
	flush := time.NewTicker(l.s.flushEvery)
	defer flush.Stop()
	poll := time.NewTicker(l.s.pollEvery)
	defer poll.Stop()
	// Where the engine has notifications, a cancel from another process
	// arrives at once; the poll stays as a safety net.
	defer l.unwatch()
	if l.cancelNote != nil {
		l.pollCancel()
	}
	var lockLost <-chan struct{}
	if ll, ok := l.lock.(LosableLock); ok {
		lockLost = ll.Lost()
	}
	for {
		select {
		case <-l.stop:
			return
		case <-lockLost:
			close(l.lockLost)
			lockLost = nil
		case <-l.cancelNote:
			l.pollCancel()
		case <-flush.C:
			l.flush()
		case <-l.kick:
			l.flush()
		case <-poll.C:
			l.pollCancel()
		}
	}
}

// pollCancel closes Cancelled once the run's row says cancel_requested.
func (l *Lease) pollCancel() {
	select {
	case <-l.cancelled:
		return
	default:
	}
	var req bool
	err := l.s.db.QueryRowContext(context.Background(), `SELECT cancel_requested FROM runs WHERE id = ?`, l.runID).Scan(&req)
	if err == nil && req {
		close(l.cancelled)
	}
}
