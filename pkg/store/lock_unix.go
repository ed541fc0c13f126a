//go:build unix && !linux

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// fileLock is an exclusive flock(2) on a file. The kernel drops it when the
// process dies however it dies, which is what makes a session's "busy"
// state trustworthy after a kill -9; a PID in a table cannot tell a dead
// process from a recycled PID.
type fileLock struct {
	f    *os.File
	path string
}

// tryLockSession takes session id's lock in data directory dir without
// waiting: a flock(2) on locks/session-<id>.lock. It returns ok=false when
// another open file (in this process or any other) holds it. (On Linux one
// file holds every session's lock, see lock_linux.go.)
func tryLockSession(dir, id string) (*fileLock, bool, error) {
	return tryLock(filepath.Join(dir, lockDirName, "session-"+id+".lock"))
}

// tryLock takes the lock on path without waiting. It returns ok=false when
// another open file (in this process or any other) holds it.
func tryLock(path string) (l *fileLock, ok bool, err error) {
	for range 16 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, false, err
		}
		if st, err := f.Stat(); err == nil && st.Mode().Perm() != 0o600 {
			_ = f.Chmod(0o600)
		}
		err = flock(f)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, false, nil
		}
		if err != nil {
			f.Close()
			return nil, false, err
		}
		// The previous holder removes the file before it unlocks; if we
		// opened that file just before, our lock is on a name nobody else
		// will ever open again, so start over with the current file.
		fst, ferr := f.Stat()
		pst, perr := os.Stat(path)
		if ferr != nil || perr != nil || !os.SameFile(fst, pst) {
			f.Close()
			continue
		}
		return &fileLock{f: f, path: path}, true, nil
	}
	return nil, false, fmt.Errorf("lock file %s keeps being replaced", path)
}

func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// release removes the lock file (while still holding the lock, so no one
// can lock the old file and believe it current) and unlocks it. It is safe
// to call on nil and more than once.
func (l *fileLock) release() {
	if l == nil || l.f == nil {
		return
	}
	_ = os.Remove(l.path)
	l.f.Close()
	l.f = nil
}
