//go:build linux

package store

// The full-disk test needs a disk that really fills up. It runs the test
// binary again in a new user and mount namespace (no root needed where the
// kernel allows unprivileged user namespaces) and mounts a small tmpfs there,
// so ENOSPC comes from the kernel exactly as on a full disk; the mount goes
// away with the child. Where namespaces are not allowed the test is skipped
// and says so.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const fullDiskEnv = "TAVO_STORE_FULLDISK"

func TestPruneOnFullDisk(t *testing.T) {
	if os.Getenv(fullDiskEnv) != "" {
		t.Skip("the parent of TestFullDiskChild")
	}
	mnt := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFullDiskChild$", "-test.v")
	cmd.Env = append(os.Environ(), fullDiskEnv+"="+mnt)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	switch {
	case strings.Contains(string(out), "@@ no-namespace"):
		t.Skipf("cannot mount a small file system here: %s", lineAfter(string(out), "@@ no-namespace"))
	case err != nil && errors.Is(err, syscall.EPERM), err != nil && errors.Is(err, syscall.EINVAL):
		t.Skipf("user namespaces are not allowed here: %v", err)
	case err != nil:
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "@@ ok") {
		t.Fatalf("child did not finish:\n%s", out)
	}
}

func lineAfter(s, mark string) string {
	_, rest, _ := strings.Cut(s, mark)
	line, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(line)
}

// TestFullDiskChild runs in the namespace: it fills a 24 MiB tmpfs that
// holds a data dir with runs, then checks that reads, the write error, and
// a prune all behave.
func TestFullDiskChild(t *testing.T) {
	mnt := os.Getenv(fullDiskEnv)
	if mnt == "" {
		t.Skip("runs only as the child of TestPruneOnFullDisk")
	}
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		fmt.Printf("@@ no-namespace making mounts private: %v\n", err)
		return
	}
	if err := syscall.Mount("tavo-test", mnt, "tmpfs", 0, "size=24m,mode=0700"); err != nil {
		fmt.Printf("@@ no-namespace mounting tmpfs: %v\n", err)
		return
	}
	dir := filepath.Join(mnt, "data")

	// A store with 30 runs of 300 events of about 1 KiB each (~9 MiB).
	s, err := Open(ctxb(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, ReserveName)); err != nil || st.Size() != ReserveSize || st.Mode().Perm() != 0o600 {
		t.Fatalf("reserve: %v %v", st, err)
	}
	mustSession(t, s, "ses_1")
	pad := strings.Repeat("x", 1000)
	for i := range 30 {
		l := mustBegin(t, s, "run_"+itoa(i), "ses_1")
		for e := int64(1); e <= 300; e++ {
			l.Journal(e, "x", []byte(fmt.Sprintf(`{"seq":%d,"pad":%q}`, e, pad)))
		}
		must(t, l.Finish(ctxb(), "completed", 0, nil))
	}
	must(t, s.Close())
	sizeBefore := fileSize(t, filepath.Join(dir, FileName))

	fillDisk(t, filepath.Join(mnt, "filler1"))

	// Open still works, read-only; reads answer, a write says why in one line.
	s, err = Open(ctxb(), dir)
	if err != nil {
		t.Fatalf("open on a full disk: %v", err)
	}
	defer s.Close()
	runs, _, err := s.ListRuns(ctxb(), "", 0, "")
	if err != nil || len(runs) != 30 {
		t.Fatalf("list on a full disk: %d runs, %v", len(runs), err)
	}
	_, werr := s.CreateSession(ctxb(), "ses_2", "t")
	if !errors.Is(werr, ErrDiskFull) || !strings.Contains(werr.Error(), "the session store cannot be written") || !strings.Contains(werr.Error(), "is full") || strings.Contains(werr.Error(), "\n") {
		t.Fatalf("write on a full disk: %v", werr)
	}
	t.Logf("read-only=%v; write error: %v", s.ReadOnly(), werr)

	// The prune works, and gives the space back.
	p, err := s.PlanPrune(ctxb(), 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyPrune(ctxb(), p); err != nil {
		t.Fatalf("prune on a full disk: %v", err)
	}
	s2, err := Open(ctxb(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.ReadOnly() {
		t.Fatal("still read-only after the prune")
	}
	runs, _, err = s2.ListRuns(ctxb(), "", 0, "")
	if err != nil || len(runs) != 2 || runs[0].Events != 300 || runs[1].Events != 0 {
		t.Fatalf("after prune: %+v %v", runs, err)
	}
	if _, err := s2.CreateSession(ctxb(), "ses_2", "written after the prune"); err != nil {
		t.Fatal(err)
	}
	sizeAfter := fileSize(t, filepath.Join(dir, FileName))
	if sizeAfter*3 > sizeBefore {
		t.Fatalf("the database did not shrink: %d bytes before, %d after", sizeBefore, sizeAfter)
	}
	if st, err := os.Stat(filepath.Join(dir, ReserveName)); err != nil || st.Size() != ReserveSize {
		t.Fatalf("the reserve was not made again: %v %v", st, err)
	}
	t.Logf("database %d → %d bytes", sizeBefore, sizeAfter)

	// A store open for writing whose disk fills up: the prune's first
	// write meets SQLITE_FULL (the WAL was truncated to nothing), and the
	// prune frees the reserve and goes on.
	for i := 30; i < 40; i++ {
		l := mustBegin(t, s2, "run_"+itoa(i), "ses_1")
		for e := int64(1); e <= 300; e++ {
			l.Journal(e, "x", []byte(fmt.Sprintf(`{"seq":%d,"pad":%q}`, e, pad)))
		}
		must(t, l.Finish(ctxb(), "completed", 0, nil))
	}
	s2.checkpoint(ctxb(), "TRUNCATE")
	fillDisk(t, filepath.Join(mnt, "filler2"))
	if _, err := s2.CreateSession(ctxb(), "ses_3", "t"); !errors.Is(err, ErrDiskFull) {
		t.Fatalf("the disk is not full: %v", err)
	}
	p, err = s2.PlanPrune(ctxb(), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.ApplyPrune(ctxb(), p); err != nil {
		t.Fatalf("prune on a disk that filled up: %v", err)
	}
	if runs, _, err = s2.ListRuns(ctxb(), "", 0, ""); err != nil || len(runs) != 1 {
		t.Fatalf("after the second prune: %d runs, %v", len(runs), err)
	}
	fmt.Println("@@ ok")
}

// fillDisk writes path until the file system holding it is full.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range []int{64 << 10, 4096, 1} { // then the last partial blocks
		buf := make([]byte, n)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
