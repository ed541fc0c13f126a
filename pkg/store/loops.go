package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	idgen "github.com/tavo-cli/tavo/pkg/ids"
)

// Loop statuses (seed 004).
const (
	LoopActive    = "active"
	LoopPaused    = "paused"
	LoopCompleted = "completed"
	LoopCancelled = "cancelled"
	LoopExhausted = "exhausted"
)

// Loop limits (SPEC §14).
const (
	// MinLoopInterval is the shortest interval between firings.
	MinLoopInterval = 10 * time.Second
	// DefaultLoopMaxTurns is a loop's max_turns when none is given.
	DefaultLoopMaxTurns = 10
)

// Loop is a prompt run in its session every Interval.
type Loop struct {
	ID        string `json:"loop_id"`
	SessionID string `json:"session_id"`
	Prompt    string `json:"prompt"`
	// Interval is the time between firings (JSON: interval_seconds).
	Interval       time.Duration `json:"-"`
	MaxTurns       int           `json:"max_turns"`
	CompletedTurns int           `json:"completed_turns"`
	Status         string        `json:"status"`
	Reason         string        `json:"reason,omitempty"`
	// Config is how the session was run when the loop was created
	// (session.Config as JSON); each firing runs with it.
	Config    json.RawMessage `json:"config,omitempty"`
	NextRunAt time.Time       `json:"next_run_at"`
	// ExpiresAt, when not zero, exhausts the loop once passed.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	LastRunID string    `json:"last_run_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// ClaimedJob is the scheduler job that last claimed a firing.
	ClaimedJob int64 `json:"-"`
}

// MarshalJSON adds interval_seconds.
func (l Loop) MarshalJSON() ([]byte, error) {
	type plain Loop
	return json.Marshal(struct {
		plain
		IntervalSeconds int64 `json:"interval_seconds"`
	}{plain(l), int64(l.Interval / time.Second)})
}

const loopCols = `id, session_id, prompt, interval_ns, max_turns, completed_turns, status, reason, config, next_run_at,
	expires_at, last_run_id, claimed_job, created_at, updated_at`

func scanLoop(sc interface{ Scan(...any) error }) (Loop, error) {
	var l Loop
	var interval, next, expires, created, updated int64
	var cfg string
	err := sc.Scan(&l.ID, &l.SessionID, &l.Prompt, &interval, &l.MaxTurns, &l.CompletedTurns, &l.Status, &l.Reason, &cfg,
		&next, &expires, &l.LastRunID, &l.ClaimedJob, &created, &updated)
	l.Interval = time.Duration(interval)
	l.NextRunAt, l.CreatedAt, l.UpdatedAt = fromNS(next), fromNS(created), fromNS(updated)
	if expires != 0 {
		l.ExpiresAt = fromNS(expires)
	}
	if cfg != "" {
		l.Config = json.RawMessage(cfg)
	}
	return l, err
}

// NewLoop is what CreateLoop needs.
type NewLoop struct {
	SessionID string
	Prompt    string
	Interval  time.Duration
	// MaxTurns < 1 means DefaultLoopMaxTurns.
	MaxTurns int
	// Config is the session's settings to fire with (JSON).
	Config json.RawMessage
	// ExpiresAt, when not zero, ends the loop (exhausted) once passed.
	ExpiresAt time.Time
}

