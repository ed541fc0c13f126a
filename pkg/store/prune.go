package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// PrunePlan says what a prune removes. Runs still running are never in it.
// Session messages are never removed by a prune: only run records and
// their event journals.
type PrunePlan struct {
	// Keep is how many of the newest ended runs are kept, KeepFull how many
	// of those keep their event journal.
	Keep     int `json:"keep"`
	KeepFull int `json:"keep_full"`
	// DeleteRuns are removed with their journals.
	DeleteRuns []string `json:"delete_runs"`
	// DropEvents are kept, but their journals are removed.
	DropEvents []string `json:"drop_events"`
	// FreedEvents is how many journaled events go.
	FreedEvents int `json:"freed_events"`
	// Running counts the runs left alone because they are in progress.
	Running int `json:"running"`
}

// pruneChunk is how many runs one prune transaction handles, so a large
// prune never holds the write lock long enough to stall other processes.
const pruneChunk = 50

// PlanPrune works out which runs a prune with these numbers would remove:
// the newest keep ended runs stay, the newest keepFull of them with their
// journal. It changes nothing. keep ≥ 0 and 0 ≤ keepFull ≤ keep, else
// ErrInvalid.
func (s *Store) PlanPrune(ctx context.Context, keep, keepFull int) (*PrunePlan, error) {
	if keep < 0 || keepFull < 0 || keepFull > keep {
		return nil, fmt.Errorf("store: planning a prune: need keep ≥ 0 and 0 ≤ keep-full ≤ keep (got %d and %d): %w", keep, keepFull, ErrInvalid)
	}
	p := &PrunePlan{Keep: keep, KeepFull: keepFull, DeleteRuns: []string{}, DropEvents: []string{}}
	err := s.read(ctx, "planning a prune", func() error {
		*p = PrunePlan{Keep: keep, KeepFull: keepFull, DeleteRuns: []string{}, DropEvents: []string{}}
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM runs WHERE status = 'running'`).Scan(&p.Running); err != nil {
			return err
		}
		rows, err := s.db.QueryContext(ctx, `SELECT id, events FROM runs WHERE status <> 'running' ORDER BY started_at DESC, id DESC`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for i := 0; rows.Next(); i++ {
			var id string
			var events int
			if err := rows.Scan(&id, &events); err != nil {
				return err
			}
			switch {
			case i < keepFull:
			case i < keep:
				if events > 0 {
					p.DropEvents = append(p.DropEvents, id)
					p.FreedEvents += events
				}
			default:
				p.DeleteRuns = append(p.DeleteRuns, id)
				p.FreedEvents += events
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ApplyPrune carries out a plan from PlanPrune, in small transactions. A
// run of the plan that has been removed meanwhile is skipped, and one that
// is running (it cannot be: only ended runs are planned) is never touched.
func (s *Store) ApplyPrune(ctx context.Context, p *PrunePlan) error {
	if p == nil {
		return fmt.Errorf("store: applying a prune: no plan: %w", ErrInvalid)
	}
	for ids := range slices.Chunk(p.DeleteRuns, pruneChunk) {
		err := s.write(ctx, "pruning runs", func(tx *sql.Tx) error {
			for _, id := range ids {
				// Events go with the run (ON DELETE CASCADE).
				if _, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE id = ? AND status <> 'running'`, id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for ids := range slices.Chunk(p.DropEvents, pruneChunk) {
		err := s.write(ctx, "dropping run journals", func(tx *sql.Tx) error {
			for _, id := range ids {
				res, err := tx.ExecContext(ctx, `UPDATE runs SET events = 0 WHERE id = ? AND status <> 'running'`, id)
				if err != nil {
					return err
				}
				if n, _ := res.RowsAffected(); n == 0 {
					continue
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE run_id = ?`, id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
