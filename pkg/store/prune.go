package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
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
//
// A prune is how a user frees space, so it works on a full disk: when a
// write meets a full disk (or the store was opened read-only because the
// disk was full), the space reserve (ReserveName) is deleted, the store is
// opened for writing again, and the prune is carried out one run per
// transaction with a checkpoint after each, so the WAL never grows past
// one run's pages. Afterwards the freed pages go back to the file system
// (incremental vacuum, on stores made with it), the WAL is truncated, and
// the reserve is made again when there is room.
func (s *Store) ApplyPrune(ctx context.Context, p *PrunePlan) error {
	if p == nil {
		return fmt.Errorf("store: applying a prune: no plan: %w", ErrInvalid)
	}
	if s.readOnly != nil {
		if !diskFull(s.readOnly) {
			return s.readOnlyError("pruning runs")
		}
		return pruneOnFullDisk(ctx, s.dir, p)
	}
	err := s.applyPrune(ctx, p, pruneChunk, false)
	if diskFull(err) {
		releaseReserve(s.dir)
		err = s.applyPrune(ctx, p, 1, true)
	}
	if err != nil {
		return err
	}
	s.engine().Reclaim(ctx)
	if s.eng == nil {
		ensureReserve(s.dir)
	}
	return nil
}

// pruneOnFullDisk prunes the store of dir after Open found the disk too
// full to open it for writing: the reserve makes room for the WAL and its
// index, and the prune goes one run at a time.
func pruneOnFullDisk(ctx context.Context, dir string, p *PrunePlan) error {
	releaseReserve(dir)
	w, err := openWritable(ctx, dir)
	if err != nil {
		return fmt.Errorf("store: pruning runs: the disk holding data dir %s is too full to open the database even without its space reserve (%s); delete other files on that disk first: %w", dir, ReserveName, err)
	}
	defer w.Close()
	if err := w.applyPrune(ctx, p, 1, true); err != nil {
		return err
	}
	w.reclaim(ctx)
	ensureReserve(dir)
	return nil
}

// applyPrune deletes chunk runs per transaction; with checkpoint, the WAL
// is checkpointed after each so that SQLite writes the next one from its
// start instead of growing it.
func (s *Store) applyPrune(ctx context.Context, p *PrunePlan, chunk int, checkpoint bool) error {
	for ids := range slices.Chunk(p.DeleteRuns, chunk) {
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
		if checkpoint {
			s.checkpoint(ctx, "PASSIVE")
		}
	}
	for ids := range slices.Chunk(p.DropEvents, chunk) {
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
		if checkpoint {
			s.checkpoint(ctx, "PASSIVE")
		}
	}
	return nil
}

// reclaim gives a prune's freed space back to the file system, as far as
// it can: the free pages are cut off the end of the database (a no-op on
// a store made before auto_vacuum was set: those need one VACUUM), and
// the WAL is checkpointed and truncated to zero bytes. The vacuum goes
// vacuumStep pages per transaction with a checkpoint after each, so on a
// nearly full disk the WAL stays small and the database file shrinks step
// by step. Failures are ignored: the prune itself is done, and another
// process reading the database may simply keep the WAL for now.
func (s *Store) reclaim(ctx context.Context) {
	var free int
	if s.db.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&free) != nil {
		return
	}
	for steps := free/vacuumStep + 1; steps > 0 && free > 0; steps-- {
		select {
		case s.wsem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		_, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA incremental_vacuum(%d)", vacuumStep))
		<-s.wsem
		if err != nil {
			break
		}
		s.checkpoint(ctx, "PASSIVE")
		if s.db.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&free) != nil {
			break
		}
	}
	s.checkpoint(ctx, "TRUNCATE")
}

// vacuumStep is how many free pages one reclaim transaction gives back.
const vacuumStep = 256

// checkpoint runs PRAGMA wal_checkpoint(mode), ignoring failures (a
// checkpoint is an optimisation here, never needed for correctness).
func (s *Store) checkpoint(ctx context.Context, mode string) {
	var busy, logPages, done int
	_ = s.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &logPages, &done)
}

// ReserveName is the space reserve in the data directory: ReserveSize
// bytes that nothing uses, deleted by a prune that meets a full disk so
// SQLite has room for its WAL, and made again afterwards.
const ReserveName = "tavo.reserve"

// ReserveSize is the reserve's size: room for about a thousand WAL pages,
// more than one run's deletion writes.
const ReserveSize = 4 << 20

// ensureReserve makes the reserve when it is missing. Its blocks are really
// allocated (fallocate, else written zeros; never a sparse file), so
// deleting it frees that space; when the disk is too full for it, it is
// left out and made by a later Open.
func ensureReserve(dir string) {
	path := filepath.Join(dir, ReserveName)
	if _, err := os.Lstat(path); err == nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return // another process is making it, or the directory is full
	}
	if err = allocate(f, ReserveSize); err != nil {
		// No fallocate (or a file system without it): real zeros.
		buf := make([]byte, 64<<10)
		err = nil
		for n := 0; n < ReserveSize && err == nil; n += len(buf) {
			_, err = f.Write(buf)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
}

// releaseReserve deletes the reserve, reporting whether there was one.
func releaseReserve(dir string) bool {
	return os.Remove(filepath.Join(dir, ReserveName)) == nil
}
