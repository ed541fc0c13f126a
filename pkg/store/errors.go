package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Sentinel errors. Returned errors wrap them with context; test with
// errors.Is.
var (
	// ErrNotFound: the session, run, variable or compaction does not exist.
	ErrNotFound = errors.New("not found")
	// ErrSessionBusy: another live run holds the session.
	ErrSessionBusy = errors.New("session busy")
	// ErrNotRunning: the run has already ended.
	ErrNotRunning = errors.New("run not running")
	// ErrInvalid: an argument (title, id, limit, cursor, JSON value…) is not
	// acceptable.
	ErrInvalid = errors.New("invalid argument")
	// ErrInvalidName: a variable name breaks the naming rule of
	// CheckVarName. It is an ErrInvalid too.
	ErrInvalidName = fmt.Errorf("invalid variable name: %w", ErrInvalid)
	// ErrDiskFull: a write failed because the disk (or the user's quota)
	// holding the data directory is full. Nothing committed before is lost.
	ErrDiskFull = errors.New("disk full")
)

// diskFull reports whether err says the disk is full: the system's ENOSPC
// or EDQUOT, SQLite's SQLITE_FULL, or SQLite failing to size the WAL's
// shared-memory index (which it does by writing to it).
func diskFull(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrDiskFull) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == sqlite3.SQLITE_FULL || se.Code() == sqlite3.SQLITE_IOERR_SHMSIZE
	}
	return codedSQLite(err) == sqlite3.SQLITE_FULL
}

// dataDirError says why the data directory cannot be used, in plain
// words ("is read-only", "is not writable", "disk is full") with the
// system's error after them.
func dataDirError(dir string, err error) error {
	switch {
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("store: data dir %s is on a read-only file system: %w", dir, err)
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EPERM):
		return fmt.Errorf("store: data dir %s is not writable (permission denied): %w", dir, err)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return fmt.Errorf("store: the session store cannot be written: the disk holding data dir %s is full: %w: %w", dir, ErrDiskFull, err)
	}
	return fmt.Errorf("store: data dir %s: %w", dir, err)
}

// sqliteCode returns the primary SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return codedSQLite(err)
}

// isBusy reports whether err is SQLite saying another connection holds the
// lock it needs.
func isBusy(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

// dbError wraps a database error with what was being done and, for the
// failures a user can act on, the plain cause and the data directory.
// Sentinel and context errors pass through wrapped, so errors.Is still works.
func (s *Store) dbError(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrSessionBusy) ||
		errors.Is(err, ErrNotRunning) || errors.Is(err, ErrInvalid) {
		return fmt.Errorf("store: %w", err) // these name their subject
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	switch sqliteCode(err) {
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("store: %s: the session store cannot be written: the disk holding data dir %s is full; free space (tavo runs prune) and retry (nothing stored was lost): %w: %w", op, s.dir, ErrDiskFull, err)
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("store: %s: the session store cannot be written: data dir %s is read-only: %w", op, s.dir, err)
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM:
		return fmt.Errorf("store: %s: cannot open the database in data dir %s (check its permissions): %w", op, s.dir, err)
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("store: %s: data dir %s stayed locked by another tavo process; retry: %w", op, s.dir, err)
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("store: %s: %s is damaged or not a tavo database: %w", op, s.path, err)
	case sqlite3.SQLITE_IOERR:
		if diskFull(err) {
			return fmt.Errorf("store: %s: the session store cannot be written: the disk holding data dir %s is full; free space (tavo runs prune) and retry: %w: %w", op, s.dir, ErrDiskFull, err)
		}
		return fmt.Errorf("store: %s: I/O error in data dir %s (disk full or failing?): %w", op, s.dir, err)
	}
	return fmt.Errorf("store: %s: %w", op, err)
}
