package store

import (
	"context"
	"errors"
	"testing"
)

func TestSessionTree(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	mustCreate := func(id string) {
		if _, err := s.CreateSession(ctx, id, id); err != nil {
			t.Fatal(err)
		}
	}
	mustCreate("ses_root")
	for _, c := range [][2]string{{"ses_a", "ses_root"}, {"ses_b", "ses_root"}, {"ses_a1", "ses_a"}} {
		ts, err := s.CreateChildSession(ctx, c[0], c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		if ts.RootSessionID != "ses_root" {
			t.Fatalf("%s: root %q", c[0], ts.RootSessionID)
		}
	}
	tree, err := s.SessionTree(ctx, "ses_a1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range tree {
		got = append(got, m.ID)
	}
	want := []string{"ses_root", "ses_a", "ses_a1", "ses_b"}
	if len(got) != len(want) {
		t.Fatalf("tree = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("tree = %v, want %v", got, want)
		}
	}
	if tree[2].Depth != 2 || tree[2].ParentSessionID != "ses_a" {
		t.Fatalf("ses_a1 = %+v", tree[2])
	}
	if ts, _ := s.TreeSession(ctx, "ses_a1"); ts.Depth != 2 {
		t.Fatalf("depth of ses_a1 = %d", ts.Depth)
	}
	if _, err := s.CreateChildSession(ctx, "ses_x", "x", "ses_nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown parent: %v", err)
	}

	// Runs started by a run.
	l, err := s.BeginRun(ctx, "run_root", "ses_root", RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	lc, err := s.BeginRun(ctx, "run_a", "ses_a", RunMeta{ParentRunID: "run_root"})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := s.ChildRuns(ctx, "run_root")
	if err != nil || len(runs) != 1 || runs[0].ID != "run_a" {
		t.Fatalf("child runs = %v, %v", runs, err)
	}

	// A running member makes the whole subtree busy.
	if _, err := s.DeleteSessionTree(ctx, "ses_root"); !errors.Is(err, ErrSessionBusy) {
		t.Fatalf("delete with running members: %v", err)
	}
	if err := lc.Finish(ctx, "completed", 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.Finish(ctx, "completed", 0, nil); err != nil {
		t.Fatal(err)
	}
	n, err := s.DeleteSessionTree(ctx, "ses_a")
	if err != nil || n != 2 {
		t.Fatalf("delete subtree = %d, %v", n, err)
	}
	if tree, _ := s.SessionTree(ctx, "ses_root"); len(tree) != 2 {
		t.Fatalf("after delete: %v", tree)
	}
}
