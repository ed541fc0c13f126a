//go:build unix

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// probeWritable checks that files can be created in dir, as SQLite must
// for tavo.db-wal and -shm, by asking the kernel (access(2)) rather than
// creating one: it answers for a read-only file system, an immutable
// directory and missing permissions alike. (No AT_EACCESS: where the kernel
// lacks faccessat2 that flag is emulated from the mode bits alone, which
// say yes to root on an immutable directory; tavo is never setuid, so the
// real ids are the effective ones.)
func probeWritable(dir string) error {
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		return &os.PathError{Op: "access", Path: dir, Err: err}
	}
	return nil
}
