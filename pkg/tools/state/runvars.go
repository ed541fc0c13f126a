package state

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"
)

// RunVars are a run's run-local variables (tavo run --var k=v, SPEC §1):
// the variable tools see them in the chat scope for that run only, and
// they are never stored. A name set here hides a stored chat variable of
// the same name during the run; tavo_var_set and tavo_var_delete on it
// change only the run's copy. Safe for concurrent use.
type RunVars struct {
	mu   sync.Mutex
	vars map[string]json.RawMessage
}

// NewRunVars holds vars (compact JSON values, already checked against the
// store's rules) for one run.
func NewRunVars(vars map[string]json.RawMessage) *RunVars {
	return &RunVars{vars: maps.Clone(vars)}
}

type runVarsKey struct{}

// WithRunVars returns ctx carrying a run's run-local variables: a run's
// context reaches every tool call it makes, so the variable tools find
// them without the catalog knowing about runs.
func WithRunVars(ctx context.Context, rv *RunVars) context.Context {
	return context.WithValue(ctx, runVarsKey{}, rv)
}

// runVarsOf returns the run-local variables ctx carries, nil when none.
func runVarsOf(ctx context.Context) *RunVars {
	rv, _ := ctx.Value(runVarsKey{}).(*RunVars)
	return rv
}

// get returns a run-local value.
func (rv *RunVars) get(name string) (json.RawMessage, bool) {
	if rv == nil {
		return nil, false
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	v, ok := rv.vars[name]
	return v, ok
}

// set replaces a run-local value and reports whether the name is one.
func (rv *RunVars) set(name string, v json.RawMessage) bool {
	if rv == nil {
		return false
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if _, ok := rv.vars[name]; !ok {
		return false
	}
	rv.vars[name] = v
	return true
}

// remove deletes a run-local variable and reports whether it was one.
func (rv *RunVars) remove(name string) bool {
	if rv == nil {
		return false
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	_, ok := rv.vars[name]
	delete(rv.vars, name)
	return ok
}

// overlay lays the run-local variables whose names start with prefix
// over a listing of stored ones, sorted by name.
func (rv *RunVars) overlay(stored []ListEntry, prefix string, entry func(name string, v json.RawMessage) ListEntry) []ListEntry {
	if rv == nil {
		return stored
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if len(rv.vars) == 0 {
		return stored
	}
	out := stored[:0:0]
	for _, e := range stored {
		if _, hidden := rv.vars[e.Name]; !hidden {
			out = append(out, e)
		}
	}
	for name, v := range rv.vars {
		if strings.HasPrefix(name, prefix) {
			out = append(out, entry(name, v))
		}
	}
	slices.SortFunc(out, func(a, b ListEntry) int { return strings.Compare(a.Name, b.Name) })
	return out
}
