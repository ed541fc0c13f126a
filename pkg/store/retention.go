package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Retention says what ApplyRetention removes; zero fields are off.
type Retention struct {
	// RunsOlderThan removes ended runs (with their journals) that started
	// longer ago. Session messages stay: they are the conversation.
	RunsOlderThan time.Duration
	// KeepFull keeps the journals of only this many newest ended runs.
	KeepFull int
	// AuditOlderThan removes audit rows older than this.
	AuditOlderThan time.Duration
}

// RetentionReport says what one ApplyRetention did.
type RetentionReport struct {
	// Skipped: retention ran less than RetentionEvery ago; nothing done.
	Skipped bool `json:"skipped"`
	// Done: everything due is removed; the next pass is a day away.
	// False when the time budget ran out first: the next command goes on.
	Done          bool  `json:"done"`
	DeletedRuns   int64 `json:"deleted_runs"`
	DroppedEvents int64 `json:"dropped_journals"`
	DeletedAudit  int64 `json:"deleted_audit"`
}

// RetentionEvery is how often retention runs at most.
const RetentionEvery = 24 * time.Hour

// RetentionBudget bounds the time one ApplyRetention spends removing, so a
// command that opens the store never waits long for a backlog (a first pass
// over a year of runs): what is left is removed by the next commands.
const RetentionBudget = 250 * time.Millisecond

// retentionChunk is how many runs or audit rows one transaction removes;
// each holds the write lock only briefly.
const retentionChunk = 200

// retentionKey is the kv row holding when retention last finished.
const retentionKey = "retention.done_at"

// ApplyRetention removes what r says is too old, at most once every
// RetentionEvery (force ignores that) and for at most RetentionBudget:
// runs that started before now − RunsOlderThan (never a running one) with
// their journals, the journals of ended runs beyond the KeepFull newest,
// audit rows before now − AuditOlderThan. A zero r does nothing.
func (s *Store) ApplyRetention(ctx context.Context, r Retention, force bool) (*RetentionReport, error) {
	rep := &RetentionReport{}
	if r == (Retention{}) {
		rep.Done = true
		return rep, nil
	}
	now := s.now()
	if !force {
		last, err := s.retentionDoneAt(ctx)
		if err != nil {
			return nil, err
		}
		if !last.IsZero() && now.Sub(last) < RetentionEvery && !last.After(now) {
			rep.Skipped = true
			return rep, nil
		}
	}
	deadline := time.Now().Add(RetentionBudget)
	steps := []func() (int64, error){}
	if r.RunsOlderThan > 0 {
		cutoff := toNS(now.Add(-r.RunsOlderThan))
		steps = append(steps, func() (int64, error) {
			n, err := s.retentionChunk(ctx, "removing old runs", `DELETE FROM runs WHERE id IN
				(SELECT id FROM runs WHERE started_at < ? AND status <> 'running' ORDER BY started_at LIMIT ?)`, cutoff)
			rep.DeletedRuns += n
			return n, err
		})
	}
	if r.KeepFull > 0 {
		steps = append(steps, func() (int64, error) {
			n, err := s.dropOldJournals(ctx, r.KeepFull)
			rep.DroppedEvents += n
			return n, err
		})
	}
	if r.AuditOlderThan > 0 {
		cutoff := toNS(now.Add(-r.AuditOlderThan))
		steps = append(steps, func() (int64, error) {
			n, err := s.retentionChunk(ctx, "removing old audit rows", `DELETE FROM audit WHERE id IN
				(SELECT id FROM audit WHERE time < ? ORDER BY time LIMIT ?)`, cutoff)
			rep.DeletedAudit += n
			return n, err
		})
	}
	for _, step := range steps {
		for {
			if time.Now().After(deadline) {
				return rep, nil
			}
			n, err := step()
			if err != nil {
				return rep, err
			}
			if n < retentionChunk {
				break
			}
		}
	}
	rep.Done = true
	err := s.write(ctx, "recording the retention pass", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			retentionKey, strconv.FormatInt(toNS(now), 10), toNS(now))
		return err
	})
	return rep, err
}

// retentionChunk runs one bounded DELETE (its last parameter is the chunk
// size) and returns how many rows went.
func (s *Store) retentionChunk(ctx context.Context, op, q string, args ...any) (int64, error) {
	var n int64
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q, append(args, retentionChunk)...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// dropOldJournals removes the journals of up to retentionChunk ended runs
// older than the keepFull newest, found through the runs_with_events index.
func (s *Store) dropOldJournals(ctx context.Context, keepFull int) (int64, error) {
	var n int64
	err := s.write(ctx, "dropping old run journals", func(tx *sql.Tx) error {
		var edge int64
		var edgeID string
		err := tx.QueryRowContext(ctx, `SELECT started_at, id FROM runs WHERE status <> 'running'
			ORDER BY started_at DESC, id DESC LIMIT 1 OFFSET ?`, keepFull-1).Scan(&edge, &edgeID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // fewer ended runs than keepFull
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT id FROM runs WHERE events > 0 AND status <> 'running'
			AND (started_at < ? OR (started_at = ? AND id < ?)) LIMIT ?`, edge, edge, edgeID, retentionChunk)
		if err != nil {
			return err
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE run_id = ?`, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE runs SET events = 0 WHERE id = ?`, id); err != nil {
				return err
			}
		}
		n = int64(len(ids))
		return nil
	})
	return n, err
}

// retentionDoneAt is when retention last finished, zero when never.
func (s *Store) retentionDoneAt(ctx context.Context) (time.Time, error) {
	var v string
	err := s.read(ctx, "reading when retention last ran", func() error {
		err := s.db.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, retentionKey).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil || v == "" {
		return time.Time{}, err
	}
	ns, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: the retention mark %q is not a time: %w", v, ErrInvalid)
	}
	return fromNS(ns), nil
}
