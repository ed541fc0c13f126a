package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	sqlite3 "modernc.org/sqlite/lib"
)

// treeMigration links sub-agent sessions to the session that started them
// (SPEC §13): parent_session_id is the direct parent, root_session_id the
// top of the tree ("" for a session that is no sub-agent), and a child's
// runs name the parent run they were started from.
const treeMigration = `
ALTER TABLE sessions ADD COLUMN parent_session_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN root_session_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN parent_run_id TEXT NOT NULL DEFAULT '';
CREATE INDEX sessions_by_parent ON sessions (parent_session_id) WHERE parent_session_id <> '';
CREATE INDEX sessions_by_root ON sessions (root_session_id) WHERE root_session_id <> '';
CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id <> '';
`

// TreeSession is a session with its place in a sub-agent tree.
type TreeSession struct {
	Session
	// ParentSessionID is the session that started this one; "" for a root.
	ParentSessionID string `json:"parent_session_id"`
	// RootSessionID is the top of the tree; a root names itself.
	RootSessionID string `json:"root_session_id"`
	// Depth is 0 for the root, 1 for its children, and so on.
	Depth int `json:"depth"`
	// Status is the status of the session's newest run ("" when none).
	Status string `json:"status"`
}

// ChildSession describes a sub-agent session to create.
type ChildSession struct {
	// Title follows CreateSession's rules.
	Title string
	// ParentSessionID is the session that starts it; it must exist.
	ParentSessionID string
	// Config is how the session is run (SetSessionConfig's doc); nil for
	// none. Stored with the session, so it costs no write of its own.
	Config json.RawMessage
}

// CreateChildSession stores a new, empty session started by session
// parentID as a sub-agent: its root is the parent's root (or the parent
// when the parent is a root). The title follows CreateSession's rules; an
// unknown parent is ErrNotFound. BeginRun with RunMeta.Child does the same
// in the run's own transaction.
func (s *Store) CreateChildSession(ctx context.Context, id, title, parentID string) (*TreeSession, error) {
	var ts *TreeSession
	// One transaction: a sub-agent starts on the parent's critical path.
	err := s.write(ctx, "creating session "+id, func(tx *sql.Tx) error {
		var err error
		ts, err = createChild(ctx, tx, id, ChildSession{Title: title, ParentSessionID: parentID}, toNS(s.now()))
		return err
	})
	if err != nil {
		return nil, err
	}
	return ts, nil
}

