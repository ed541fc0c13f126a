//go:build linux

package extensions

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// startGroup starts a sleeping process leading its own group and returns
// it; the test kills it at the end if the sweep did not.
func startGroup(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = killProcessGroup(cmd); _ = cmd.Wait() })
	return cmd
}

// deadPid is the pid of a process that has ended.
func deadPid(t *testing.T) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.Process.Pid
}

func writeMarker(t *testing.T, dir string, m procMarker) {
	t.Helper()
	data, _ := json.Marshal(m)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(m.Group)), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// exited reports whether cmd has ended (it is reaped here).
func exited(cmd *exec.Cmd) bool {
	var ws syscall.WaitStatus
	pid, err := syscall.Wait4(cmd.Process.Pid, &ws, syscall.WNOHANG, nil)
	return err == nil && pid == cmd.Process.Pid
}

func TestSweepKillsOnlyGroupsOfDeadOwners(t *testing.T) {
	dir := t.TempDir()
	self, err := processStart(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	orphan, live, reused := startGroup(t), startGroup(t), startGroup(t)
	start := func(c *exec.Cmd) uint64 {
		s, err := processStart(c.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// orphan: its tavo is dead. live: its tavo (this test) runs. reused:
	// its tavo is dead but the group id now leads another process.
	writeMarker(t, dir, procMarker{Owner: deadPid(t), OwnerStart: 1, Group: orphan.Process.Pid, LeaderStart: start(orphan)})
	writeMarker(t, dir, procMarker{Owner: os.Getpid(), OwnerStart: self, Group: live.Process.Pid, LeaderStart: start(live)})
	writeMarker(t, dir, procMarker{Owner: deadPid(t), OwnerStart: 1, Group: reused.Process.Pid, LeaderStart: start(reused) + 1})

	if n := NewProcRegistry(dir).Sweep(); n != 1 {
		t.Fatalf("Sweep killed %d groups, want 1", n)
	}
	if err := orphan.Wait(); err == nil {
		t.Fatal("the orphaned group's process exited normally; want it killed")
	}
	if exited(live) || exited(reused) {
		t.Fatal("Sweep killed a group it does not own")
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 || left[0].Name() != strconv.Itoa(live.Process.Pid) {
		t.Fatalf("markers left %v, want only the live owner's", left)
	}
}

func TestRegistryAddRemovesItsMarker(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "procs")
	c := startGroup(t)
	done := NewProcRegistry(dir).add(c.Process.Pid)
	if _, err := os.Stat(filepath.Join(dir, strconv.Itoa(c.Process.Pid))); err != nil {
		t.Fatalf("no marker: %v", err)
	}
	if info, _ := os.Stat(dir); info.Mode().Perm() != 0o700 {
		t.Errorf("marker directory mode %v, want 0700", info.Mode().Perm())
	}
	done()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("markers left %v", left)
	}
	// A registry on a directory that cannot be made records nothing and
	// does not fail.
	NewProcRegistry("/proc/no/such/dir").add(c.Process.Pid)()
}
