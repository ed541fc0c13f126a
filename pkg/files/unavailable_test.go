package files

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A store whose folder cannot be made fails every call with one line that
// names the file store and the cause, never the data dir; the system error
// (with the path, for a command to show) is behind Unwrap.
func TestUnavailableStoreNamesNoPath(t *testing.T) {
	dataDir := t.TempDir()
	// A file where the store's folder should be: every write and read of a
	// folder under it fails with ENOTDIR.
	if err := os.WriteFile(filepath.Join(dataDir, "files"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(dataDir)
	ctx := context.Background()
	_, saveErr := s.Save(ctx, Chat("ses_A"), "a.txt", []byte("hi"))
	_, listErr := s.List(ctx, Global(), ListOptions{})
	_, _, loadErr := s.Load(ctx, Global(), "a.txt")
	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"save": {saveErr, "creating the chat folder: the file store cannot be written (not a directory)"},
		"list": {listErr, "listing the global scope: the file store cannot be read (not a directory)"},
		"load": {loadErr, "opening global/a.txt: the file store cannot be read (not a directory)"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%s: %v, want %q", name, c.err, c.want)
			continue
		}
		if !errors.Is(c.err, ErrUnavailable) || !errors.Is(c.err, syscall.ENOTDIR) {
			t.Errorf("%s: %v is not ErrUnavailable wrapping ENOTDIR", name, c.err)
		}
		var pe *fs.PathError
		if !errors.As(c.err, &pe) || !strings.HasPrefix(pe.Path, dataDir) {
			t.Errorf("%s: the system error with its path is not kept: %#v", name, c.err)
		}
	}
}

func TestSystemReason(t *testing.T) {
	for errno, want := range map[syscall.Errno]string{
		syscall.ENOSPC: "disk full",
		syscall.EDQUOT: "disk full",
		syscall.EROFS:  "read-only file system",
		syscall.EACCES: "permission denied",
		syscall.EPERM:  "permission denied",
		syscall.EFBIG:  "file too large for the file system",
		syscall.EIO:    syscall.EIO.Error(),
	} {
		err := unavailable("saving chat/a.txt", true, &fs.PathError{Op: "write", Path: "/secret/data/files/tmp/save-1", Err: errno})
		msg := "saving chat/a.txt: the file store cannot be written (" + want + ")"
		if err.Error() != msg || strings.Contains(err.Error(), "/secret") {
			t.Errorf("%v: %q, want %q", errno, err.Error(), msg)
		}
	}
	if got := systemReason(errors.New("odd")); got != "unexpected error" {
		t.Errorf("a non-system error: %q", got)
	}
}
