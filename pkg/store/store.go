// Package store keeps tavo's durable state in one SQLite database inside the
// data directory (tavo.db, WAL mode, through the pure-Go modernc.org/sqlite
// driver): sessions and their messages, runs with their event journals,
// compaction records, the audit log, memory, variables and todos.
//
// Many tavo processes may share one data directory at once (cron overlap,
// parallel CI). Every write is a short BEGIN IMMEDIATE transaction, so SQLite
// serialises writers without deadlocks; a busy timeout plus a bounded retry
// absorbs contention. A session's "one run at a time" rule is enforced with
// an OS file lock under <dataDir>/locks/, which the kernel releases when its
// process dies, so a kill -9 never leaves a session stuck: the next Open marks
// such a run interrupted. docs/store.md describes the schema and the design.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// FileName is the database's name inside the data directory.
const FileName = "tavo.db"

// lockDirName is the folder of run lock files inside the data directory.
const lockDirName = "locks"

// busyTimeout is how long SQLite itself waits for another process's write
// lock before a statement fails with SQLITE_BUSY (which is then retried).
const busyTimeout = 5 * time.Second

// Store is one process's handle on a data directory. It is safe for
// concurrent use; open one per process and Close it when done.
type Store struct {
	dir  string
	path string
	db   *sql.DB
	// wsem serialises this process's write transactions, so in-process
	// writers queue on a channel instead of sleeping in SQLite's busy
	// handler; other processes are kept out by SQLite's own write lock.
	wsem chan struct{}
	// now is the clock; tests replace it.
	now func() time.Time
	// pollEvery is how often a Lease checks for a cancel request.
	pollEvery time.Duration
	// flushEvery is how often a Lease writes its buffered journal.
	flushEvery time.Duration
	// journalMax is how many journal lines a Lease may queue.
	journalMax int
	// readOnly, when set, says why the data directory cannot be written:
	// the store was opened for reading only and every write fails.
	readOnly error
	// eng is the engine when OpenEngine chose one; nil is the embedded
	// SQLite engine of Open.
	eng Engine
}

// Open opens (creating when needed) the store of dataDir: the directory is
// made 0700, tavo.db and its -wal/-shm files are 0600, the schema is migrated
// to the current version, and runs left running by processes that are gone
// are marked interrupted. A database written by a newer tavo is a one-line
// error naming the directory.
//
// A data directory that cannot be written (read-only file system, no write
// permission, immutable) or whose disk is too full to open the database is
// opened for reading only: reads work, so `tavo runs list` or `tavo logs
// list` still answer, and every write fails with one line wrapping
// ErrReadOnly (and ErrDiskFull for a full disk; see ReadOnly). ApplyPrune
// is the exception: it frees the space reserve and prunes anyway.
//
// A writable Open also keeps a small reserve file (ReserveName) in the
// data directory, made once, that a prune deletes when the disk is full.
func Open(ctx context.Context, dataDir string) (*Store, error) {
	if dataDir == "" {
		return nil, fmt.Errorf("store: no data directory given: %w", ErrInvalid)
	}
	dir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("store: data dir %s: %w", dataDir, err)
	}
	if err := makePrivateDir(dir); err != nil {
		if unwritable(err) || diskFull(err) {
			return openReadOnly(ctx, dir, err)
		}
		return nil, dataDirError(dir, err)
	}
	if err := probeWritable(dir); err != nil && unwritable(err) {
		return openReadOnly(ctx, dir, err)
	}
	s, err := openWritable(ctx, dir)
	if err != nil {
		// A full disk: SQLite cannot even make the WAL's index (-shm) a
		// new process needs. Read commands still work read-only, and
		// `tavo runs prune` frees the reserve to get a writable handle.
		if diskFull(err) {
			return openReadOnly(ctx, dir, err)
		}
		return nil, err
	}
	ensureReserve(dir)
	return s, nil
}

// openWritable opens the store of dir (which exists and is writable) for
// reading and writing: creates, migrates and recovers as Open says.
func openWritable(ctx context.Context, dir string) (*Store, error) {
	if err := makePrivateDir(filepath.Join(dir, lockDirName)); err != nil {
		return nil, dataDirError(dir, err)
	}
	path := filepath.Join(dir, FileName)
	if err := createPrivateFile(path); err != nil {
		return nil, dataDirError(dir, err)
	}
	// SQLite needs to create tavo.db-wal and -shm beside the database; find
	// out now, with a clear message, rather than at the first write.
	if err := probeWritable(dir); err != nil {
		return nil, dataDirError(dir, err)
	}
	db, err := openSQLite(dsn(path))
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(0)
	s := newStore(dir, path)
	s.db = db
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.useWAL(ctx); err != nil {
		db.Close()
		return nil, err
	}
	chmodPrivate(path, path+"-wal", path+"-shm")
	if err := s.recoverInterrupted(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// newStore is a Store for the database at path in dir, with the timings
// every store uses; the caller opens its db.
func newStore(dir, path string) *Store {
	return &Store{
		dir:        dir,
		path:       path,
		wsem:       make(chan struct{}, 1),
		now:        time.Now,
		pollEvery:  200 * time.Millisecond,
		flushEvery: 50 * time.Millisecond,
		journalMax: journalMaxPending,
	}
}

// Close closes the database. Leases must be finished first.
func (s *Store) Close() error {
	if err := s.engine().Close(); err != nil {
		return fmt.Errorf("store: closing %s: %w", s.path, err)
	}
	return nil
}

// Path is the database file's path.
func (s *Store) Path() string { return s.path }

// useWAL puts the database in WAL mode, so readers never wait for the
// writer. The mode is stored in the file: a database already in it (every
// one after its first open) costs one read, and no connection sets it again.
func (s *Store) useWAL(ctx context.Context) error {
	var mode string
	err := s.read(ctx, "reading the journal mode", func() error {
		return s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode)
	})
	if err != nil || strings.EqualFold(mode, "wal") {
		return err
	}
	return s.read(ctx, "switching to WAL mode", func() error {
		return s.db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
	})
}

// dsn is the driver's data source name for path: a file: URI (so any
// character in the path is escaped) with the per-connection settings every
// connection of the pool must have.
func dsn(path string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	// NORMAL in WAL mode loses no committed transaction when a process
	// dies, only (at worst) the last ones on a power cut; it saves an fsync
	// per commit.
	q.Add("_pragma", "synchronous(NORMAL)")
	// INCREMENTAL lets a prune give freed pages back to the file system
	// (PRAGMA incremental_vacuum). It takes effect only on a database that
	// has no table yet (a new store) or at a VACUUM; elsewhere it is a no-op.
	q.Add("_pragma", "auto_vacuum(2)")
	q.Set("_txlock", "immediate")
	u := url.URL{Path: path}
	return "file:" + u.EscapedPath() + "?" + q.Encode()
}

// makePrivateDir creates dir (and parents) when missing and makes a newly
// created one 0700 whatever the umask; an existing directory is left as the
// user set it.
func makePrivateDir(dir string) error {
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.Chmod(dir, 0o700)
}

// createPrivateFile creates path empty and 0600 when it does not exist, so
// SQLite (which copies the database's mode to -wal and -shm) never makes a
// world-readable file.
func createPrivateFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// chmodPrivate makes the files that exist 0600; missing ones are skipped.
func chmodPrivate(paths ...string) {
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().Perm() != 0o600 {
			_ = os.Chmod(p, 0o600)
		}
	}
}
