package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// Engine is what differs between the database engines a Store runs on. The
// store's SQL is shared: it is written once, with `?` placeholders and
// portable types, against the *sql.DB an Engine hands out (an engine whose
// database wants `$1` rewrites the placeholders in its driver). What cannot
// be shared sits here: opening and migrating, the per-session run lock,
// cross-process notifications, full-text search, and the maintenance only
// one engine needs. The embedded default is SQLite (Open); fleet mode is
// PostgreSQL (package store/postgres). docs/store.md says how to add a table
// to both.
type Engine interface {
	// Name is the engine's name as `tavo -v` prints it: "sqlite" or
	// "postgres".
	Name() string
	// Location says where the data is, safe to print: a file path, or a
	// connection URL without its password.
	Location() string
	// DB is the database handle the shared SQL runs on.
	DB() *sql.DB
	// Migrate brings the schema to the engine's current version, safely
	// when several processes do it at once; a schema newer than this tavo
	// knows is an error naming the store.
	Migrate(ctx context.Context) error
	// LockSession takes the one-run-at-a-time lock of a session without
	// waiting: ok is false when a live holder, in any process on any
	// machine, has it. A holder that dies loses it (at once on SQLite, when
	// its lease expires on PostgreSQL).
	LockSession(ctx context.Context, sessionID string) (lock SessionLock, ok bool, err error)
	// Notify tells every process watching topic for key (a run id) that
	// something happened. Best effort: watchers also look by themselves.
	Notify(ctx context.Context, topic Topic, key string)
	// Watch returns a channel that receives (without blocking the sender)
	// when Notify is called for topic and key in any process, and a
	// function that stops watching. A nil channel means the engine has no
	// notifications and the caller polls.
	Watch(topic Topic, key string) (<-chan struct{}, func())
	// MemorySearch returns the query that finds memory notes matching the
	// words of text, best first, with the two arguments it takes (the
	// engine's form of text, and the limit); it selects id, content,
	// created_at, updated_at and a rank that sorts best first (lower is
	// better). An empty query means text has no word to search for.
	MemorySearch(text string) (query string, match any)
	// Reclaim gives space freed by a prune back, where the engine needs
	// telling. Failures are ignored: the prune itself is done.
	Reclaim(ctx context.Context)
	// PollEvery is how often a running run looks for a cancel request by
	// itself (a safety net where notifications exist).
	PollEvery() time.Duration
	// Close releases the engine's connections.
	Close() error
}

// SessionLock is a held session lock; Release gives it up (safe to call
// more than once).
type SessionLock interface {
	Release()
}

// LosableLock is a SessionLock that can be lost while held: a lease that
// expired (its heartbeats failed) and that another machine then took.
// Lost is closed when the holder finds out.
type LosableLock interface {
	Lost() <-chan struct{}
}

// Topic names a kind of cross-process notification.
type Topic string

// Notification topics.
const (
	// TopicCancel: a cancel was requested for the run.
	TopicCancel Topic = "cancel"
	// TopicJournal: new journal lines of the run were committed.
	TopicJournal Topic = "journal"
)

// CodedError is implemented by an engine's errors to say which SQLite
// result code they amount to (SQLITE_BUSY for a serialisation failure,
// SQLITE_CONSTRAINT for a unique violation, SQLITE_FULL for a full disk), so
// the store's retry and error messages work the same on every engine.
type CodedError interface {
	error
	SQLiteCode() int
}

// OpenEngine opens a Store over e, whose database holds the state; dataDir
// still holds what is not in the database (config and the file store on
// the embedded engine). The schema is migrated and runs left running by
// holders that are gone are marked interrupted. The Store owns e: Close
// closes it.
func OpenEngine(ctx context.Context, dataDir string, e Engine) (*Store, error) {
	dir := dataDir
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	s := newStore(dir, e.Location())
	s.db = e.DB()
	s.eng = e
	s.pollEvery = e.PollEvery()
	if err := e.Migrate(ctx); err != nil {
		e.Close()
		return nil, err
	}
	if err := s.recoverInterrupted(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return s, nil
}

// Engine is the name of the engine the store runs on ("sqlite" or
// "postgres"), for `tavo -v`.
func (s *Store) Engine() string { return s.engine().Name() }

// Location says where the store's data is, safe to print (never a
// password).
func (s *Store) Location() string { return s.engine().Location() }

// engine is the store's Engine: the SQLite one unless OpenEngine set
// another.
func (s *Store) engine() Engine {
	if s.eng != nil {
		return s.eng
	}
	return sqliteEngine{s}
}

// codedSQLite returns the SQLite result code an engine's error says it
// amounts to, or 0.
func codedSQLite(err error) int {
	var ce CodedError
	if errors.As(err, &ce) {
		return ce.SQLiteCode() & 0xff
	}
	return 0
}

// sqliteEngine is the embedded engine: the database file in the data
// directory, session locks as file locks beside it (lock_linux.go,
// lock_unix.go), polling for cross-process news (a read costs
// microseconds), FTS5 for memory.
type sqliteEngine struct{ s *Store }

func (e sqliteEngine) Name() string                      { return "sqlite" }
func (e sqliteEngine) Location() string                  { return e.s.path }
func (e sqliteEngine) DB() *sql.DB                       { return e.s.db }
func (e sqliteEngine) Migrate(ctx context.Context) error { return e.s.migrate(ctx) }
func (e sqliteEngine) PollEvery() time.Duration          { return 200 * time.Millisecond }
func (e sqliteEngine) Close() error                      { return e.s.db.Close() }

func (e sqliteEngine) LockSession(_ context.Context, sessionID string) (SessionLock, bool, error) {
	l, ok, err := tryLockSession(e.s.dir, sessionID)
	if err != nil {
		return nil, false, dataDirError(e.s.dir, err)
	}
	if !ok {
		return nil, false, nil
	}
	return l, true, nil
}

func (e sqliteEngine) Notify(context.Context, Topic, string)         {}
func (e sqliteEngine) Watch(Topic, string) (<-chan struct{}, func()) { return nil, func() {} }

func (e sqliteEngine) MemorySearch(text string) (string, any) {
	match := ftsQuery(text)
	if match == "" {
		return "", nil
	}
	return `SELECT m.id, m.content, m.created_at, m.updated_at, bm25(memory_fts)
			FROM memory_fts JOIN memory_items m ON m.id = memory_fts.rowid
			WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts), m.pos, m.id LIMIT ?`, match
}

func (e sqliteEngine) Reclaim(ctx context.Context) { e.s.reclaim(ctx) }

// errNoEngine is returned by engine-only operations asked of the wrong
// engine.
var errNoEngine = fmt.Errorf("store: not available on this engine: %w", ErrInvalid)

// Release gives the file lock up, as SessionLock asks.
func (l *fileLock) Release() { l.release() }

// SharedDB is the database when the store is shared by a fleet (not the
// embedded engine), for the file store to keep its files in; nil on the
// embedded engine, whose files stay on disk in the data directory.
func (s *Store) SharedDB() *sql.DB {
	if s.eng == nil {
		return nil
	}
	return s.db
}
