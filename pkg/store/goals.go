package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	idgen "github.com/tavo-cli/tavo/pkg/ids"
)

// scheduleMigration adds goals, loops and the wake-up of a run that ended
// with tavo_wait (SPEC §14). A session has at most one active goal (a
// partial unique index, which PostgreSQL has too). A loop keeps the session
// settings it was created with (config, JSON: session.Config) and the River
// job of the firing being worked (claimed_job), so a rescued job never
// replays a firing that already started.
const scheduleMigration = `
CREATE TABLE goals (
	id              TEXT PRIMARY KEY,
	session_id      TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	condition       TEXT NOT NULL,
	status          TEXT NOT NULL,
	max_turns       INTEGER NOT NULL,
	completed_turns INTEGER NOT NULL DEFAULT 0,
	reason          TEXT NOT NULL DEFAULT '',
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX goals_one_active ON goals (session_id) WHERE status = 'active';
CREATE INDEX goals_by_session ON goals (session_id, created_at);

CREATE TABLE loops (
	id              TEXT PRIMARY KEY,
	session_id      TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	prompt          TEXT NOT NULL,
	interval_ns     INTEGER NOT NULL,
	max_turns       INTEGER NOT NULL,
	completed_turns INTEGER NOT NULL DEFAULT 0,
	status          TEXT NOT NULL,
	reason          TEXT NOT NULL DEFAULT '',
	config          TEXT NOT NULL DEFAULT '',
	next_run_at     INTEGER NOT NULL,
	expires_at      INTEGER NOT NULL DEFAULT 0,
	last_run_id     TEXT NOT NULL DEFAULT '',
	claimed_job     INTEGER NOT NULL DEFAULT 0,
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL
);
CREATE INDEX loops_by_session ON loops (session_id, created_at);

ALTER TABLE runs ADD COLUMN wake_at INTEGER NOT NULL DEFAULT 0;
`

// Goal statuses (seed 004).
const (
	GoalActive    = "active"
	GoalCompleted = "completed"
	GoalCancelled = "cancelled"
	GoalExhausted = "exhausted"
)

// DefaultGoalMaxTurns is a goal's max_turns when none is given (seed 004).
const DefaultGoalMaxTurns = 50

// ErrGoalActive: the session already has an active goal.
var ErrGoalActive = errors.New("the session already has an active goal")

// ErrNotActive: the goal or loop has ended (or, for resume, is not paused).
var ErrNotActive = errors.New("not active")

// Goal is a condition tavo keeps working toward, turn after turn.
type Goal struct {
	ID             string    `json:"goal_id"`
	SessionID      string    `json:"session_id"`
	Condition      string    `json:"condition"`
	Status         string    `json:"status"`
	MaxTurns       int       `json:"max_turns"`
	CompletedTurns int       `json:"completed_turns"`
	Reason         string    `json:"reason,omitempty"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

const goalCols = `id, session_id, condition, status, max_turns, completed_turns, reason, created_at, updated_at`

func scanGoal(sc interface{ Scan(...any) error }) (Goal, error) {
	var g Goal
	var created, updated int64
	err := sc.Scan(&g.ID, &g.SessionID, &g.Condition, &g.Status, &g.MaxTurns, &g.CompletedTurns, &g.Reason, &created, &updated)
	g.CreatedAt, g.UpdatedAt = fromNS(created), fromNS(updated)
	return g, err
}

// CreateGoal adds an active goal to a session; ErrGoalActive when it has one
// already, ErrNotFound when the session does not exist. maxTurns < 1 means
// DefaultGoalMaxTurns.
func (s *Store) CreateGoal(ctx context.Context, sessionID, condition string, maxTurns int) (*Goal, error) {
	if maxTurns < 1 {
		maxTurns = DefaultGoalMaxTurns
	}
	now := s.now()
	g := Goal{ID: idgen.New("goal", now), SessionID: sessionID, Condition: condition, Status: GoalActive, MaxTurns: maxTurns,
		CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
	err := s.write(ctx, "creating a goal", func(tx *sql.Tx) error {
		if err := sessionExists(ctx, tx, sessionID); err != nil {
			return err
		}
		var other string
		err := tx.QueryRowContext(ctx, `SELECT id FROM goals WHERE session_id = ? AND status = ?`, sessionID, GoalActive).Scan(&other)
		if err == nil {
			return fmt.Errorf("%w (%s)", ErrGoalActive, other)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO goals (`+goalCols+`) VALUES (?, ?, ?, ?, ?, 0, '', ?, ?)`,
			g.ID, sessionID, condition, GoalActive, maxTurns, toNS(now), toNS(now))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// GetGoal returns one goal, ErrNotFound when there is none.