// createChild inserts sub-agent session id in tx.
func createChild(ctx context.Context, tx *sql.Tx, id string, c ChildSession, now int64) (*TreeSession, error) {
	if err := validID("session", id); err != nil {
		return nil, fmt.Errorf("creating a session: %w", err)
	}
	t, err := validTitle(c.Title)
	if err != nil {
		return nil, fmt.Errorf("creating session %s: %w", id, err)
	}
	if len(c.Config) > 0 && (!json.Valid(c.Config) || c.Config[0] != '{') {
		return nil, fmt.Errorf("creating session %s: the config is not a JSON object: %w", id, ErrInvalid)
	}
	var root string
	err = tx.QueryRowContext(ctx, `SELECT root_session_id FROM sessions WHERE id = ?`, c.ParentSessionID).Scan(&root)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("parent session %s: %w", c.ParentSessionID, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if root == "" {
		root = c.ParentSessionID
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO sessions (id, title, created_at, last_used_at, parent_session_id, root_session_id, config)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, id, t, now, now, c.ParentSessionID, root, string(c.Config))
	if sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT {
		return nil, fmt.Errorf("session %s already exists: %w", id, ErrInvalid)
	}
	if err != nil {
		return nil, err
	}
	at := fromNS(now)
	return &TreeSession{Session: Session{ID: id, Title: t, CreatedAt: at, LastUsedAt: at}, ParentSessionID: c.ParentSessionID, RootSessionID: root}, nil
}

const treeCols = sessionCols + `, s.parent_session_id, s.root_session_id,
	COALESCE((SELECT r.status FROM runs r WHERE r.session_id = s.id ORDER BY r.started_at DESC, r.id DESC LIMIT 1), '')`

func scanTreeSession(sc interface{ Scan(...any) error }) (TreeSession, error) {
	var ts TreeSession
	var created, used int64
	err := sc.Scan(&ts.ID, &ts.Title, &created, &used, &ts.Messages, &ts.LastSeq, &ts.ActiveRun,
		&ts.ParentSessionID, &ts.RootSessionID, &ts.Status)
	ts.CreatedAt, ts.LastUsedAt = fromNS(created), fromNS(used)
	if ts.RootSessionID == "" {
		ts.RootSessionID = ts.ID
	}
	return ts, err
}

// TreeSession returns one session with its parent and root (Depth is left
// 0: SessionTree computes depths); ErrNotFound when there is none.
func (s *Store) TreeSession(ctx context.Context, id string) (*TreeSession, error) {
	var ts TreeSession
	err := s.read(ctx, "reading session "+id, func() error {
		var err error
		ts, err = scanTreeSession(s.db.QueryRowContext(ctx, `SELECT `+treeCols+` FROM sessions s WHERE s.id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", id, ErrNotFound)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if ts.ParentSessionID != "" {
		// Depth from the chain of parents; trees are at most a few deep.
		for p, seen := ts.ParentSessionID, 0; p != "" && seen < 64; seen++ {
			ts.Depth++
			var next string
			err := s.read(ctx, "reading session "+p, func() error {
				return s.db.QueryRowContext(ctx, `SELECT parent_session_id FROM sessions WHERE id = ?`, p).Scan(&next)
			})
			if err != nil {
				break
			}
			p = next
		}
	}
	return &ts, nil
}

// SessionTree returns the tree session id belongs to, from its root: every
// member in depth-first order (a parent before its children, siblings
// oldest first). An unknown session is ErrNotFound.
func (s *Store) SessionTree(ctx context.Context, id string) ([]TreeSession, error) {
	ts, err := s.TreeSession(ctx, id)
	if err != nil {
		return nil, err
	}
	root := ts.RootSessionID
	members, err := queryAll(ctx, s, "reading the tree of session "+root,
		`SELECT `+treeCols+` FROM sessions s WHERE s.id = ? OR s.root_session_id = ? ORDER BY s.created_at, s.id`,
		[]any{root, root}, func(r *sql.Rows) (TreeSession, error) { return scanTreeSession(r) })
	if err != nil {
		return nil, err
	}
	return orderTree(root, members), nil
}

// Subtree returns session id and its descendants, depth-first; Depth is
// counted from the tree's root.
func (s *Store) Subtree(ctx context.Context, id string) ([]TreeSession, error) {
	all, err := s.SessionTree(ctx, id)
	if err != nil {
		return nil, err
	}
	for i, m := range all {
		if m.ID != id {
			continue
		}
		end := i + 1
		for end < len(all) && all[end].Depth > m.Depth {
			end++
		}
		return all[i:end], nil
	}
	return nil, fmt.Errorf("session %s: %w", id, ErrNotFound)
}

// orderTree puts members in depth-first order from root and sets depths;
// a member whose parent is missing hangs under the root.
func orderTree(root string, members []TreeSession) []TreeSession {
	byParent := map[string][]TreeSession{}
	var top *TreeSession
	known := map[string]bool{}
	for _, m := range members {
		known[m.ID] = true
	}
	for i := range members {
		m := members[i]
		switch {
		case m.ID == root:
			top = &members[i]
		case known[m.ParentSessionID]:
			byParent[m.ParentSessionID] = append(byParent[m.ParentSessionID], m)
		default:
			byParent[root] = append(byParent[root], m)
		}
	}
	if top == nil {
		return members
	}
	out := make([]TreeSession, 0, len(members))
	var walk func(m TreeSession, depth int)
	walk = func(m TreeSession, depth int) {
		m.Depth = depth
		out = append(out, m)
		for _, c := range byParent[m.ID] {
			walk(c, depth+1)
		}
	}
	walk(*top, 0)
	return out
}

// ChildRuns returns the runs started by run parentRunID (its sub-agents'
// runs), oldest first.
func (s *Store) ChildRuns(ctx context.Context, parentRunID string) ([]Run, error) {
	return queryAll(ctx, s, "listing the runs started by run "+parentRunID,
		`SELECT `+runCols+` FROM runs WHERE parent_run_id = ? ORDER BY started_at, id`,
		[]any{parentRunID}, func(r *sql.Rows) (Run, error) { return scanRun(r) })
}

// DeleteSessionTree removes session id and every session below it, leaves
// first, each as DeleteSession does. It deletes nothing when any of them
// is held by a live run (ErrSessionBusy naming it): the subtree's locks are
// all taken first.
func (s *Store) DeleteSessionTree(ctx context.Context, id string) (int, error) {
	members, err := s.Subtree(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var locks []SessionLock
	defer func() {
		for _, l := range locks {
			l.Release()
		}
	}()
	for _, m := range members {
		l, err := s.lockSession(m.ID)
		if err != nil {
			return 0, err
		}
		locks = append(locks, l)
	}
	err = s.write(ctx, "deleting the tree of session "+id, func(tx *sql.Tx) error {
		for i := len(members) - 1; i >= 0; i-- {
			sid := members[i].ID
			if _, err := tx.ExecContext(ctx, `DELETE FROM variables WHERE scope = 'chat' AND session_id = ?`, sid); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, sid); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(members), nil
}
