package storetest

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/store"
)

// testGoals: goals are created active, one per session across handles
// (two racing processes: exactly one wins), advanced turn by turn to
// completed or exhausted, ended, listed, and go with their session.
func testGoals(t *testing.T, open Opener) {
	a, b := open(t, "a"), open(t, "a")
	get(a.CreateSession(ctx(), "ses_g", "g"))(t)
	_, err := a.CreateGoal(ctx(), "ses_none", "x", 0)
	wantErr(t, err, store.ErrNotFound)

	// Two handles race to set the session's goal: one wins, the other is
	// told the session has one.
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := a
			if i%2 == 1 {
				h = b
			}
			_, errs[i] = h.CreateGoal(ctx(), "ses_g", "tests pass", 2)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrGoalActive):
			t.Fatalf("racing goal: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d racing goals were created, want 1", won)
	}
	g := get(b.ActiveGoal(ctx(), "ses_g"))(t)
	if g == nil || g.Status != store.GoalActive || g.MaxTurns != 2 || g.Condition != "tests pass" {
		t.Fatalf("active goal %+v", g)
	}
	if g = get(b.AdvanceGoal(ctx(), g.ID, false, ""))(t); g.Status != store.GoalActive || g.CompletedTurns != 1 {
		t.Fatalf("advance 1: %+v", g)
	}
	if g = get(a.AdvanceGoal(ctx(), g.ID, false, ""))(t); g.Status != store.GoalExhausted || g.CompletedTurns != 2 || g.Reason == "" {
		t.Fatalf("advance 2: %+v", g)
	}
	_, err = a.AdvanceGoal(ctx(), g.ID, true, "")
	wantErr(t, err, store.ErrNotActive)
	_, err = b.EndGoal(ctx(), g.ID, store.GoalCancelled, "")
	wantErr(t, err, store.ErrNotActive)
	if got := get(a.ActiveGoal(ctx(), "ses_g"))(t); got != nil {
		t.Fatalf("an ended goal is still active: %+v", got)
	}

	g2 := get(b.CreateGoal(ctx(), "ses_g", "second ‘ü’ ?", 0))(t)
	if g2.MaxTurns != store.DefaultGoalMaxTurns {
		t.Fatalf("default max turns %d", g2.MaxTurns)
	}
	if g2 = get(a.EndGoal(ctx(), g2.ID, store.GoalCancelled, "changed my mind"))(t); g2.Status != store.GoalCancelled {
		t.Fatalf("cancel %+v", g2)
	}
	g3 := get(a.CreateGoal(ctx(), "ses_g", "third", 3))(t)
	if g3 = get(b.AdvanceGoal(ctx(), g3.ID, true, "done"))(t); g3.Status != store.GoalCompleted || g3.Reason != "done" || g3.CompletedTurns != 1 {
		t.Fatalf("met %+v", g3)
	}
	if got := get(b.GetGoal(ctx(), g2.ID))(t); got.Condition != "second ‘ü’ ?" || got.Reason != "changed my mind" {
		t.Fatalf("read back %+v", got)
	}
	_, err = a.GetGoal(ctx(), "goal_none")
	wantErr(t, err, store.ErrNotFound)
	if all := get(b.ListGoals(ctx(), "ses_g", ""))(t); len(all) != 3 || all[0].Status != store.GoalExhausted {
		t.Fatalf("list %+v", all)
	}
	if done := get(a.ListGoals(ctx(), "", store.GoalCompleted))(t); len(done) != 1 || done[0].ID != g3.ID {
		t.Fatalf("completed %+v", done)
	}
	if err := a.DeleteSession(ctx(), "ses_g"); err != nil {
		t.Fatal(err)
	}
	_, err = b.GetGoal(ctx(), g3.ID)
	wantErr(t, err, store.ErrNotFound)
}