func (s *Store) GetGoal(ctx context.Context, id string) (*Goal, error) {
	gs, err := queryAll(ctx, s, "reading a goal", `SELECT `+goalCols+` FROM goals WHERE id = ?`, []any{id}, func(r *sql.Rows) (Goal, error) { return scanGoal(r) })
	if err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("goal %s: %w", id, ErrNotFound)
	}
	return &gs[0], nil
}

// ActiveGoal returns the session's active goal, nil when it has none.
func (s *Store) ActiveGoal(ctx context.Context, sessionID string) (*Goal, error) {
	gs, err := queryAll(ctx, s, "reading the active goal", `SELECT `+goalCols+` FROM goals WHERE session_id = ? AND status = ?`,
		[]any{sessionID, GoalActive}, func(r *sql.Rows) (Goal, error) { return scanGoal(r) })
	if err != nil || len(gs) == 0 {
		return nil, err
	}
	return &gs[0], nil
}

// ListGoals returns goals oldest first: the session's, or every session's
// when sessionID is ""; only those with status when it is not "".
func (s *Store) ListGoals(ctx context.Context, sessionID, status string) ([]Goal, error) {
	q := `SELECT ` + goalCols + ` FROM goals WHERE (? = '' OR session_id = ?) AND (? = '' OR status = ?) ORDER BY created_at, id`
	return queryAll(ctx, s, "listing goals", q, []any{sessionID, sessionID, status, status}, func(r *sql.Rows) (Goal, error) { return scanGoal(r) })
}

// EndGoal moves an active goal to status (completed, cancelled or
// exhausted) with reason; ErrNotActive when it has already ended.
func (s *Store) EndGoal(ctx context.Context, id, status, reason string) (*Goal, error) {
	return s.changeGoal(ctx, id, func(g *Goal) error {
		if g.Status != GoalActive {
			return fmt.Errorf("goal %s is %s: %w", id, g.Status, ErrNotActive)
		}
		g.Status, g.Reason = status, reason
		return nil
	})
}

// AdvanceGoal counts one more completed turn of an active goal: met
// completes it with reason, else it is exhausted when that was its last
// turn. ErrNotActive when it has ended.
func (s *Store) AdvanceGoal(ctx context.Context, id string, met bool, reason string) (*Goal, error) {
	return s.changeGoal(ctx, id, func(g *Goal) error {
		if g.Status != GoalActive {
			return fmt.Errorf("goal %s is %s: %w", id, g.Status, ErrNotActive)
		}
		g.CompletedTurns++
		switch {
		case met:
			g.Status, g.Reason = GoalCompleted, reason
		case g.CompletedTurns >= g.MaxTurns:
			g.Status, g.Reason = GoalExhausted, fmt.Sprintf("used all %d turns", g.MaxTurns)
		}
		return nil
	})
}

// changeGoal reads a goal, lets change edit it and writes it back, in one
// transaction.
func (s *Store) changeGoal(ctx context.Context, id string, change func(*Goal) error) (*Goal, error) {
	var g Goal
	err := s.write(ctx, "updating a goal", func(tx *sql.Tx) error {
		var err error
		g, err = scanGoal(tx.QueryRowContext(ctx, `SELECT `+goalCols+` FROM goals WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("goal %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if err := change(&g); err != nil {
			return err
		}
		now := s.now()
		g.UpdatedAt = now.UTC()
		_, err = tx.ExecContext(ctx, `UPDATE goals SET status = ?, completed_turns = ?, reason = ?, updated_at = ? WHERE id = ?`,
			g.Status, g.CompletedTurns, g.Reason, toNS(now), id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// SetRunWakeAt records when a run that ended with tavo_wait wants its
// session woken (status waiting).
func (s *Store) SetRunWakeAt(ctx context.Context, runID string, at time.Time) error {
	return s.write(ctx, "recording a wake-up", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE runs SET wake_at = ? WHERE id = ?`, toNS(at), runID)
		return err
	})
}

// RunWakeAt returns the wake-up a run recorded; zero when none.
func (s *Store) RunWakeAt(ctx context.Context, runID string) (time.Time, error) {
	var ns int64
	err := s.read(ctx, "reading a wake-up", func() error {
		return s.db.QueryRowContext(ctx, `SELECT wake_at FROM runs WHERE id = ?`, runID).Scan(&ns)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, fmt.Errorf("run %s: %w", runID, ErrNotFound)
	}
	if err != nil || ns == 0 {
		return time.Time{}, err
	}
	return fromNS(ns), nil
}

// ReapSession marks the session's running runs interrupted when no live
// process holds the session (a worker killed mid-run), as Open does for
// every session, and reports whether it marked any.
func (s *Store) ReapSession(ctx context.Context, sessionID string) (bool, error) {
	return s.reapSession(ctx, sessionID)
}
