package store

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestBeginRunAndFinish(t *testing.T) {
	s, _ := openTest(t)
	ses := mustSession(t, s, "ses_1")
	l, err := s.BeginRun(ctxb(), "run_1", "ses_1", RunMeta{Profile: "default", Provider: "openai", Model: "gpt", PID: 4242})
	if err != nil {
		t.Fatal(err)
	}
	if l.RunID() != "run_1" || l.SessionID() != "ses_1" {
		t.Fatalf("lease ids %s %s", l.RunID(), l.SessionID())
	}
	r, err := s.GetRun(ctxb(), "run_1")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusRunning || r.EndedAt != nil || r.ExitCode != nil || r.Summary != nil ||
		r.Profile != "default" || r.Provider != "openai" || r.Model != "gpt" || r.PID != 4242 || r.SessionID != "ses_1" {
		t.Fatalf("running run %+v", r)
	}
	got, _ := s.GetSession(ctxb(), "ses_1")
	if !got.LastUsedAt.After(ses.LastUsedAt) {
		t.Fatal("BeginRun did not mark the session used")
	}

	// A second run on the same session is refused at once, naming the
	// run that holds it.
	_, err = s.BeginRun(ctxb(), "run_2", "ses_1", RunMeta{})
	wantErr(t, err, ErrSessionBusy)
	if !strings.Contains(err.Error(), "run_1") {
		t.Fatalf("busy error does not name the active run: %v", err)
	}
	// So is one from another Store (another open file, as another process
	// would have).
	other, _ := openAt(t, s.dir)
	_, err = other.BeginRun(ctxb(), "run_2", "ses_1", RunMeta{})
	wantErr(t, err, ErrSessionBusy)

	for i := int64(1); i <= 3; i++ {
		l.Journal(i, "round.started", eventLine("run_1", i, "round.started"))
	}
	summary := json.RawMessage(`{"status":"completed","exit_code":0,"text":"hi"}`)
	must(t, l.Finish(context.Background(), "completed", 0, summary))
	must(t, l.Finish(ctxb(), "failed", 1, nil)) // idempotent: the first end stays
	r, _ = s.GetRun(ctxb(), "run_1")
	if r.Status != "completed" || r.ExitCode == nil || *r.ExitCode != 0 || r.EndedAt == nil ||
		!bytes.Equal(r.Summary, summary) || r.Events != 3 {
		t.Fatalf("finished run %+v", r)
	}
	if _, err := l.AppendMessages(ctxb(), 1, msgsOf(userMsg("late"))); err == nil {
		t.Fatal("AppendMessages after Finish succeeded")
	}
	// The session is free again.
	l2 := mustBegin(t, other, "run_2", "ses_1")
	must(t, l2.Finish(ctxb(), "failed", 1, nil))
	r2, _ := s.GetRun(ctxb(), "run_2")
	if r2.Status != "failed" || *r2.ExitCode != 1 || r2.Summary != nil {
		t.Fatalf("second run %+v", r2)
	}

	_, err = s.BeginRun(ctxb(), "run_1", "ses_1", RunMeta{})
	wantErr(t, err, ErrInvalid) // run id reused
	_, err = s.BeginRun(ctxb(), "run_3", "ses_none", RunMeta{})
	wantErr(t, err, ErrNotFound)
	_, err = s.GetRun(ctxb(), "run_none")
	wantErr(t, err, ErrNotFound)
	// A failed BeginRun leaves the session free.
	mustBegin(t, s, "run_4", "ses_1").Finish(ctxb(), "completed", 0, nil)
}

func TestFinishValidatesAndSurvivesCancelledContext(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	l := mustBegin(t, s, "run_1", "ses_1")
	wantErr(t, l.Finish(ctxb(), "", 0, nil), ErrInvalid)
	wantErr(t, l.Finish(ctxb(), StatusRunning, 0, nil), ErrInvalid)
	wantErr(t, l.Finish(ctxb(), "completed", 0, json.RawMessage(`{bad`)), ErrInvalid)
	l.Journal(1, "run.completed", eventLine("run_1", 1, "run.completed"))
	ctx, cancel := context.WithCancel(ctxb())
	cancel()
	must(t, l.Finish(ctx, "cancelled", 130, json.RawMessage(`{"status":"cancelled"}`)))
	r, _ := s.GetRun(ctxb(), "run_1")
	if r.Status != "cancelled" || *r.ExitCode != 130 || r.Events != 1 {
		t.Fatalf("run finished with a cancelled context: %+v", r)
	}
}

