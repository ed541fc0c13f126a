package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"syscall"

	sqlite3 "modernc.org/sqlite/lib"
)

// ErrReadOnly: the store was opened for reading only, because its data
// directory cannot be written (or its disk is full); every write fails with
// it (wrapped in one line naming the directory and why).
var ErrReadOnly = errors.New("read-only store")

// unwritable reports whether err says a directory or file cannot be
// written (as opposed to a path that is wrong or a disk that failed).
func unwritable(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES)
}

// openReadOnly opens the store of dir for reading only, after cause said
// dir cannot be written: a read-only file system, a directory without write
// permission, an immutable one. The database is opened with mode=ro and
// query_only, so a read command (runs list, logs list, session show…)
// works where a write would fail; when the WAL's shared-memory file cannot
// be made either, the database is read as immutable (a clean shutdown left
// no WAL to read). Without a database yet, the store is an empty one in
// memory, so listings print nothing rather than fail. Nothing is migrated
// and no interrupted run is recovered: those are writes.
func openReadOnly(ctx context.Context, dir string, cause error) (*Store, error) {
	path := filepath.Join(dir, FileName)
	s := newStore(dir, path)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		// A private in-memory database, shared by the pool's connections
		// through a name unique to this Store (its address, while it lives).
		name := fmt.Sprintf("file:tavo-empty-%d-%p?mode=memory&cache=shared", os.Getpid(), s)
		db, err := openSQLite(name)
		if err != nil {
			return nil, fmt.Errorf("store: opening an empty store: %w", err)
		}
		db.SetMaxIdleConns(4)
		db.SetConnMaxIdleTime(0)
		s.db = db
		if err := s.migrate(ctx); err != nil {
			db.Close()
			return nil, err
		}
		s.readOnly = cause
		return s, nil
	}
	s.readOnly = cause
	err := s.openFile(ctx, "mode=ro")
	if sqliteCode(err) == sqlite3.SQLITE_CANTOPEN || diskFull(err) {
		// WAL mode wants a -shm file it cannot make here (or cannot
		// size, on a full disk).
		err = s.openFile(ctx, "immutable=1")
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// openFile opens the database file read-only with extra in its DSN and
// checks that its schema is this tavo's.
func (s *Store) openFile(ctx context.Context, extra string) error {
	db, err := openSQLite(readOnlyDSN(s.path, extra))
	if err != nil {
		return fmt.Errorf("store: opening %s: %w", s.path, err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(0)
	s.db = db
	if err := s.checkSchemaReadOnly(ctx); err != nil {
		db.Close()
		return err
	}
	return nil
}

// checkSchemaReadOnly reads the schema version: it must be this tavo's, since
// a read-only store cannot migrate.
func (s *Store) checkSchemaReadOnly(ctx context.Context) error {
	var v int
	err := s.read(ctx, "reading the schema version", func() error {
		return s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	})
	switch {
	case err != nil:
		return err
	case v > len(migrations):
		return s.newerSchema(v)
	case v < len(migrations):
		return fmt.Errorf("store: the session store %s needs upgrading, which needs writing, but data dir %s is read-only: %w", s.path, s.dir, s.readOnly)
	}
	return nil
}

// readOnlyDSN is dsn's read-only counterpart: no write may happen even by
// mistake (query_only), and no lock waits on writers for long.
func readOnlyDSN(path, extra string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	u := url.URL{Path: path}
	return "file:" + u.EscapedPath() + "?" + extra + "&" + q.Encode()
}

// ReadOnly reports whether the store was opened for reading only, because
// its data directory cannot be written.
func (s *Store) ReadOnly() bool { return s.readOnly != nil }

// readOnlyError is the one line every write of a read-only store fails with.
func (s *Store) readOnlyError(op string) error {
	if diskFull(s.readOnly) {
		return fmt.Errorf("store: %s: %w: %w: the disk holding data dir %s is full, so the session store cannot be written; free space (tavo runs prune) and retry",
			op, ErrReadOnly, ErrDiskFull, s.dir)
	}
	return fmt.Errorf("store: %s: %w: the session store in data dir %s cannot be written (%s); make it writable or use --data-dir",
		op, ErrReadOnly, s.dir, plainCause(s.readOnly))
}

// plainCause is the system's words for why a path cannot be written,
// without the path (the message names the directory once already).
func plainCause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, syscall.EROFS):
		return "read-only file system"
	case errors.Is(err, syscall.EPERM):
		return "operation not permitted"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case diskFull(err):
		return "disk full"
	}
	return err.Error()
}
