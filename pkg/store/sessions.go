package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	sqlite3 "modernc.org/sqlite/lib"
)

// Session is a conversation that runs continue.
type Session struct {
	ID         string    `json:"id"`
	Title      string    `json:"title"`
	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	// Messages is how many messages are stored.
	Messages int `json:"messages"`
	// LastSeq is the seq of the newest message, 0 when there is none.
	LastSeq int64 `json:"last_seq"`
	// ActiveRun is the id of the run holding the session, "" when idle.
	ActiveRun string `json:"active_run,omitempty"`
}

// Page sizes of ListSessions.
const (
	DefaultSessionPage = 50
	MaxSessionPage     = 200
)

const sessionCols = `s.id, s.title, s.created_at, s.last_used_at, s.messages, s.last_seq,
	COALESCE((SELECT r.id FROM runs r WHERE r.session_id = s.id AND r.status = 'running'
		ORDER BY r.started_at DESC LIMIT 1), '')`

func scanSession(sc interface{ Scan(...any) error }) (Session, error) {
	var ss Session
	var created, used int64
	err := sc.Scan(&ss.ID, &ss.Title, &created, &used, &ss.Messages, &ss.LastSeq, &ss.ActiveRun)
	ss.CreatedAt, ss.LastUsedAt = fromNS(created), fromNS(used)
	return ss, err
}

// CreateSession stores a new, empty session. The title is trimmed and must
// be one line of 1–120 characters (AutoTitle makes one from a message);
// an id already in use is ErrInvalid.
func (s *Store) CreateSession(ctx context.Context, id, title string) (*Session, error) {
	if err := validID("session", id); err != nil {
		return nil, fmt.Errorf("store: creating a session: %w", err)
	}
	t, err := validTitle(title)
	if err != nil {
		return nil, fmt.Errorf("store: creating session %s: %w", id, err)
	}
	now := s.now()
	err = s.write(ctx, "creating session "+id, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, title, created_at, last_used_at) VALUES (?, ?, ?, ?)`,
			id, t, toNS(now), toNS(now))
		if sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT {
			return fmt.Errorf("session %s already exists: %w", id, ErrInvalid)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &Session{ID: id, Title: t, CreatedAt: fromNS(toNS(now)), LastUsedAt: fromNS(toNS(now))}, nil
}

// GetSession returns one session, ErrNotFound when there is none.
func (s *Store) GetSession(ctx context.Context, id string) (*Session, error) {
	var ss Session
	err := s.read(ctx, "reading session "+id, func() error {
		var err error
		ss, err = scanSession(s.db.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions s WHERE s.id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", id, ErrNotFound)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &ss, nil
}

// ListSessions returns up to limit sessions (0 = 50, at most 200), most
// recently used first, ties by id; next is the cursor of the following page,
// "" after the last one. Renaming a session does not move it.
func (s *Store) ListSessions(ctx context.Context, limit int, cursor string) ([]Session, string, error) {
	limit, err := pageLimit(limit, DefaultSessionPage, MaxSessionPage)
	if err != nil {
		return nil, "", fmt.Errorf("store: listing sessions: %w", err)
	}
	key, id, err := decodeCursor("ses", cursor)
	if err != nil {
		return nil, "", fmt.Errorf("store: listing sessions: %w", err)
	}
	q := `SELECT ` + sessionCols + ` FROM sessions s`
	args := []any{}
	if cursor != "" {
		q += ` WHERE s.last_used_at < ? OR (s.last_used_at = ? AND s.id > ?)`
		args = append(args, key, key, id)
	}
	q += ` ORDER BY s.last_used_at DESC, s.id LIMIT ?`
	args = append(args, limit+1)
	out, err := queryAll(ctx, s, "listing sessions", q, args, func(r *sql.Rows) (Session, error) { return scanSession(r) })
	if err != nil {
		return nil, "", err
	}
	out, next := cutPage(out, limit, func(last Session) string {
		return encodeCursor("ses", toNS(last.LastUsedAt), last.ID)
	})
	return out, next, nil
}

// RenameSession sets a session's title (same rules as CreateSession). It
// does not change when the session was last used.
func (s *Store) RenameSession(ctx context.Context, id, title string) error {
	t, err := validTitle(title)
	if err != nil {
		return fmt.Errorf("store: renaming session %s: %w", id, err)
	}
	return s.write(ctx, "renaming session "+id, func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE id = ?`, t, id))(
			fmt.Errorf("session %s: %w", id, ErrNotFound))
	})
}

// TouchSession marks a session used now (it moves to the top of the list).
func (s *Store) TouchSession(ctx context.Context, id string) error {
	now := toNS(s.now())
	return s.write(ctx, "touching session "+id, func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE sessions SET last_used_at = MAX(last_used_at, ?) WHERE id = ?`, now, id))(
			fmt.Errorf("session %s: %w", id, ErrNotFound))
	})
}

// DeleteSession removes a session with its messages, runs, event journals,
// compactions, todos and chat-scope variables. A session held by a live run
// is ErrSessionBusy; one that does not exist (any more) is not an error.
// The session's files (files/sessions/<id>/) are not the store's to remove.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	if err := validID("session", id); err != nil {
		return fmt.Errorf("store: deleting a session: %w", err)
	}
	lock, err := s.lockSession(id)
	if err != nil {
		return err
	}
	defer lock.Release()
	return s.write(ctx, "deleting session "+id, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM variables WHERE scope = 'chat' AND session_id = ?`, id); err != nil {
			return err
		}
		// Foreign keys cascade to messages, runs (and their events),
		// compactions and todos.
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
		return err
	})
}

// lockSession takes the session's run lock or fails with ErrSessionBusy.
func (s *Store) lockSession(id string) (SessionLock, error) {
	l, ok, err := s.engine().LockSession(context.Background(), id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("store: session %s is in use by a running run: %w", id, ErrSessionBusy)
	}
	return l, nil
}

// mustAffect turns an Exec result that changed no row into notFound.
func mustAffect(res sql.Result, err error) func(notFound error) error {
	return func(notFound error) error {
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return notFound
		}
		return nil
	}
}

func toNS(t time.Time) int64 { return t.UnixNano() }

func fromNS(n int64) time.Time { return time.Unix(0, n).UTC() }
