package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"
)

// EventRow is one journaled event: its seq, type and line (as streamed,
// without the trailing newline).
type EventRow struct {
	Seq  int64
	Type string
	Line []byte
}

// scanChunk is how many journal lines one read of ScanEvents holds, so a
// journal of any length is read in constant memory and no read transaction
// stays open while the caller prints.
const scanChunk = 500

// DefaultFollowEvery is how often FollowEvents looks for new lines. A
// journal read by (run_id, seq) costs a few microseconds, so 10 ms keeps
// the delay from journaled to printed under the 50 ms target of SPEC §17
// at a negligible load.
const DefaultFollowEvery = 10 * time.Millisecond

// reapEvery is how often FollowEvents checks that a running run's process
// is still alive, so following a run whose process was killed ends.
const reapEvery = time.Second

// ScanEvents calls fn for each journaled event of a run with afterSeq <
// seq < beforeSeq (0: no upper bound), in seq order, reading scanChunk lines
// at a time. It stops at fn's first error and returns it; last is the seq
// of the last line handed over (afterSeq when none). An unknown run is
// ErrNotFound.
func (s *Store) ScanEvents(ctx context.Context, runID string, afterSeq, beforeSeq int64, fn func(EventRow) error) (last int64, err error) {
	if _, err := s.GetRun(ctx, runID); err != nil {
		return afterSeq, err
	}
	return s.scanEvents(ctx, runID, afterSeq, beforeSeq, fn)
}

func (s *Store) scanEvents(ctx context.Context, runID string, afterSeq, beforeSeq int64, fn func(EventRow) error) (int64, error) {
	if beforeSeq <= 0 {
		beforeSeq = math.MaxInt64
	}
	last := afterSeq
	for {
		rows, err := queryAll(ctx, s, "reading the events of run "+runID,
			`SELECT seq, type, line FROM events WHERE run_id = ? AND seq > ? AND seq < ? ORDER BY seq LIMIT ?`,
			[]any{runID, last, beforeSeq, scanChunk}, func(r *sql.Rows) (EventRow, error) {
				var e EventRow
				err := r.Scan(&e.Seq, &e.Type, &e.Line)
				return e, err
			})
		if err != nil {
			return last, err
		}
		for _, e := range rows {
			if err := fn(e); err != nil {
				return last, err
			}
			last = e.Seq
		}
		if len(rows) < scanChunk {
			return last, nil
		}
	}
}

// FollowEvents hands fn every event of a run after afterSeq as it is
// journaled, by this process or any other sharing the data directory,
// polling every `every` (0: DefaultFollowEvery). It returns after the
// run.completed line, or, when the run ended without one (its process
// died, or its journal was pruned), once the run is no longer running and
// every line stored has been handed over. Memory stays constant however
// long the run. An unknown run is ErrNotFound; ctx ending stops it with
// ctx's error.
func (s *Store) FollowEvents(ctx context.Context, runID string, afterSeq int64, every time.Duration, fn func(EventRow) error) error {
	if every <= 0 {
		every = DefaultFollowEvery
	}
	run, err := s.GetRun(ctx, runID)
	if err != nil {
		return err
	}
	done := false
	visit := func(e EventRow) error {
		if err := fn(e); err != nil {
			return err
		}
		if e.Type == "run.completed" {
			done = true
			return errStopScan
		}
		return nil
	}
	// Where the engine notifies new lines, wait for that instead of
	// polling; the ticker then only catches a lost notification and the
	// death of the run's holder.
	note, unwatch := s.engine().Watch(TopicJournal, runID)
	defer unwatch()
	if note != nil {
		every = max(every, reapEvery)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	lastReap := time.Now()
	for {
		last, err := s.scanEvents(ctx, runID, afterSeq, 0, visit)
		if done {
			return nil
		}
		if err != nil {
			return err
		}
		moved := last > afterSeq
		afterSeq = last
		if !moved {
			// Nothing new: has the run ended without a run.completed?
			// Read the lines once more after seeing it end, since its last
			// ones may have been written just before.
			status, err := s.runStatus(ctx, runID)
			if err != nil {
				return err
			}
			if status == StatusRunning && time.Since(lastReap) >= reapEvery {
				lastReap = time.Now()
				if _, err := s.reapSession(ctx, run.SessionID); err != nil {
					return err
				}
				if status, err = s.runStatus(ctx, runID); err != nil {
					return err
				}
			}
			if status != StatusRunning {
				if _, err := s.scanEvents(ctx, runID, afterSeq, 0, visit); err != nil && !done {
					return err
				}
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		case <-note:
		}
	}
}

// errStopScan ends a scan early without being an error to the caller.
var errStopScan = fmt.Errorf("store: scan stopped")

// runStatus is a run's status; a run removed meanwhile (pruned) counts as
// ended.
func (s *Store) runStatus(ctx context.Context, runID string) (string, error) {
	var status string
	err := s.read(ctx, "reading the status of run "+runID, func() error {
		err := s.db.QueryRowContext(ctx, `SELECT status FROM runs WHERE id = ?`, runID).Scan(&status)
		if err == sql.ErrNoRows {
			status, err = "deleted", nil
		}
		return err
	})
	return status, err
}
