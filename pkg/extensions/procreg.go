package extensions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
)

// ProcRegistry records the process groups of running command tools in a
// directory of marker files, one per group, so that groups a tavo left
// behind when it was killed outright (kill -9, where no cleanup runs) are
// found and killed by the next tavo that starts (Sweep).
//
// On Linux a command's own process also gets the parent-death signal, so it
// dies with tavo at once; its children, which the signal does not reach,
// die at the next Sweep. Elsewhere markers are neither written nor swept:
// without /proc a dead tavo's pid, or a group id, cannot be told from a
// reused one, and killing a stranger's group is worse than leaving ours.
type ProcRegistry struct {
	dir string
}

// NewProcRegistry returns a registry keeping its markers in dir, which is
// made (private to the user) when the first marker is written.
func NewProcRegistry(dir string) *ProcRegistry {
	return &ProcRegistry{dir: dir}
}

// procMarker is one running command tool's group: who started it and when,
// so a dead owner and a reused id can be told apart.
type procMarker struct {
	// Owner is the tavo process that started the group, OwnerStart its
	// start time (clock ticks since boot, from /proc).
	Owner      int    `json:"owner"`
	OwnerStart uint64 `json:"owner_start"`
	// Group is the process group id (the leader's pid), LeaderStart the
	// leader's start time.
	Group       int    `json:"group"`
	LeaderStart uint64 `json:"leader_start"`
}

// add records that this process started group pgid; it returns the
// function that removes the record once the group is done. Recording is
// best effort: a data directory that cannot be written costs the sweep,
// not the tool call.
func (r *ProcRegistry) add(pgid int) (remove func()) {
	noop := func() {}
	if r == nil || !sweepSupported {
		return noop
	}
	ownerStart, err := processStart(os.Getpid())
	if err != nil {
		return noop
	}
	leaderStart, err := processStart(pgid)
	if err != nil {
		return noop
	}
	data, _ := json.Marshal(procMarker{Owner: os.Getpid(), OwnerStart: ownerStart, Group: pgid, LeaderStart: leaderStart})
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return noop
	}
	path := filepath.Join(r.dir, strconv.Itoa(pgid))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return noop
	}
	return func() { _ = os.Remove(path) }
}

// Sweep kills the command-tool process groups whose tavo is gone and
// removes their markers; it returns how many groups it killed. Markers of
// live tavo processes are left alone. Errors reading the directory are
// ignored: the sweep is a safety net, never a reason to fail a command.
func (r *ProcRegistry) Sweep() int {
	if r == nil || !sweepSupported {
		return 0
	}
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return 0
	}
	killed := 0
	for _, e := range entries {
		path := filepath.Join(r.dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var m procMarker
		if json.Unmarshal(data, &m) != nil || m.Group <= 1 {
			_ = os.Remove(path)
			continue
		}
		if alive(m.Owner, m.OwnerStart) {
			continue
		}
		if groupIsOurs(m) {
			if killGroup(m.Group) == nil {
				killed++
			}
		}
		_ = os.Remove(path)
	}
	return killed
}

// alive reports whether pid is still the process that started at start.
func alive(pid int, start uint64) bool {
	got, err := processStart(pid)
	return err == nil && got == start
}

// groupIsOurs reports whether group m.Group is still the one tavo started:
// its leader is the same process, or the leader is gone and the group id
// is still held by the leader's children (Linux does not hand out a pid
// while a group of that id exists, so the id cannot have been reused).
func groupIsOurs(m procMarker) bool {
	got, err := processStart(m.Group)
	if err != nil {
		return groupExists(m.Group)
	}
	return got == m.LeaderStart
}
