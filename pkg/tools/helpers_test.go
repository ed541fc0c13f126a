package tools

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// funcTool is a Tool made of a spec and a function.
type funcTool struct {
	spec Spec
	run  func(ctx context.Context, call *Call) (any, error)
}

func (f funcTool) Spec() Spec { return f.spec }

func (f funcTool) Run(ctx context.Context, call *Call) (any, error) { return f.run(ctx, call) }

// newTool returns a built-in tool with an open object schema.
func newTool(name string, run func(ctx context.Context, call *Call) (any, error)) funcTool {
	return funcTool{
		spec: Spec{Name: name, Description: "test tool " + name, Parameters: json.RawMessage(`{"type":"object"}`)},
		run:  run,
	}
}

// returning is a tool that returns v, err.
func returning(name string, v any, err error) funcTool {
	return newTool(name, func(context.Context, *Call) (any, error) { return v, err })
}

// mustCatalog builds a catalog or fails the test.
func mustCatalog(t testing.TB, ts ...Tool) *Catalog {
	t.Helper()
	c, err := NewCatalog(ts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// call is a provider tool call with raw arguments.
func call(name, args string) providers.ToolCall {
	return providers.ToolCall{ID: "call_1", Name: name, Arguments: args}
}

// fakeClock is a manual clock; timers fire only in Advance.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	fired  int
}

type fakeTimer struct {
	c      *fakeClock
	at     time.Time
	f      func()
	active bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) stopper {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f, active: true}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = false
	return was
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = true
	t.at = t.c.now.Add(d)
	return was
}

// Advance moves the clock and runs the timers that fall due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, t := range c.timers {
		if t.active && !t.at.After(c.now) {
			t.active = false
			due = append(due, t.f)
			c.fired++
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// Fired counts timer firings so far.
func (c *fakeClock) Fired() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fired
}
