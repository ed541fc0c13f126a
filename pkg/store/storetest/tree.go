package storetest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
)

// makeTree stores root ← a ← a1, root ← b: children created in that order.
func makeTree(t *testing.T, s *store.Store) {
	t.Helper()
	get(s.CreateSession(ctx(), "ses_root", "root"))(t)
	for _, c := range [][2]string{{"ses_a", "ses_root"}, {"ses_b", "ses_root"}, {"ses_a1", "ses_a"}} {
		ts := get(s.CreateChildSession(ctx(), c[0], "title "+c[0], c[1]))(t)
		if ts.ParentSessionID != c[1] || ts.RootSessionID != "ses_root" || ts.Title != "title "+c[0] {
			t.Fatalf("created %+v", ts)
		}
	}
}

func ids(ms []store.TreeSession) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return strings.Join(out, " ")
}

func testSessionTree(t *testing.T, open Opener) {
	s := open(t, "a")
	makeTree(t, s)
	_, err := s.CreateChildSession(ctx(), "ses_x", "x", "ses_nope")
	wantErr(t, err, store.ErrNotFound)
	_, err = s.CreateChildSession(ctx(), "ses_a", "again", "ses_root")
	wantErr(t, err, store.ErrInvalid)

	// From any member, the whole tree from its root, depth-first.
	for _, from := range []string{"ses_root", "ses_a1", "ses_b"} {
		tree := get(s.SessionTree(ctx(), from))(t)
		if got := ids(tree); got != "ses_root ses_a ses_a1 ses_b" {
			t.Fatalf("tree from %s: %s", from, got)
		}
		for i, d := range []int{0, 1, 2, 1} {
			if tree[i].Depth != d || tree[i].RootSessionID != "ses_root" {
				t.Fatalf("tree from %s: member %d = %+v", from, i, tree[i])
			}
		}
	}
	if ts := get(s.TreeSession(ctx(), "ses_a1"))(t); ts.Depth != 2 || ts.ParentSessionID != "ses_a" {
		t.Fatalf("ses_a1 = %+v", ts)
	}
	if ts := get(s.TreeSession(ctx(), "ses_root"))(t); ts.Depth != 0 || ts.ParentSessionID != "" || ts.RootSessionID != "ses_root" {
		t.Fatalf("root = %+v", ts)
	}
	_, err = s.SessionTree(ctx(), "ses_nope")
	wantErr(t, err, store.ErrNotFound)

	sub := get(s.Subtree(ctx(), "ses_a"))(t)
	if got := ids(sub); got != "ses_a ses_a1" || sub[1].Depth != 2 {
		t.Fatalf("subtree of ses_a: %s %+v", got, sub)
	}
	if got := ids(get(s.Subtree(ctx(), "ses_b"))(t)); got != "ses_b" {
		t.Fatalf("subtree of ses_b: %s", got)
	}

	// A run names the run that started it; Status is the newest run's.
	l := get(s.BeginRun(ctx(), "run_root", "ses_root", store.RunMeta{}))(t)
	for _, c := range [][2]string{{"run_b", "ses_b"}, {"run_a", "ses_a"}} {
		lc := get(s.BeginRun(ctx(), c[0], c[1], store.RunMeta{ParentRunID: "run_root"}))(t)
		if c[0] == "run_b" {
			if err := lc.Finish(ctx(), "completed", 0, nil); err != nil {
				t.Fatal(err)
			}
			continue
		}
		defer lc.Finish(ctx(), "completed", 0, nil)
	}
	runs := get(s.ChildRuns(ctx(), "run_root"))(t)
	if len(runs) != 2 || runs[0].ID != "run_b" || runs[1].ID != "run_a" {
		t.Fatalf("child runs of run_root: %+v", runs)
	}
	if len(get(s.ChildRuns(ctx(), "run_a"))(t)) != 0 {
		t.Fatal("run_a has no children")
	}
	tree := get(s.SessionTree(ctx(), "ses_root"))(t)
	for i, want := range []string{"running", "running", "", "completed"} {
		if tree[i].Status != want {
			t.Fatalf("%s status %q, want %q", tree[i].ID, tree[i].Status, want)
		}
	}
	if err := l.Finish(ctx(), "completed", 0, nil); err != nil {
		t.Fatal(err)
	}

	// BeginRun with Child stores the session and its run in one step.
	lc := get(s.BeginRun(ctx(), "run_b2", "ses_b2", store.RunMeta{ParentRunID: "run_root",
		Child: &store.ChildSession{Title: "second b", ParentSessionID: "ses_b", Config: json.RawMessage(`{"model":"m"}`)}}))(t)
	if doc := get(s.SessionConfig(ctx(), "ses_b2"))(t); string(doc) != `{"model":"m"}` {
		t.Fatalf("config of ses_b2 = %s", doc)
	}
	if ts := get(s.TreeSession(ctx(), "ses_b2"))(t); ts.Title != "second b" || ts.ParentSessionID != "ses_b" ||
		ts.RootSessionID != "ses_root" || ts.Depth != 2 || ts.Status != "running" {
		t.Fatalf("ses_b2 = %+v", ts)
	}
	if err := lc.Finish(ctx(), "completed", 0, nil); err != nil {
		t.Fatal(err)
	}
	if runs := get(s.ChildRuns(ctx(), "run_root"))(t); len(runs) != 3 || runs[2].ID != "run_b2" {
		t.Fatalf("child runs of run_root: %+v", runs)
	}
	_, err = s.BeginRun(ctx(), "run_x", "ses_x", store.RunMeta{Child: &store.ChildSession{Title: "x", ParentSessionID: "ses_nope"}})
	wantErr(t, err, store.ErrNotFound)
	_, err = s.GetSession(ctx(), "ses_x")
	wantErr(t, err, store.ErrNotFound)
	_, err = s.BeginRun(ctx(), "run_x", "ses_b2", store.RunMeta{Child: &store.ChildSession{Title: "x", ParentSessionID: "ses_b"}})
	wantErr(t, err, store.ErrInvalid)
	_, err = s.BeginRun(ctx(), "run_x", "ses_x", store.RunMeta{Child: &store.ChildSession{Title: "x", ParentSessionID: "ses_b", Config: json.RawMessage(`[1]`)}})
	wantErr(t, err, store.ErrInvalid)
	if got := ids(get(s.SessionTree(ctx(), "ses_root"))(t)); got != "ses_root ses_a ses_a1 ses_b ses_b2" {
		t.Fatalf("tree: %s", got)
	}
}

