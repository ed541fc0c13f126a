package store

import (
	"errors"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// sessionLocksName is the file in locks/ whose bytes are the sessions'
// locks.
const sessionLocksName = "sessions.lock"

// fileLock is a session's lock: an open file description's write lock on
// one byte of locks/sessions.lock (fcntl F_OFD_SETLK), the byte at the
// session id's hash. Like flock(2) it belongs to the open file, not to the
// process, so two runs of one process conflict as two processes do, and
// the kernel drops it when the file is closed or its process dies however
// it dies. One file for all sessions means taking a lock creates no file:
// creating and removing a lock file per run cost a fifth of a millisecond
// on ext4, more than the rest of starting a sub-agent's run, and failed on
// a full disk.
type fileLock struct {
	f *os.File
}

// tryLockSession takes session id's lock in data directory dir without
// waiting. It returns ok=false when another open file (in this process or
// any other) holds it.
func tryLockSession(dir, id string) (*fileLock, bool, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockDirName, sessionLocksName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart, Start: lockOffset(id), Len: 1}
	for {
		err = unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return &fileLock{f: f}, true, nil
	case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EACCES):
		f.Close()
		return nil, false, nil
	default:
		f.Close()
		return nil, false, err
	}
}

// lockOffset is the byte that stands for session id: 62 bits of its FNV-1a
// hash, so two sessions share a byte (and one would be reported busy while
// the other runs) with a chance of one in 2^62 per pair.
func lockOffset(id string) int64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return int64(h.Sum64() & (1<<62 - 1))
}

// release unlocks by closing the file. It is safe to call on nil and more
// than once.
func (l *fileLock) release() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Close()
	l.f = nil
}