func TestJournalAndEvents(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	l := mustBegin(t, s, "run_1", "ses_1")
	const n = 300 // several batches
	want := make([][]byte, n+1)
	for i := int64(1); i <= n; i++ {
		line := eventLine("run_1", i, "text.delta")
		want[i] = bytes.Clone(bytes.TrimSuffix(line, []byte("\n")))
		l.Journal(i, "text.delta", line)
		line[0] = 'X' // the caller may reuse its buffer
	}
	l.Journal(5, "text.delta", []byte(`{"dup":true}`)) // a seq is journaled once
	must(t, l.Finish(ctxb(), "completed", 0, nil))
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
	l.Journal(n+1, "late", []byte(`{}`)) // after Finish: ignored
	r, _ := s.GetRun(ctxb(), "run_1")
	if r.Events != n {
		t.Fatalf("Events = %d, want %d", r.Events, n)
	}
	check := func(after, before int64, limit int, first, last int64) {
		t.Helper()
		got, err := s.Events(ctxb(), "run_1", after, before, limit)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) != last-first+1 {
			t.Fatalf("Events(%d,%d,%d): %d lines, want %d..%d", after, before, limit, len(got), first, last)
		}
		for i, line := range got {
			if !bytes.Equal(line, want[first+int64(i)]) {
				t.Fatalf("Events(%d,%d,%d)[%d] = %s, want %s", after, before, limit, i, line, want[first+int64(i)])
			}
		}
	}
	check(0, 0, 0, 1, 300)
	check(0, 0, 10, 1, 10)
	check(295, 0, 10, 296, 300)
	check(0, 101, 10, 91, 100)  // the page just before 101
	check(95, 101, 10, 96, 100) // bounded by after too
	check(0, 5, 500, 1, 4)
	if got, _ := s.Events(ctxb(), "run_1", 300, 0, 0); len(got) != 0 {
		t.Fatalf("after the last: %d lines", len(got))
	}
	_, err := s.Events(ctxb(), "run_1", 0, 0, 501)
	wantErr(t, err, ErrInvalid)
	_, err = s.Events(ctxb(), "run_none", 0, 0, 0)
	wantErr(t, err, ErrNotFound)
}

func TestJournalFlushesWhileRunning(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	l := mustBegin(t, s, "run_1", "ses_1")
	defer l.Finish(ctxb(), "completed", 0, nil)
	l.Journal(1, "run.started", eventLine("run_1", 1, "run.started"))
	// Another reader (runs events --follow) sees it without Finish.
	for {
		got, err := s.Events(ctxb(), "run_1", 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 1 {
			return
		}
	}
}

func TestListRunsOrderAndCursor(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_a")
	mustSession(t, s, "ses_b")
	var all []string
	for i := range 5 {
		ses := "ses_a"
		if i%2 == 1 {
			ses = "ses_b"
		}
		id := "run_" + itoa(i)
		must(t, mustBegin(t, s, id, ses).Finish(ctxb(), "completed", 0, nil))
		all = append([]string{id}, all...)
	}
	list := func(ses string, limit int) string {
		t.Helper()
		var out []string
		cursor := ""
		for {
			page, next, err := s.ListRuns(ctxb(), ses, limit, cursor)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) > limit {
				t.Fatalf("page of %d > limit %d", len(page), limit)
			}
			for _, r := range page {
				out = append(out, r.ID)
			}
			if next == "" {
				return strings.Join(out, " ")
			}
			cursor = next
		}
	}
	if got := list("", 2); got != strings.Join(all, " ") {
		t.Fatalf("all runs %s, want %s", got, strings.Join(all, " "))
	}
	if got := list("ses_b", 1); got != "run_3 run_1" {
		t.Fatalf("runs of ses_b %s", got)
	}
	if got := list("ses_none", 5); got != "" {
		t.Fatalf("runs of an unknown session %q", got)
	}
	_, _, err := s.ListRuns(ctxb(), "", 201, "")
	wantErr(t, err, ErrInvalid)
	_, _, err = s.ListRuns(ctxb(), "", 10, encodeCursor("ses", 1, "x"))
	wantErr(t, err, ErrInvalid)
}

