package store

import (
	"testing"
	"time"
)

func TestGoalLifecycle(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_g")
	g, err := s.CreateGoal(ctxb(), "ses_g", "tests pass", 2)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateGoal(ctxb(), "ses_g", "another", 0)
	wantErr(t, err, ErrGoalActive)
	_, err = s.CreateGoal(ctxb(), "ses_none", "x", 0)
	wantErr(t, err, ErrNotFound)
	if a, err := s.ActiveGoal(ctxb(), "ses_g"); err != nil || a == nil || a.ID != g.ID {
		t.Fatalf("active %+v %v", a, err)
	}
	if g, err = s.AdvanceGoal(ctxb(), g.ID, false, ""); err != nil || g.Status != GoalActive || g.CompletedTurns != 1 {
		t.Fatalf("advance 1: %+v %v", g, err)
	}
	if g, err = s.AdvanceGoal(ctxb(), g.ID, false, ""); err != nil || g.Status != GoalExhausted || g.CompletedTurns != 2 {
		t.Fatalf("advance 2: %+v %v", g, err)
	}
	_, err = s.EndGoal(ctxb(), g.ID, GoalCompleted, "")
	wantErr(t, err, ErrNotActive)
	// The session may have a new active goal once the old one ended.
	g2, err := s.CreateGoal(ctxb(), "ses_g", "another", 0)
	if err != nil || g2.MaxTurns != DefaultGoalMaxTurns {
		t.Fatalf("second goal %+v %v", g2, err)
	}
	if g2, err = s.EndGoal(ctxb(), g2.ID, GoalCancelled, "changed my mind"); err != nil || g2.Status != GoalCancelled {
		t.Fatalf("cancel %+v %v", g2, err)
	}
	g3, _ := s.CreateGoal(ctxb(), "ses_g", "third", 1)
	if g3, err = s.AdvanceGoal(ctxb(), g3.ID, true, "done"); err != nil || g3.Status != GoalCompleted || g3.Reason != "done" {
		t.Fatalf("met on the last turn %+v %v", g3, err)
	}
	all, err := s.ListGoals(ctxb(), "ses_g", "")
	if err != nil || len(all) != 3 {
		t.Fatalf("list %v %v", all, err)
	}
}

func TestLoopLifecycle(t *testing.T) {
	s, clk := openTest(t)
	mustSession(t, s, "ses_l")
	_, err := s.CreateLoop(ctxb(), NewLoop{SessionID: "ses_l", Prompt: "p", Interval: time.Second})
	wantErr(t, err, ErrInvalid)
	l, err := s.CreateLoop(ctxb(), NewLoop{SessionID: "ses_l", Prompt: "check", Interval: time.Minute, MaxTurns: 2})
	if err != nil {
		t.Fatal(err)
	}
	if l, err = s.SetLoopStatus(ctxb(), l.ID, LoopPaused, ""); err != nil || l.Status != LoopPaused {
		t.Fatalf("pause %+v %v", l, err)
	}
	_, err = s.SetLoopStatus(ctxb(), l.ID, LoopPaused, "")
	wantErr(t, err, ErrNotActive)
	if l, err = s.SetLoopStatus(ctxb(), l.ID, LoopActive, ""); err != nil || l.Status != LoopActive {
		t.Fatalf("resume %+v %v", l, err)
	}
	if l, err = s.ClaimFiring(ctxb(), l.ID, 7, "run_1"); err != nil || l.ClaimedJob != 7 || l.LastRunID != "run_1" {
		t.Fatalf("claim %+v %v", l, err)
	}
	before := clk.now()
	l, ran, err := s.FinishFiring(ctxb(), l.ID, 7)
	if err != nil || !ran || l.CompletedTurns != 1 || l.Status != LoopActive || !l.NextRunAt.After(before) {
		t.Fatalf("finish 1 %+v %v %v", l, ran, err)
	}
	// A job finishes its claim once.
	if l, ran, err = s.FinishFiring(ctxb(), l.ID, 7); err != nil || ran || l.CompletedTurns != 1 {
		t.Fatalf("finish again %+v %v %v", l, ran, err)
	}
	// A firing that could not start counts nothing.
	if l, ran, err = s.FinishFiring(ctxb(), l.ID, 0); err != nil || ran || l.CompletedTurns != 1 {
		t.Fatalf("skip %+v %v %v", l, ran, err)
	}
	s.ClaimFiring(ctxb(), l.ID, 8, "run_2")
	if l, _, err = s.FinishFiring(ctxb(), l.ID, 8); err != nil || l.Status != LoopExhausted || l.LastRunID != "run_2" {
		t.Fatalf("finish 2 %+v %v", l, err)
	}
	_, err = s.SetLoopStatus(ctxb(), l.ID, LoopCancelled, "")
	wantErr(t, err, ErrNotActive)
}

func TestRunWakeAt(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_w")
	l := mustBegin(t, s, "run_w", "ses_w")
	_ = l
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	if err := s.SetRunWakeAt(ctxb(), "run_w", at); err != nil {
		t.Fatal(err)
	}
	if got, err := s.RunWakeAt(ctxb(), "run_w"); err != nil || !got.Equal(at) {
		t.Fatalf("wake %v %v", got, err)
	}
}
