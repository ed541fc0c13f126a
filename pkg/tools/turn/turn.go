// Package turn holds the end-of-turn actions of SPEC §14: tavo_finish,
// tavo_send_message and tavo_wait, and the Control through which they tell
// the runner that the turn is over. The runner puts one Control in the
// context of every tool call (WithControl); a tool ends the turn by calling
// End on it, and the runner reads it once the calls of the round have run.
package turn

import (
	"context"
	"sync"
	"time"
)

// Actions that end a turn, as TurnEnd.Action reports them.
const (
	ActionFinish      = "finish"
	ActionSendMessage = "send_message"
	ActionWait        = "wait"
)

// Control is one run's end-of-turn state. It is safe for concurrent use: a
// tool runs on its own goroutine.
type Control struct {
	mu     sync.Mutex
	ended  bool
	action string
	// wake is the wake-up the latest tavo_wait of the turn declared; nil
	// when none did or the latest call declared none.
	wake *time.Time
	// sent is the text of the latest tavo_send_message of the turn.
	sent string
}

// End marks the turn over after the current round's calls; the latest
// action wins.
func (c *Control) End(action string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	c.action = action
}

// SetWake records the wake-up the turn declares; nil declares none. The last
// call of a turn wins.
func (c *Control) SetWake(t *time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wake = t
}

// Sent records the text of a message the model sent this turn.
func (c *Control) Sent(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = text
}

// Taken is what one turn declared.
type Taken struct {
	// Ended says an end-of-turn action was called.
	Ended  bool
	Action string
	// WakeAt is the declared wake-up; nil for none.
	WakeAt *time.Time
	// Sent is the text of the turn's latest sent message.
	Sent string
}

// Take returns what the turn declared and clears it for the next turn.
func (c *Control) Take() Taken {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := Taken{Ended: c.ended, Action: c.action, WakeAt: c.wake, Sent: c.sent}
	c.ended, c.action, c.wake, c.sent = false, "", nil, ""
	return t
}

type ctxKey struct{}

// WithControl returns ctx carrying c, for the tools of one run.
func WithControl(ctx context.Context, c *Control) context.Context {
	return context.WithValue(ctx, ctxKey{}, c)
}

// From returns the Control of ctx, nil outside a run that has one.
func From(ctx context.Context) *Control {
	c, _ := ctx.Value(ctxKey{}).(*Control)
	return c
}

// Ended reports whether an end-of-turn action was called this turn.
func (c *Control) Ended() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended
}
