package store

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestSessionCreateGetRename(t *testing.T) {
	s, c := openTest(t)
	ss, err := s.CreateSession(ctxb(), "ses_1", "First")
	if err != nil {
		t.Fatal(err)
	}
	if ss.ID != "ses_1" || ss.Title != "First" || ss.CreatedAt.IsZero() || !ss.CreatedAt.Equal(ss.LastUsedAt) || ss.Messages != 0 || ss.ActiveRun != "" {
		t.Fatalf("created %+v", ss)
	}
	if ss.CreatedAt.Location() != time.UTC {
		t.Fatalf("times are not UTC: %v", ss.CreatedAt)
	}
	got, err := s.GetSession(ctxb(), "ses_1")
	if err != nil || *got != *ss {
		t.Fatalf("GetSession %+v %v, want %+v", got, err, ss)
	}
	_, err = s.CreateSession(ctxb(), "ses_1", "again")
	wantErr(t, err, ErrInvalid)
	_, err = s.GetSession(ctxb(), "ses_none")
	wantErr(t, err, ErrNotFound)

	c.now()
	if err := s.RenameSession(ctxb(), "ses_1", "  Second  "); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetSession(ctxb(), "ses_1")
	if got.Title != "Second" || !got.LastUsedAt.Equal(ss.LastUsedAt) {
		t.Fatalf("after rename %+v (rename must not touch last_used_at)", got)
	}
	wantErr(t, s.RenameSession(ctxb(), "ses_none", "x"), ErrNotFound)

	if err := s.TouchSession(ctxb(), "ses_1"); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetSession(ctxb(), "ses_1")
	if !got.LastUsedAt.After(ss.LastUsedAt) {
		t.Fatalf("touch did not move last_used_at: %v", got.LastUsedAt)
	}
	wantErr(t, s.TouchSession(ctxb(), "ses_none"), ErrNotFound)
}

func TestListSessionsOrderAndCursor(t *testing.T) {
	s, _ := openTest(t)
	for _, id := range []string{"ses_a", "ses_b", "ses_c", "ses_d", "ses_e"} {
		mustSession(t, s, id)
	}
	// Use order: e d c b a; then touch b, append a user message to d, and
	// rename a (which must not move it).
	must(t, s.TouchSession(ctxb(), "ses_b"))
	if _, err := s.AppendMessages(ctxb(), "ses_d", "", 0, msgsOf(userMsg("hi"))); err != nil {
		t.Fatal(err)
	}
	must(t, s.RenameSession(ctxb(), "ses_a", "renamed"))
	// A non-user message does not count as use.
	if _, err := s.AppendMessages(ctxb(), "ses_c", "", 0, msgsOf(assistantCall("x", "c1"))); err != nil {
		t.Fatal(err)
	}
	want := "ses_d ses_b ses_e ses_c ses_a"

	all, next, err := s.ListSessions(ctxb(), 0, "")
	if err != nil || next != "" || ids(all) != want {
		t.Fatalf("ListSessions = %s next %q %v, want %s", ids(all), next, err, want)
	}
	var paged []Session
	cursor := ""
	for pages := 0; ; pages++ {
		page, next, err := s.ListSessions(ctxb(), 2, cursor)
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, page...)
		if next == "" {
			if pages != 2 {
				t.Fatalf("%d pages of 2 for 5 sessions", pages+1)
			}
			break
		}
		cursor = next
	}
	if ids(paged) != want {
		t.Fatalf("paged %s, want %s", ids(paged), want)
	}
	if all[0].Messages != 1 || all[0].LastSeq != 1 {
		t.Fatalf("message count of ses_d: %+v", all[0])
	}

	// Ties on last_used_at are broken by id.
	s2, _ := openTest(t)
	fixed := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s2.now = func() time.Time { return fixed }
	for _, id := range []string{"ses_3", "ses_1", "ses_2"} {
		mustSession(t, s2, id)
	}
	p1, next, _ := s2.ListSessions(ctxb(), 2, "")
	p2, _, _ := s2.ListSessions(ctxb(), 2, next)
	if ids(p1)+" | "+ids(p2) != "ses_1 ses_2 | ses_3" {
		t.Fatalf("tie order %s | %s", ids(p1), ids(p2))
	}

	_, _, err = s.ListSessions(ctxb(), 201, "")
	wantErr(t, err, ErrInvalid)
	_, _, err = s.ListSessions(ctxb(), -1, "")
	wantErr(t, err, ErrInvalid)
	_, _, err = s.ListSessions(ctxb(), 2, "garbage!")
	wantErr(t, err, ErrInvalid)
	_, _, err = s.ListSessions(ctxb(), 2, encodeCursor("run", 1, "x"))
	wantErr(t, err, ErrInvalid)
}

