package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"time"
)

// busyRetries is how many times a statement that still found the database
// locked after the busy timeout is tried again. With busyTimeout that is
// over 20 s of contention before a caller sees an error, far beyond what
// short transactions of other tavo processes ever hold.
const busyRetries = 4

// write runs fn in one BEGIN IMMEDIATE transaction and commits it when fn
// returns nil; any error rolls everything back. Taking the write lock at
// BEGIN (not at the first write) means two writers never deadlock on a lock
// upgrade, so SQLITE_BUSY only ever means "wait", which the busy timeout and
// retries do. fn may run more than once, so it must be safe to repeat.
func (s *Store) write(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	if s.readOnly != nil {
		return s.readOnlyError(op)
	}
	select {
	case s.wsem <- struct{}{}:
	case <-ctx.Done():
		return s.dbError(op, ctx.Err())
	}
	defer func() { <-s.wsem }()
	err := retryBusy(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
	return s.dbError(op, err)
}

// read runs fn, retrying when SQLite reports the database busy (in WAL mode
// readers only meet that while another process recovers or resets the WAL).
func (s *Store) read(ctx context.Context, op string, fn func() error) error {
	return s.dbError(op, retryBusy(ctx, fn))
}

// retryBusy calls fn until it succeeds, fails with something other than
// SQLITE_BUSY, runs out of retries or ctx ends.
func retryBusy(ctx context.Context, fn func() error) error {
	var err error
	for attempt := 0; ; attempt++ {
		err = fn()
		if err == nil || !isBusy(err) || attempt >= busyRetries {
			return err
		}
		// Jitter keeps processes that collided from colliding again.
		wait := time.Duration(10<<attempt)*time.Millisecond + time.Duration(rand.N(20))*time.Millisecond
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (after %v)", ctx.Err(), err)
		}
	}
}
