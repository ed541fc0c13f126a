package store

import (
	"reflect"
	"testing"
)

func TestPrunePlanAndApply(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	mustSession(t, s, "ses_2")
	// run_0 (oldest) … run_5 (newest) ended, each with i+1 events.
	for i := range 6 {
		l := mustBegin(t, s, "run_"+itoa(i), "ses_1")
		for e := int64(1); e <= int64(i+1); e++ {
			l.Journal(e, "x", eventLine(l.RunID(), e, "x"))
		}
		if _, err := l.AppendMessages(ctxb(), 1, msgsOf(userMsg("m"+itoa(i)))); err != nil {
			t.Fatal(err)
		}
		must(t, l.Finish(ctxb(), "completed", 0, nil))
	}
	live := mustBegin(t, s, "run_live", "ses_2")
	live.Journal(1, "x", eventLine("run_live", 1, "x"))

	p, err := s.PlanPrune(ctxb(), 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := &PrunePlan{Keep: 4, KeepFull: 2, DeleteRuns: []string{"run_1", "run_0"}, DropEvents: []string{"run_3", "run_2"},
		FreedEvents: 2 + 1 + 4 + 3, Running: 1}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("plan %+v, want %+v", p, want)
	}
	// Planning changes nothing.
	if n := countRows(t, s, `SELECT COUNT(*) FROM runs`); n != 7 {
		t.Fatalf("plan removed runs: %d left", n)
	}
	must(t, s.ApplyPrune(ctxb(), p))
	runs, _, _ := s.ListRuns(ctxb(), "", 0, "")
	got := map[string]int{}
	for _, r := range runs {
		if r.ID != "run_live" { // its journal may still be buffered
			got[r.ID] = r.Events
		}
	}
	if !reflect.DeepEqual(got, map[string]int{"run_5": 6, "run_4": 5, "run_3": 0, "run_2": 0}) || len(runs) != 5 {
		t.Fatalf("after prune: %v (%d runs)", got, len(runs))
	}
	for _, id := range []string{"run_0", "run_1", "run_2", "run_3"} {
		if n := countRows(t, s, `SELECT COUNT(*) FROM events WHERE run_id = ?`, id); n != 0 {
			t.Fatalf("%s still has %d events", id, n)
		}
	}
	// The conversation is never pruned.
	if h, _ := s.History(ctxb(), "ses_1", 1); len(h) != 6 {
		t.Fatalf("prune removed messages: %d left", len(h))
	}
	must(t, live.Finish(ctxb(), "completed", 0, nil))
	if r, _ := s.GetRun(ctxb(), "run_live"); r.Events != 1 {
		t.Fatalf("the running run's journal was touched: %+v", r)
	}
	// Applying the same plan again is harmless.
	must(t, s.ApplyPrune(ctxb(), p))

	p0, _ := s.PlanPrune(ctxb(), 0, 0)
	if len(p0.DeleteRuns) != 5 || len(p0.DropEvents) != 0 {
		t.Fatalf("keep 0 plan %+v", p0)
	}
	for _, bad := range [][2]int{{-1, 0}, {2, 3}, {2, -1}} {
		_, err := s.PlanPrune(ctxb(), bad[0], bad[1])
		wantErr(t, err, ErrInvalid)
	}
	wantErr(t, s.ApplyPrune(ctxb(), nil), ErrInvalid)
}
