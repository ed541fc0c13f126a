package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/store"
)

// LockSession takes the session's lease when nobody holds it or its
// holder's lease expired: one statement, so two machines racing for it
// cannot both win. While held, a heartbeat every third of the lease's life
// keeps it; Release deletes it. A holder killed with kill -9 (or whose
// machine is gone) stops beating, and its lease expires after LeaseTTL.
func (e *Engine) LockSession(ctx context.Context, sessionID string) (store.SessionLock, bool, error) {
	holder := newHolder()
	res, err := e.db.ExecContext(ctx, `INSERT INTO session_leases (session_id, holder, expires_at)
		VALUES (?, ?, tavo_now_ns() + ?)
		ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
		WHERE session_leases.expires_at < tavo_now_ns()`, sessionID, holder, e.ttl.Nanoseconds())
	if err != nil {
		return nil, false, e.errorf("taking the lease of session %s: %w", sessionID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return nil, false, nil
	}
	l := &lease{e: e, sessionID: sessionID, holder: holder, stop: make(chan struct{}), done: make(chan struct{}), lost: make(chan struct{})}
	go l.beat()
	return l, true, nil
}

// newHolder is a random token naming one hold of one lease.
func newHolder() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type lease struct {
	e         *Engine
	sessionID string
	holder    string
	stop      chan struct{}
	done      chan struct{}
	lost      chan struct{} // closed when a beat finds the lease taken
	once      sync.Once
}

// Lost is closed when a heartbeat found the lease held by someone else:
// it expired (beats failed for its whole life) and another store took it.
func (l *lease) Lost() <-chan struct{} { return l.lost }

// beat renews the lease every third of its life until Release. A failed
// renewal is tried again at the next beat; the lease survives two missed
// beats. A renewal that finds the lease no longer ours closes lost and
// stops beating.
func (l *lease) beat() {
	defer close(l.done)
	t := time.NewTicker(l.e.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), l.e.ttl/3)
			res, err := l.e.db.ExecContext(ctx, `UPDATE session_leases SET expires_at = tavo_now_ns() + ?
				WHERE session_id = ? AND holder = ?`, l.e.ttl.Nanoseconds(), l.sessionID, l.holder)
			cancel()
			if err == nil {
				if n, err := res.RowsAffected(); err == nil && n == 0 {
					close(l.lost)
					return
				}
			}
		}
	}
}

// Release stops the heartbeat and gives the lease up.
func (l *lease) Release() {
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = l.e.db.ExecContext(ctx, `DELETE FROM session_leases WHERE session_id = ? AND holder = ?`, l.sessionID, l.holder)
	})
}