func TestRequestCancelInProcess(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	l := mustBegin(t, s, "run_1", "ses_1")
	select {
	case <-l.Cancelled():
		t.Fatal("cancelled before any request")
	default:
	}
	must(t, s.RequestCancel(ctxb(), "run_1"))
	<-l.Cancelled() // the test times out if the poll never sees it
	r, _ := s.GetRun(ctxb(), "run_1")
	if !r.CancelRequested {
		t.Fatal("CancelRequested not recorded")
	}
	must(t, l.Finish(ctxb(), "cancelled", 130, nil))
	wantErr(t, s.RequestCancel(ctxb(), "run_1"), ErrNotRunning)
	wantErr(t, s.RequestCancel(ctxb(), "run_none"), ErrNotFound)
}

// TestOpenMarksDeadRunsInterrupted: a run row left "running" without a live
// lock (its process died) is interrupted by the next Open; one whose lease
// is alive is not touched.
func TestOpenMarksDeadRunsInterrupted(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_dead")
	mustSession(t, s, "ses_live")
	live := mustBegin(t, s, "run_live", "ses_live")
	defer live.Finish(ctxb(), "completed", 0, nil)
	if _, err := s.db.Exec(`INSERT INTO runs (id, session_id, status, started_at) VALUES ('run_dead', 'ses_dead', 'running', 1)`); err != nil {
		t.Fatal(err)
	}
	s2, _ := openAt(t, s.dir)
	dead, _ := s2.GetRun(ctxb(), "run_dead")
	if dead.Status != StatusInterrupted || dead.EndedAt == nil || dead.ExitCode != nil {
		t.Fatalf("dead run after Open: %+v", dead)
	}
	r, _ := s2.GetRun(ctxb(), "run_live")
	if r.Status != StatusRunning {
		t.Fatalf("live run after Open: %s", r.Status)
	}
	// RequestCancel on a dead run marks it interrupted too.
	if _, err := s.db.Exec(`INSERT INTO runs (id, session_id, status, started_at) VALUES ('run_dead2', 'ses_dead', 'running', 2)`); err != nil {
		t.Fatal(err)
	}
	wantErr(t, s2.RequestCancel(ctxb(), "run_dead2"), ErrNotRunning)
	if r, _ := s2.GetRun(ctxb(), "run_dead2"); r.Status != StatusInterrupted {
		t.Fatalf("dead run after RequestCancel: %s", r.Status)
	}
	// And BeginRun on a session with a dead run starts (and closes it).
	if _, err := s.db.Exec(`INSERT INTO runs (id, session_id, status, started_at) VALUES ('run_dead3', 'ses_dead', 'running', 3)`); err != nil {
		t.Fatal(err)
	}
	l := mustBegin(t, s2, "run_new", "ses_dead")
	if r, _ := s2.GetRun(ctxb(), "run_dead3"); r.Status != StatusInterrupted {
		t.Fatalf("dead run after BeginRun: %s", r.Status)
	}
	must(t, l.Finish(ctxb(), "completed", 0, nil))
}

// TestJournalWriteFailures: a journal batch that cannot be written is kept
// and retried; lines still unwritten at Finish are reported, and the run's
// end is recorded anyway.
func TestJournalWriteFailures(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	if _, err := s.db.Exec(`CREATE TRIGGER jam BEFORE INSERT ON events WHEN NEW.type = 'jam'
		BEGIN SELECT RAISE(ABORT, 'jammed'); END`); err != nil {
		t.Fatal(err)
	}
	// Transient: the failing batch is retried after the cause goes away.
	l := mustBegin(t, s, "run_1", "ses_1")
	l.Journal(1, "jam", []byte(`{"seq":1}`))
	for l.Err() == nil {
		l.flush()
	}
	if !strings.Contains(l.Err().Error(), "jammed") {
		t.Fatalf("Err = %v", l.Err())
	}
	if _, err := s.db.Exec(`DROP TRIGGER jam`); err != nil {
		t.Fatal(err)
	}
	l.flush()
	if err := l.Err(); err != nil {
		t.Fatalf("Err after a successful retry: %v", err)
	}
	must(t, l.Finish(ctxb(), "completed", 0, nil))
	if got, _ := s.Events(ctxb(), "run_1", 0, 0, 0); len(got) != 1 {
		t.Fatalf("retried line not stored: %d lines", len(got))
	}

	// Lasting: Finish reports the lost lines and still ends the run.
	if _, err := s.db.Exec(`CREATE TRIGGER jam BEFORE INSERT ON events WHEN NEW.type = 'jam'
		BEGIN SELECT RAISE(ABORT, 'jammed'); END`); err != nil {
		t.Fatal(err)
	}
	l = mustBegin(t, s, "run_2", "ses_1")
	l.Journal(1, "ok", []byte(`{"seq":1}`))
	l.Journal(2, "jam", []byte(`{"seq":2}`))
	err := l.Finish(ctxb(), "completed", 0, nil)
	if err == nil || !strings.Contains(err.Error(), "could not be stored") || !strings.Contains(err.Error(), "jammed") {
		t.Fatalf("Finish with an unwritable journal: %v", err)
	}
	r, _ := s.GetRun(ctxb(), "run_2")
	if r.Status != "completed" {
		t.Fatalf("run end not recorded: %+v", r)
	}
	mustBegin(t, s, "run_3", "ses_1").Finish(ctxb(), "completed", 0, nil) // the session was released
}