// CreateLoop adds an active loop whose first firing is one interval from
// now; ErrNotFound when the session does not exist, ErrInvalid for an
// interval under MinLoopInterval or an empty prompt.
func (s *Store) CreateLoop(ctx context.Context, n NewLoop) (*Loop, error) {
	if n.Interval < MinLoopInterval {
		return nil, fmt.Errorf("loop interval %s is under the minimum %s: %w", n.Interval, MinLoopInterval, ErrInvalid)
	}
	if n.Prompt == "" {
		return nil, fmt.Errorf("a loop needs a prompt: %w", ErrInvalid)
	}
	if n.MaxTurns < 1 {
		n.MaxTurns = DefaultLoopMaxTurns
	}
	now := s.now()
	l := Loop{ID: idgen.New("loop", now), SessionID: n.SessionID, Prompt: n.Prompt, Interval: n.Interval, MaxTurns: n.MaxTurns,
		Status: LoopActive, Config: n.Config, NextRunAt: now.Add(n.Interval).UTC(), ExpiresAt: n.ExpiresAt, CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
	var expires int64
	if !n.ExpiresAt.IsZero() {
		expires = toNS(n.ExpiresAt)
	}
	err := s.write(ctx, "creating a loop", func(tx *sql.Tx) error {
		if err := sessionExists(ctx, tx, n.SessionID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO loops (`+loopCols+`) VALUES (?, ?, ?, ?, ?, 0, ?, '', ?, ?, ?, '', 0, ?, ?)`,
			l.ID, l.SessionID, l.Prompt, int64(l.Interval), l.MaxTurns, LoopActive, string(n.Config), toNS(l.NextRunAt), expires, toNS(now), toNS(now))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &l, nil
}

// GetLoop returns one loop, ErrNotFound when there is none.
func (s *Store) GetLoop(ctx context.Context, id string) (*Loop, error) {
	ls, err := queryAll(ctx, s, "reading a loop", `SELECT `+loopCols+` FROM loops WHERE id = ?`, []any{id}, func(r *sql.Rows) (Loop, error) { return scanLoop(r) })
	if err != nil {
		return nil, err
	}
	if len(ls) == 0 {
		return nil, fmt.Errorf("loop %s: %w", id, ErrNotFound)
	}
	return &ls[0], nil
}

// ListLoops returns loops oldest first: the session's, or every session's
// when sessionID is ""; only those with status when it is not "".
func (s *Store) ListLoops(ctx context.Context, sessionID, status string) ([]Loop, error) {
	q := `SELECT ` + loopCols + ` FROM loops WHERE (? = '' OR session_id = ?) AND (? = '' OR status = ?) ORDER BY created_at, id`
	return queryAll(ctx, s, "listing loops", q, []any{sessionID, sessionID, status, status}, func(r *sql.Rows) (Loop, error) { return scanLoop(r) })
}

// loopMoves are the status changes a person or the model may make.
var loopMoves = map[string][]string{
	LoopPaused:    {LoopActive},
	LoopActive:    {LoopPaused},
	LoopCompleted: {LoopActive, LoopPaused},
	LoopCancelled: {LoopActive, LoopPaused},
}

// SetLoopStatus moves a loop to status with reason: pause an active loop,
// resume (active) a paused one, complete or cancel either. Anything else is
// ErrNotActive. Resuming sets the next firing one interval from now.
func (s *Store) SetLoopStatus(ctx context.Context, id, status, reason string) (*Loop, error) {
	return s.changeLoop(ctx, id, func(l *Loop, now time.Time) error {
		ok := false
		for _, from := range loopMoves[status] {
			ok = ok || l.Status == from
		}
		if !ok {
			return fmt.Errorf("loop %s is %s, it cannot become %s: %w", id, l.Status, status, ErrNotActive)
		}
		if status == LoopActive {
			l.NextRunAt = now.Add(l.Interval).UTC()
		}
		l.Status, l.Reason = status, reason
		return nil
	})
}

// ClaimFiring records that job started the loop's firing as run runID,
// once the run holds the session. A job that finds its own claim when it
// starts is a job rescued from a worker that died mid-run: its firing
// must not run again (see FinishFiring).
func (s *Store) ClaimFiring(ctx context.Context, id string, job int64, runID string) (*Loop, error) {
	return s.changeLoop(ctx, id, func(l *Loop, _ time.Time) error {
		l.ClaimedJob, l.LastRunID = job, runID
		return nil
	})
}

// FinishFiring ends the firing job worked: it counts the firing when job
// had claimed it (ran is then true; a job finishes its claim once, after
// which ClaimedJob is -job) and sets the next firing one interval after now.
// job 0 is a firing that could not start: nothing is counted. A loop that
// used its max_turns or passed expires_at becomes exhausted; one that is
// no longer active keeps its status.
func (s *Store) FinishFiring(ctx context.Context, id string, job int64) (l *Loop, ran bool, err error) {
	l, err = s.changeLoop(ctx, id, func(l *Loop, now time.Time) error {
		if job != 0 {
			if l.ClaimedJob != job {
				return nil
			}
			ran = true
			l.ClaimedJob = -job
			l.CompletedTurns++
		}
		l.NextRunAt = now.Add(l.Interval).UTC()
		if l.Status != LoopActive {
			return nil
		}
		switch {
		case l.CompletedTurns >= l.MaxTurns:
			l.Status, l.Reason = LoopExhausted, fmt.Sprintf("ran all %d turns", l.MaxTurns)
		case !l.ExpiresAt.IsZero() && l.NextRunAt.After(l.ExpiresAt):
			l.Status, l.Reason = LoopExhausted, "expired"
		}
		return nil
	})
	return l, ran, err
}

// changeLoop reads a loop, lets change edit it and writes it back, in one
// transaction.
func (s *Store) changeLoop(ctx context.Context, id string, change func(*Loop, time.Time) error) (*Loop, error) {
	var l Loop
	err := s.write(ctx, "updating a loop", func(tx *sql.Tx) error {
		var err error
		l, err = scanLoop(tx.QueryRowContext(ctx, `SELECT `+loopCols+` FROM loops WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("loop %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		now := s.now()
		if err := change(&l, now); err != nil {
			return err
		}
		l.UpdatedAt = now.UTC()
		_, err = tx.ExecContext(ctx, `UPDATE loops SET status = ?, reason = ?, completed_turns = ?, next_run_at = ?, last_run_id = ?,
			claimed_job = ?, updated_at = ? WHERE id = ?`,
			l.Status, l.Reason, l.CompletedTurns, toNS(l.NextRunAt), l.LastRunID, l.ClaimedJob, toNS(now), id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &l, nil
}
