//go:build !linux

package store

import (
	"os"
	"testing"
)

func readOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("root ignores permission bits")
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
}

func writable(t *testing.T, dir string) {
	t.Helper()
	os.Chmod(dir, 0o700)
}
