package store

import (
	"os"
	"path/filepath"
	"testing"
)

// Sessions' locks are bytes of one file: the same session's lock is
// refused to a second open file of the same process, another session's is
// not, and releasing frees it.
func TestSessionByteLocks(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, lockDirName), 0o700); err != nil {
		t.Fatal(err)
	}
	a, ok, err := tryLockSession(dir, "ses_a")
	if err != nil || !ok {
		t.Fatalf("first lock: ok=%v err=%v", ok, err)
	}
	if _, ok, err := tryLockSession(dir, "ses_a"); err != nil || ok {
		t.Fatalf("second lock of ses_a: ok=%v err=%v, want refused", ok, err)
	}
	b, ok, err := tryLockSession(dir, "ses_b")
	if err != nil || !ok {
		t.Fatalf("lock of ses_b while ses_a is held: ok=%v err=%v", ok, err)
	}
	a.release()
	a.release() // twice is harmless
	again, ok, err := tryLockSession(dir, "ses_a")
	if err != nil || !ok {
		t.Fatalf("ses_a after release: ok=%v err=%v", ok, err)
	}
	again.release()
	b.release()
	if ents, _ := readDirNames(filepath.Join(dir, lockDirName)); len(ents) != 1 || ents[0] != sessionLocksName {
		t.Errorf("locks/ holds %v, want only %s", ents, sessionLocksName)
	}
	if lockOffset("ses_a") == lockOffset("ses_b") || lockOffset("x") < 0 {
		t.Error("offsets collide or are negative")
	}
}