// testLoops: loops are created, paused and resumed, their firings claimed
// and finished once (two handles finishing one firing count it once), and
// they end exhausted, expired or cancelled.
func testLoops(t *testing.T, open Opener) {
	a, b := open(t, "a"), open(t, "a")
	get(a.CreateSession(ctx(), "ses_l", "l"))(t)
	_, err := a.CreateLoop(ctx(), store.NewLoop{SessionID: "ses_l", Prompt: "p", Interval: time.Second})
	wantErr(t, err, store.ErrInvalid)
	_, err = a.CreateLoop(ctx(), store.NewLoop{SessionID: "ses_none", Prompt: "p", Interval: time.Minute})
	wantErr(t, err, store.ErrNotFound)
	cfg := json.RawMessage(`{"model":"m","tools":["a"]}`)
	before := time.Now()
	l := get(a.CreateLoop(ctx(), store.NewLoop{SessionID: "ses_l", Prompt: "check ‘ü’ ?", Interval: time.Minute, MaxTurns: 2, Config: cfg}))(t)
	got := get(b.GetLoop(ctx(), l.ID))(t)
	if got.Status != store.LoopActive || got.Prompt != "check ‘ü’ ?" || got.Interval != time.Minute || got.MaxTurns != 2 ||
		string(got.Config) != string(cfg) || !got.ExpiresAt.IsZero() || got.NextRunAt.Before(before.Add(time.Minute-time.Second)) {
		t.Fatalf("read back %+v", got)
	}

	if l = get(b.SetLoopStatus(ctx(), l.ID, store.LoopPaused, "lunch"))(t); l.Status != store.LoopPaused || l.Reason != "lunch" {
		t.Fatalf("pause %+v", l)
	}
	_, err = a.SetLoopStatus(ctx(), l.ID, store.LoopPaused, "")
	wantErr(t, err, store.ErrNotActive)
	if ps := get(a.ListLoops(ctx(), "", store.LoopPaused))(t); len(ps) != 1 || ps[0].ID != l.ID {
		t.Fatalf("paused loops %+v", ps)
	}
	if l = get(a.SetLoopStatus(ctx(), l.ID, store.LoopActive, ""))(t); l.Status != store.LoopActive {
		t.Fatalf("resume %+v", l)
	}

	// A firing: claimed once the run holds the session, then finished by
	// two handles at once (a rescued job and its first worker): counted once.
	if l = get(a.ClaimFiring(ctx(), l.ID, 7, "run_1"))(t); l.ClaimedJob != 7 || l.LastRunID != "run_1" {
		t.Fatalf("claim %+v", l)
	}
	if got := get(b.GetLoop(ctx(), l.ID))(t); got.ClaimedJob != 7 {
		t.Fatalf("the other handle sees claim %d", got.ClaimedJob)
	}
	var wg sync.WaitGroup
	ran := make([]bool, 6)
	for i := range ran {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := a
			if i%2 == 1 {
				h = b
			}
			_, r, err := h.FinishFiring(ctx(), l.ID, 7)
			if err != nil {
				t.Error(err)
			}
			ran[i] = r
		}()
	}
	wg.Wait()
	n := 0
	for _, r := range ran {
		if r {
			n++
		}
	}
	l = get(b.GetLoop(ctx(), l.ID))(t)
	if n != 1 || l.CompletedTurns != 1 || l.ClaimedJob != -7 || l.Status != store.LoopActive {
		t.Fatalf("finished %d times: %+v", n, l)
	}
	// A firing that could not start counts nothing.
	if l, r := get2(a.FinishFiring(ctx(), l.ID, 0))(t); r || l.CompletedTurns != 1 {
		t.Fatalf("skipped firing %+v %v", l, r)
	}
	get(a.ClaimFiring(ctx(), l.ID, 8, "run_2"))(t)
	if l, _ = get2(b.FinishFiring(ctx(), l.ID, 8))(t); l.Status != store.LoopExhausted || l.LastRunID != "run_2" || l.Reason == "" {
		t.Fatalf("last turn %+v", l)
	}
	_, err = a.SetLoopStatus(ctx(), l.ID, store.LoopCancelled, "")
	wantErr(t, err, store.ErrNotActive)

	// Expiry: a loop whose next firing would fall after expires_at ends.
	e := get(a.CreateLoop(ctx(), store.NewLoop{SessionID: "ses_l", Prompt: "p", Interval: time.Minute, ExpiresAt: time.Now().Add(30 * time.Second)}))(t)
	if got := get(b.GetLoop(ctx(), e.ID))(t); got.ExpiresAt.IsZero() {
		t.Fatalf("expires_at lost: %+v", got)
	}
	get(b.ClaimFiring(ctx(), e.ID, 9, "run_3"))(t)
	if e, _ = get2(a.FinishFiring(ctx(), e.ID, 9))(t); e.Status != store.LoopExhausted || e.Reason != "expired" {
		t.Fatalf("expired %+v", e)
	}
	c := get(b.CreateLoop(ctx(), store.NewLoop{SessionID: "ses_l", Prompt: "p", Interval: time.Minute}))(t)
	if c = get(a.SetLoopStatus(ctx(), c.ID, store.LoopCancelled, "no"))(t); c.Status != store.LoopCancelled {
		t.Fatalf("cancel %+v", c)
	}
	// Finishing a firing of a loop that ended meanwhile keeps its status.
	if c, _ = get2(b.FinishFiring(ctx(), c.ID, 0))(t); c.Status != store.LoopCancelled {
		t.Fatalf("finish after cancel %+v", c)
	}
	if all := get(a.ListLoops(ctx(), "ses_l", ""))(t); len(all) != 3 {
		t.Fatalf("loops %+v", all)
	}
	if act := get(a.ListLoops(ctx(), "", store.LoopActive))(t); len(act) != 0 {
		t.Fatalf("active loops %+v", act)
	}
	_, err = a.GetLoop(ctx(), "loop_none")
	wantErr(t, err, store.ErrNotFound)
	if err := b.DeleteSession(ctx(), "ses_l"); err != nil {
		t.Fatal(err)
	}
	if all := get(a.ListLoops(ctx(), "", ""))(t); len(all) != 0 {
		t.Fatalf("loops outlive their session: %+v", all)
	}
}

// testWakeAt: the wake-up a run recorded reads back on another handle.
func testWakeAt(t *testing.T, open Opener) {
	a, b := open(t, "a"), open(t, "a")
	get(a.CreateSession(ctx(), "ses_w", "w"))(t)
	l := get(a.BeginRun(ctx(), "run_w", "ses_w", store.RunMeta{}))(t)
	if at := get(b.RunWakeAt(ctx(), "run_w"))(t); !at.IsZero() {
		t.Fatalf("wake-up before one was recorded: %v", at)
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 123, time.UTC)
	if err := a.SetRunWakeAt(ctx(), "run_w", at); err != nil {
		t.Fatal(err)
	}
	if err := l.Finish(ctx(), "waiting", 0, nil); err != nil {
		t.Fatal(err)
	}
	if got := get(b.RunWakeAt(ctx(), "run_w"))(t); !got.Equal(at) {
		t.Fatalf("wake-up %v, want %v", got, at)
	}
	_, err := b.RunWakeAt(ctx(), "run_none")
	wantErr(t, err, store.ErrNotFound)
}