// TestJournalBackpressure: a run that journals faster than the database
// writes waits instead of losing lines; when writes fail it drops lines
// (and says so) instead of waiting for ever.
func TestJournalBackpressure(t *testing.T) {
	s, _ := openTest(t)
	s.journalMax = 50
	mustSession(t, s, "ses_1")
	l := mustBegin(t, s, "run_1", "ses_1")
	for i := int64(1); i <= 1000; i++ {
		l.Journal(i, "text.delta", eventLine("run_1", i, "text.delta"))
	}
	must(t, l.Finish(ctxb(), "completed", 0, nil))
	if r, _ := s.GetRun(ctxb(), "run_1"); r.Events != 1000 {
		t.Fatalf("%d of 1000 events stored", r.Events)
	}

	if _, err := s.db.Exec(`CREATE TRIGGER jam BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'jammed'); END`); err != nil {
		t.Fatal(err)
	}
	l = mustBegin(t, s, "run_2", "ses_1")
	for i := int64(1); i <= 1000; i++ {
		l.Journal(i, "text.delta", eventLine("run_2", i, "text.delta"))
	}
	err := l.Finish(ctxb(), "completed", 0, nil)
	if err == nil || !strings.Contains(err.Error(), "could not be stored") {
		t.Fatalf("Finish after lost lines: %v", err)
	}
}

// TestLeaseAudit: a run's audit records are written with its journal (by a
// flush or at the latest by Finish), in order; bad records are refused at
// once; records that cannot be written are counted in Finish's error, and
// the run still ends.
func TestLeaseAudit(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	l := mustBegin(t, s, "run_1", "ses_1")
	wantErr(t, l.Audit("", time.Time{}, json.RawMessage(`{}`)), ErrInvalid)
	wantErr(t, l.Audit(AuditTool, time.Time{}, json.RawMessage(`{bad`)), ErrInvalid)
	must(t, l.Audit(AuditTool, time.Time{}, json.RawMessage(`{"call_id":"c1"}`)))
	l.flush()
	rows, _, err := s.ListAudit(ctxb(), AuditTool, 10, "")
	if err != nil || len(rows) != 1 || !strings.Contains(string(rows[0].Data), "c1") || rows[0].Time.IsZero() {
		t.Fatalf("after a flush: %+v %v", rows, err)
	}
	must(t, l.Audit(AuditTool, time.Time{}, json.RawMessage(`{"call_id":"c2"}`)))
	must(t, l.Finish(ctxb(), "completed", 0, nil))
	must(t, l.Audit(AuditTool, time.Time{}, json.RawMessage(`{"call_id":"late"}`))) // after Finish: nothing
	rows, _, _ = s.ListAudit(ctxb(), AuditTool, 10, "")
	if len(rows) != 2 || !strings.Contains(string(rows[0].Data), "c2") {
		t.Fatalf("after Finish: %+v", rows)
	}

	if _, err := s.db.Exec(`CREATE TRIGGER jam BEFORE INSERT ON audit BEGIN SELECT RAISE(ABORT, 'jammed'); END`); err != nil {
		t.Fatal(err)
	}
	l = mustBegin(t, s, "run_2", "ses_1")
	l.Journal(1, "ok", []byte(`{"seq":1}`))
	must(t, l.Audit(AuditTool, time.Time{}, json.RawMessage(`{"call_id":"c3"}`)))
	err = l.Finish(ctxb(), "completed", 0, nil)
	if err == nil || !strings.Contains(err.Error(), "1 events and 1 audit records could not be stored") {
		t.Fatalf("Finish with an unwritable audit: %v", err)
	}
	if r, _ := s.GetRun(ctxb(), "run_2"); r.Status != "completed" {
		t.Fatalf("run end not recorded: %+v", r)
	}
}
