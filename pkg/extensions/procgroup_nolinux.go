//go:build !linux

package extensions

import (
	"errors"
	"os/exec"
)

// sweepSupported: without /proc a dead tavo and a reused id look alike, so
// there is no sweep (see ProcRegistry).
const sweepSupported = false

// setParentDeathSignal does nothing: the parent-death signal is Linux's.
func setParentDeathSignal(*exec.Cmd) {}

func processStart(int) (uint64, error) { return 0, errors.New("unsupported") }

func groupExists(int) bool { return false }

func killGroup(int) error { return errors.New("unsupported") }
