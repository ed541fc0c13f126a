package tools

import (
	"sync"
	"time"
)

// clock is the time source of call timeouts; tests substitute a manual one.
type clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) stopper
}

// stopper is the part of *time.Timer the call timer uses.
type stopper interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// callTimer is a per-call timeout whose clock stops while a person is being
// waited for. Pauses nest: the clock runs again when the last one ends.
type callTimer struct {
	clk     clock
	mu      sync.Mutex
	left    time.Duration // time left when the clock last stopped or started
	since   time.Time     // when the clock last started
	pauses  int
	done    bool // expired or stopped
	t       stopper
	expired chan struct{}
}

// startCallTimer starts a timer that closes expired after d of unpaused time.
func startCallTimer(clk clock, d time.Duration) *callTimer {
	ct := &callTimer{clk: clk, left: d, expired: make(chan struct{})}
	ct.mu.Lock()
	defer ct.mu.Unlock()
	ct.since = clk.Now()
	ct.t = clk.AfterFunc(d, ct.fire)
	return ct
}

// fire runs when the underlying timer goes off; a pause that began just
// before wins, and the remaining time (about zero) runs again on resume.
func (ct *callTimer) fire() {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if ct.done || ct.pauses > 0 {
		return
	}
	ct.done = true
	close(ct.expired)
}

// pause stops the clock until the returned function is called (once; later
// calls do nothing).
func (ct *callTimer) pause() (resume func()) {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if ct.pauses == 0 && !ct.done {
		ct.t.Stop()
		ct.left -= ct.clk.Now().Sub(ct.since)
		if ct.left < 0 {
			ct.left = 0
		}
	}
	ct.pauses++
	var once sync.Once
	return func() { once.Do(ct.resume) }
}

// resume ends one pause.
func (ct *callTimer) resume() {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	ct.pauses--
	if ct.pauses == 0 && !ct.done {
		ct.since = ct.clk.Now()
		ct.t.Reset(ct.left)
	}
}

// stop ends the timer for good.
func (ct *callTimer) stop() {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	ct.done = true
	ct.t.Stop()
}