func TestActiveRunShown(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	l := mustBegin(t, s, "run_1", "ses_1")
	got, _ := s.GetSession(ctxb(), "ses_1")
	if got.ActiveRun != "run_1" {
		t.Fatalf("ActiveRun %q while running", got.ActiveRun)
	}
	list, _, _ := s.ListSessions(ctxb(), 0, "")
	if list[0].ActiveRun != "run_1" {
		t.Fatalf("listed ActiveRun %q", list[0].ActiveRun)
	}
	must(t, l.Finish(ctxb(), "completed", 0, nil))
	got, _ = s.GetSession(ctxb(), "ses_1")
	if got.ActiveRun != "" {
		t.Fatalf("ActiveRun %q after finish", got.ActiveRun)
	}
}

func TestDeleteSession(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_del")
	mustSession(t, s, "ses_keep")
	for _, id := range []string{"ses_del", "ses_keep"} {
		l := mustBegin(t, s, "run_"+id, id)
		if _, err := l.AppendMessages(ctxb(), 1, msgsOf(userMsg("q"), assistantCall("a", "c1"), toolResult("c1", `{"ok":true}`))); err != nil {
			t.Fatal(err)
		}
		l.Journal(1, "run.started", eventLine(l.RunID(), 1, "run.started"))
		must(t, l.Finish(ctxb(), "completed", 0, json.RawMessage(`{"status":"completed"}`)))
		must(t, s.AddCompaction(ctxb(), Compaction{SessionID: id, KeptFromSeq: 2, Summary: "sum", TokensBefore: 10, TokensAfter: 5}))
		must(t, s.SetTodos(ctxb(), id, []Todo{{Content: "x", Status: "pending"}}))
		must(t, s.SetVar(ctxb(), ScopeChat, id, "v", json.RawMessage(`1`)))
	}
	must(t, s.SetVar(ctxb(), ScopeGlobal, "", "g", json.RawMessage(`true`)))

	// A live run holds the session: delete refuses at once.
	l := mustBegin(t, s, "run_live", "ses_del")
	err := s.DeleteSession(ctxb(), "ses_del")
	wantErr(t, err, ErrSessionBusy)
	must(t, l.Finish(ctxb(), "completed", 0, nil))

	must(t, s.DeleteSession(ctxb(), "ses_del"))
	_, err = s.GetSession(ctxb(), "ses_del")
	wantErr(t, err, ErrNotFound)
	for table, q := range map[string]string{
		"messages":    `SELECT COUNT(*) FROM messages WHERE session_id = ?`,
		"runs":        `SELECT COUNT(*) FROM runs WHERE session_id = ?`,
		"events":      `SELECT COUNT(*) FROM events WHERE run_id IN ('run_ses_del', 'run_live') OR run_id = ?`,
		"compactions": `SELECT COUNT(*) FROM compactions WHERE session_id = ?`,
		"todos":       `SELECT COUNT(*) FROM todos WHERE session_id = ?`,
		"variables":   `SELECT COUNT(*) FROM variables WHERE session_id = ?`,
	} {
		if n := countRows(t, s, q, "ses_del"); n != 0 {
			t.Errorf("%d %s rows left after delete", n, table)
		}
		if table != "events" && countRows(t, s, q, "ses_keep") == 0 {
			t.Errorf("delete removed %s of another session", table)
		}
	}
	if countRows(t, s, `SELECT COUNT(*) FROM events WHERE run_id = 'run_ses_keep'`) != 1 {
		t.Error("delete removed another session's events")
	}
	if _, err := s.GetVar(ctxb(), ScopeGlobal, "", "g"); err != nil {
		t.Errorf("global variable lost: %v", err)
	}
	// Already gone: still success.
	must(t, s.DeleteSession(ctxb(), "ses_del"))
	must(t, s.DeleteSession(ctxb(), "ses_never"))
	wantErr(t, s.DeleteSession(ctxb(), "../x"), ErrInvalid)
	// Per-session lock files (where each session has its own) are gone;
	// on Linux the one file of byte locks stays.
	ents, _ := readDirNames(s.dir + "/locks")
	if len(ents) > 0 && !(len(ents) == 1 && ents[0] == "sessions.lock") {
		t.Errorf("lock files left behind: %v", ents)
	}
}

func ids(ss []Session) string {
	var b strings.Builder
	for i, x := range ss {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.ID)
	}
	return b.String()
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
