package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

func TestOpenMakesPrivateWALDatabase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "data")
	s, _ := openAt(t, dir)
	mustSession(t, s, "ses_1") // a write creates -wal and -shm
	if s.Path() != filepath.Join(dir, FileName) {
		t.Fatalf("Path %s", s.Path())
	}
	for _, d := range []string{dir, filepath.Join(dir, lockDirName)} {
		st, err := os.Stat(d)
		if err != nil || st.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v %v, want 0700", d, st.Mode(), err)
		}
	}
	for _, f := range []string{s.Path(), s.Path() + "-wal", s.Path() + "-shm"} {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("%s mode %v, want 0600", f, st.Mode().Perm())
		}
	}
	var mode string
	var fk, sync, busy, version int
	row := func(q string, v any) {
		t.Helper()
		if err := s.db.QueryRow(q).Scan(v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	row("PRAGMA journal_mode", &mode)
	row("PRAGMA foreign_keys", &fk)
	row("PRAGMA synchronous", &sync)
	row("PRAGMA busy_timeout", &busy)
	row("PRAGMA user_version", &version)
	if mode != "wal" || fk != 1 || sync != 1 || busy != 5000 || version != SchemaVersion() {
		t.Fatalf("journal_mode %s foreign_keys %d synchronous %d busy_timeout %d user_version %d", mode, fk, sync, busy, version)
	}
}

func TestOpenKeepsDataAcrossReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, _ := openAt(t, dir)
	mustSession(t, s, "ses_1")
	if _, err := s.AppendMessages(ctxb(), "ses_1", "", 0, msgsOf(userMsg("hi"))); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, _ := openAt(t, dir)
	h, err := s2.History(ctxb(), "ses_1", 1)
	if err != nil || len(h) != 1 || h[0].Message.Text() != "hi" {
		t.Fatalf("history after reopen %v %v", h, err)
	}
}

func TestOpenPathWithOddCharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "da ta?#%20x")
	s, _ := openAt(t, dir)
	mustSession(t, s, "ses_1")
	if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
		t.Fatalf("database not where asked: %v", err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, _ := openAt(t, dir)
	s.Close()
	db, err := sql.Open("sqlite", filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctxb(), dir)
	if err == nil || !strings.Contains(err.Error(), "newer") || !strings.Contains(err.Error(), "99") {
		t.Fatalf("Open of a newer schema: %v", err)
	}
}

func TestOpenRefusesNonDatabase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(strings.Repeat("not a database ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(ctxb(), dir)
	if err == nil || !strings.Contains(err.Error(), "not a tavo database") {
		t.Fatalf("Open of garbage: %v", err)
	}
}

func TestOpenNeedsADirectory(t *testing.T) {
	wantErr(t, func() error { _, err := Open(ctxb(), ""); return err }(), ErrInvalid)
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o600)
	if _, err := Open(ctxb(), f); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("Open of a file: %v", err)
	}
}

