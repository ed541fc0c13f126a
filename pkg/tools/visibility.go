package tools

import "sync"

// Visibility is the set of tools the model may call in a run under dynamic
// loading. Revealed tools stay pending until the next round begins (Advance),
// because a tool cannot join a model response already in progress. It is
// safe for concurrent use.
type Visibility struct {
	mu      sync.Mutex
	visible []string
	set     map[string]bool
	pending []string
	queued  map[string]bool
}

// NewVisibility returns a set in which initial is visible now, in that order;
// repeated and empty names are skipped.
func NewVisibility(initial ...string) *Visibility {
	v := &Visibility{set: map[string]bool{}, queued: map[string]bool{}}
	for _, n := range initial {
		if n != "" && !v.set[n] {
			v.set[n] = true
			v.visible = append(v.visible, n)
		}
	}
	return v
}

// Visible returns the visible names: the initial ones in the order given,
// then revealed ones in the order they were revealed.
func (v *Visibility) Visible() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.visible...)
}

// IsVisible reports whether name may be called now.
func (v *Visibility) IsVisible(name string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.set[name]
}

// Reveal makes names visible from the next Advance. Names already visible or
// already pending are ignored.
func (v *Visibility) Reveal(names ...string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, n := range names {
		if n == "" || v.set[n] || v.queued[n] {
			continue
		}
		v.queued[n] = true
		v.pending = append(v.pending, n)
	}
}

// Advance makes the pending names visible and returns them in reveal order;
// the runner calls it when a round begins and announces a non-empty result
// as a tools.visible event.
func (v *Visibility) Advance() (added []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	added = v.pending
	v.pending = nil
	for _, n := range added {
		delete(v.queued, n)
		v.set[n] = true
		v.visible = append(v.visible, n)
	}
	return added
}
