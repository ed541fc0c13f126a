//go:build linux

package store

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// readOnly makes dir unwritable for this process. Root ignores permission
// bits, so as root the directory is made immutable instead (skipping the
// test where the file system cannot do that).
func readOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		return
	}
	if err := setImmutable(dir, true); err != nil {
		t.Skipf("cannot make %s read-only as root: %v", dir, err)
	}
	t.Cleanup(func() { setImmutable(dir, false) })
}

func writable(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		os.Chmod(dir, 0o700)
		return
	}
	if err := setImmutable(dir, false); err != nil {
		t.Fatal(err)
	}
}

// fsImmutableFL is FS_IMMUTABLE_FL of linux/fs.h (chattr +i).
const fsImmutableFL = 0x10

func setImmutable(dir string, on bool) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	flags, err := unix.IoctlGetInt(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		return err
	}
	if on {
		flags |= fsImmutableFL
	} else {
		flags &^= fsImmutableFL
	}
	return unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, flags)
}