func testDeleteSessionTree(t *testing.T, open Opener) {
	s, other := open(t, "a"), open(t, "a")
	makeTree(t, s)
	// A running leaf makes its whole subtree busy, from any handle, and
	// nothing is deleted.
	l := get(s.BeginRun(ctx(), "run_a1", "ses_a1", store.RunMeta{}))(t)
	for _, h := range []*store.Store{s, other} {
		_, err := h.DeleteSessionTree(ctx(), "ses_a")
		wantErr(t, err, store.ErrSessionBusy)
		_, err = h.DeleteSessionTree(ctx(), "ses_root")
		wantErr(t, err, store.ErrSessionBusy)
	}
	if got := ids(get(s.SessionTree(ctx(), "ses_root"))(t)); got != "ses_root ses_a ses_a1 ses_b" {
		t.Fatalf("after refused deletes: %s", got)
	}
	// A subtree without the running member can go.
	if n := get(other.DeleteSessionTree(ctx(), "ses_b"))(t); n != 1 {
		t.Fatalf("deleted %d", n)
	}
	if err := l.Finish(ctx(), "completed", 0, nil); err != nil {
		t.Fatal(err)
	}
	if n := get(other.DeleteSessionTree(ctx(), "ses_a"))(t); n != 2 {
		t.Fatalf("deleted %d", n)
	}
	if got := ids(get(s.SessionTree(ctx(), "ses_root"))(t)); got != "ses_root" {
		t.Fatalf("after deletes: %s", got)
	}
	for _, id := range []string{"ses_a", "ses_a1", "ses_b"} {
		_, err := s.GetSession(ctx(), id)
		wantErr(t, err, store.ErrNotFound)
	}
	_, err := s.GetRun(ctx(), "run_a1")
	wantErr(t, err, store.ErrNotFound)
	// Deleting what is not there deletes nothing.
	if n := get(s.DeleteSessionTree(ctx(), "ses_a"))(t); n != 0 {
		t.Fatalf("deleted %d", n)
	}
	if n := get(s.DeleteSessionTree(ctx(), "ses_root"))(t); n != 1 {
		t.Fatalf("deleted %d", n)
	}
}
