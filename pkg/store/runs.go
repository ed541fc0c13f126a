package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// Run statuses the store itself sets; a finished run has run.completed's
// status (completed, failed, cancelled…).
const (
	StatusRunning = "running"
	// StatusInterrupted marks a run whose process died before finishing
	// it. It is never resumed or replayed.
	StatusInterrupted = "interrupted"
)

// Run is one execution of the model loop in a session.
type Run struct {
	ID        string     `json:"id"`
	SessionID string     `json:"session_id"`
	Status    string     `json:"status"`
	StartedAt time.Time  `json:"started_at"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
	ExitCode  *int       `json:"exit_code,omitempty"`
	Profile   string     `json:"profile,omitempty"`
	Provider  string     `json:"provider,omitempty"`
	Model     string     `json:"model,omitempty"`
	// Summary is the run.completed payload (nil while running and for an
	// interrupted run).
	Summary json.RawMessage `json:"summary,omitempty"`
	PID     int             `json:"pid,omitempty"`
	// Events is how many journaled events are stored (0 after a prune
	// dropped the journal).
	Events int `json:"events"`
	// CancelRequested says someone asked a running run to stop.
	CancelRequested bool `json:"cancel_requested,omitempty"`
}

// Page sizes of ListRuns and Events.
const (
	DefaultRunPage   = 50
	MaxRunPage       = 200
	DefaultEventPage = 500
	MaxEventPage     = 500
)

const runCols = `id, session_id, status, started_at, ended_at, exit_code, profile, provider, model, summary, pid, events, cancel_requested`

func scanRun(sc interface{ Scan(...any) error }) (Run, error) {
	var r Run
	var started int64
	var ended, exit sql.NullInt64
	var summary sql.NullString
	if err := sc.Scan(&r.ID, &r.SessionID, &r.Status, &started, &ended, &exit, &r.Profile, &r.Provider,
		&r.Model, &summary, &r.PID, &r.Events, &r.CancelRequested); err != nil {
		return r, err
	}
	r.StartedAt = fromNS(started)
	if ended.Valid {
		t := fromNS(ended.Int64)
		r.EndedAt = &t
	}
	if exit.Valid {
		c := int(exit.Int64)
		r.ExitCode = &c
	}
	if summary.Valid && summary.String != "" {
		r.Summary = json.RawMessage(summary.String)
	}
	return r, nil
}

// GetRun returns one run, ErrNotFound when there is none.
func (s *Store) GetRun(ctx context.Context, id string) (*Run, error) {
	var r Run
	err := s.read(ctx, "reading run "+id, func() error {
		var err error
		r, err = scanRun(s.db.QueryRowContext(ctx, `SELECT `+runCols+` FROM runs WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("run %s: %w", id, ErrNotFound)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// ListRuns returns up to limit runs (0 = 50, at most 200), newest first, of
// one session or of all ("" sessionID); next is the following page's cursor,
// "" after the last page.
func (s *Store) ListRuns(ctx context.Context, sessionID string, limit int, cursor string) ([]Run, string, error) {
	limit, err := pageLimit(limit, DefaultRunPage, MaxRunPage)
	if err != nil {
		return nil, "", fmt.Errorf("store: listing runs: %w", err)
	}
	key, id, err := decodeCursor("run", cursor)
	if err != nil {
		return nil, "", fmt.Errorf("store: listing runs: %w", err)
	}
	q := `SELECT ` + runCols + ` FROM runs WHERE 1 = 1`
	var args []any
	if sessionID != "" {
		q += ` AND session_id = ?`
		args = append(args, sessionID)
	}
	if cursor != "" {
		q += ` AND (started_at < ? OR (started_at = ? AND id < ?))`
		args = append(args, key, key, id)
	}
	q += ` ORDER BY started_at DESC, id DESC LIMIT ?`
	args = append(args, limit+1)
	out, err := queryAll(ctx, s, "listing runs", q, args, func(r *sql.Rows) (Run, error) { return scanRun(r) })
	if err != nil {
		return nil, "", err
	}
	out, next := cutPage(out, limit, func(last Run) string {
		return encodeCursor("run", toNS(last.StartedAt), last.ID)
	})
	return out, next, nil
}

// Events returns up to limit (0 = 500, at most 500) journaled lines of a run
// in ascending seq order, each exactly as streamed without its trailing
// newline. With beforeSeq > 0 it is the page just before beforeSeq (and
// after afterSeq); otherwise the page just after afterSeq. A run whose
// journal was pruned has none; an unknown run is ErrNotFound.
func (s *Store) Events(ctx context.Context, runID string, afterSeq, beforeSeq int64, limit int) ([][]byte, error) {
	op := "reading the events of run " + runID
	limit, err := pageLimit(limit, DefaultEventPage, MaxEventPage)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	order, reverse := "ASC", false
	if beforeSeq > 0 {
		order, reverse = "DESC", true
	} else {
		beforeSeq = math.MaxInt64
	}
	q := `SELECT line FROM events WHERE run_id = ? AND seq > ? AND seq < ? ORDER BY seq ` + order + ` LIMIT ?`
	out, err := queryAll(ctx, s, op, q, []any{runID, afterSeq, beforeSeq, limit}, func(r *sql.Rows) ([]byte, error) {
		var line []byte
		err := r.Scan(&line)
		return line, err
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		if _, err := s.GetRun(ctx, runID); err != nil {
			return nil, err
		}
		return out, nil
	}
	if reverse {
		slices.Reverse(out)
	}
	return out, nil
}

// RequestCancel asks a running run, in this or another process, to stop:
// its Lease's Cancelled channel closes within a poll interval. An unknown
// run is ErrNotFound, an ended one ErrNotRunning; a run whose process died
// is marked interrupted and reported as ErrNotRunning.
func (s *Store) RequestCancel(ctx context.Context, runID string) error {
	op := "cancelling run " + runID
	r, err := s.GetRun(ctx, runID)
	if err != nil {
		return err
	}
	if r.Status != StatusRunning {
		return fmt.Errorf("store: %s: it already ended (%s): %w", op, r.Status, ErrNotRunning)
	}
	reaped, err := s.reapSession(ctx, r.SessionID)
	if err != nil {
		return err
	}
	if reaped {
		return fmt.Errorf("store: %s: its process is gone; it is now marked %s: %w", op, StatusInterrupted, ErrNotRunning)
	}
	err = s.write(ctx, op, func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE runs SET cancel_requested = 1 WHERE id = ? AND status = 'running'`, runID))(
			fmt.Errorf("run %s ended meanwhile: %w", runID, ErrNotRunning))
	})
	if err == nil {
		s.engine().Notify(ctx, TopicCancel, runID)
	}
	return err
}

// recoverInterrupted marks interrupted every run left running by a process
// that is gone: its session's lock can be taken.
func (s *Store) recoverInterrupted(ctx context.Context) error {
	sessions, err := queryAll(ctx, s, "looking for interrupted runs", `SELECT DISTINCT session_id FROM runs WHERE status = 'running'`, nil,
		func(r *sql.Rows) (string, error) {
			var id string
			err := r.Scan(&id)
			return id, err
		})
	if err != nil {
		return err
	}
	for _, id := range sessions {
		if _, err := s.reapSession(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// reapSession marks the session's running runs interrupted when no live
// process holds the session, and reports whether it did. Holding the lock
// for the update keeps a new run from starting meanwhile.
func (s *Store) reapSession(ctx context.Context, sessionID string) (bool, error) {
	if validID("session", sessionID) != nil {
		return false, nil
	}
	lock, ok, err := s.engine().LockSession(ctx, sessionID)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, nil
	}
	defer lock.Release()
	var n int64
	err = s.write(ctx, "marking interrupted runs of session "+sessionID, func(tx *sql.Tx) error {
		var err error
		n, err = markInterrupted(ctx, tx, sessionID, toNS(s.now()))
		return err
	})
	return n > 0, err
}

// markInterrupted ends the session's running runs as interrupted. The
// caller holds the session lock, which proves their processes are gone.
func markInterrupted(ctx context.Context, tx *sql.Tx, sessionID string, now int64) (int64, error) {
	res, err := tx.ExecContext(ctx, `UPDATE runs SET status = 'interrupted', ended_at = ? WHERE session_id = ? AND status = 'running'`, now, sessionID)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