// TestOpenReadOnlyDataDir: a data dir that cannot be written opens for
// reading only, before and after a store exists there: reads work, every
// write fails with one line naming the store, the dir and the cause, and
// what was stored survives.
func TestOpenReadOnlyDataDir(t *testing.T) {
	root := t.TempDir()
	existing := filepath.Join(root, "existing")
	s, _ := openAt(t, existing)
	mustSession(t, s, "ses_kept")
	if err := s.RecordAudit(ctxb(), "fetch", time.Now(), json.RawMessage(`{"url":"u"}`)); err != nil {
		t.Fatal(err)
	}
	s.Close()

	readOnly(t, root)
	readOnly(t, existing)
	for _, dir := range []string{filepath.Join(root, "fresh"), existing} {
		s, err := Open(ctxb(), dir)
		if err != nil {
			t.Fatalf("Open(%s) in a read-only dir: %v", dir, err)
		}
		if !s.ReadOnly() {
			t.Fatalf("Open(%s): not read-only", dir)
		}
		rows, _, err := s.ListAudit(ctxb(), "", 10, "")
		if err != nil {
			t.Fatalf("ListAudit in %s: %v", dir, err)
		}
		if _, err := s.PlanPrune(ctxb(), 0, 0); err != nil {
			t.Fatalf("PlanPrune in %s: %v", dir, err)
		}
		if dir == existing {
			if len(rows) != 1 {
				t.Fatalf("audit rows %d, want 1", len(rows))
			}
			if _, err := s.GetSession(ctxb(), "ses_kept"); err != nil {
				t.Fatalf("GetSession: %v", err)
			}
		} else if len(rows) != 0 {
			t.Fatalf("audit rows of an empty store: %d", len(rows))
		}
		writes := map[string]error{
			"CreateSession": func() error { _, err := s.CreateSession(ctxb(), "ses_new", "t"); return err }(),
			"RecordAudit":   s.RecordAudit(ctxb(), "fetch", time.Now(), json.RawMessage(`{}`)),
			"BeginRun":      func() error { _, err := s.BeginRun(ctxb(), "run_1", "ses_kept", RunMeta{}); return err }(),
			"ApplyPrune":    s.ApplyPrune(ctxb(), &PrunePlan{DeleteRuns: []string{"run_x"}}),
		}
		for name, err := range writes {
			if !errors.Is(err, ErrReadOnly) {
				t.Fatalf("%s in %s: %v, want ErrReadOnly", name, dir, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, dir) || !strings.Contains(msg, "session store") || !strings.Contains(msg, "read-only") {
				t.Fatalf("%s: %q, want one line naming the store, the dir and the cause", name, msg)
			}
		}
		s.Close()
	}
	if entries, _ := os.ReadDir(existing); len(entries) != 3 { // tavo.db, tavo.reserve and locks/
		t.Errorf("the read-only open left files behind: %v", entries)
	}
	writable(t, existing)
	s2, _ := openAt(t, existing)
	if _, err := s2.GetSession(ctxb(), "ses_kept"); err != nil {
		t.Fatalf("stored session lost: %v", err)
	}
}

// TestDiskFullKeepsWhatWasStored fills the database (max_page_count gives
// SQLITE_FULL exactly as a full disk does).
func TestDiskFullKeepsWhatWasStored(t *testing.T) {
	s, _ := openTest(t)
	mustSession(t, s, "ses_1")
	if _, err := s.AppendMessages(ctxb(), "ses_1", "", 0, msgsOf(userMsg("before"))); err != nil {
		t.Fatal(err)
	}
	s.db.SetMaxOpenConns(1)
	var pages int
	s.db.QueryRow("PRAGMA page_count").Scan(&pages)
	if _, err := s.db.Exec("PRAGMA max_page_count = " + itoa(pages+2)); err != nil {
		t.Fatal(err)
	}
	big := userMsg(strings.Repeat("x", 64<<10))
	_, err := s.AppendMessages(ctxb(), "ses_1", "", 0, msgsOf(big, big, big))
	if err == nil {
		t.Fatal("append into a full database succeeded")
	}
	if msg := err.Error(); !strings.Contains(msg, "full") || !strings.Contains(msg, s.dir) || strings.Contains(msg, "\n") {
		t.Fatalf("disk-full error %q, want one line naming the dir", msg)
	}
	h, err := s.History(ctxb(), "ses_1", 1)
	if err != nil || len(h) != 1 || h[0].Message.Text() != "before" {
		t.Fatalf("history after a full disk: %v %v", seqs(h), err)
	}
	ss, _ := s.GetSession(ctxb(), "ses_1")
	if ss.LastSeq != 1 || ss.Messages != 1 {
		t.Fatalf("session counters moved: %+v", ss)
	}
	s.db.Exec("PRAGMA max_page_count = 1073741823")
	if seq, err := s.AppendMessages(ctxb(), "ses_1", "", 0, msgsOf(big)); err != nil || seq != 2 {
		t.Fatalf("append after space came back: %d %v", seq, err)
	}
}
