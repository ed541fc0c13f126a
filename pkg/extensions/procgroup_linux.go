//go:build linux

package extensions

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// sweepSupported: /proc gives start times, so a dead tavo and a reused id
// can be told apart.
const sweepSupported = true

// setParentDeathSignal has the kernel kill cmd's process when the thread
// that started it exits, as it does when tavo is killed outright. The
// caller keeps that thread (runtime.LockOSThread) until the command ends,
// since Go may otherwise end the thread while the command still runs.
func setParentDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// processStart is pid's start time in clock ticks since boot: field 22 of
// /proc/PID/stat, read after the command name, which may hold spaces and
// parentheses.
func processStart(pid int) (uint64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, errors.New("unreadable /proc stat")
	}
	fields := bytes.Fields(data[i+1:])
	// fields[0] is field 3 (state); the start time is field 22.
	if len(fields) < 20 {
		return 0, errors.New("short /proc stat")
	}
	v, err := strconv.ParseUint(string(fields[19]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("start time: %w", err)
	}
	return v, nil
}

// groupExists reports whether any process is in group pgid.
func groupExists(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}

// killGroup kills every process of group pgid.
func killGroup(pgid int) error {
	return syscall.Kill(-pgid, syscall.SIGKILL)
}
