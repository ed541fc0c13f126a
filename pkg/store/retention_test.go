package store

import (
	"database/sql"
	"fmt"
	"testing"
	"time"
)

// seedRuns stores n ended runs in session ses_r, the first started
// `age` before base and each later one a second after, each with
// eventsPer journal lines, in one transaction (fast enough for 100,000).
func seedRuns(t testing.TB, s *Store, n, eventsPer int, base time.Time, age time.Duration) {
	t.Helper()
	if _, err := s.GetSession(ctxb(), "ses_r"); err != nil {
		mustSession(t, s, "ses_r")
	}
	err := s.write(ctxb(), "seeding", func(tx *sql.Tx) error {
		run, err := tx.Prepare(`INSERT INTO runs (id, session_id, status, started_at, ended_at, events) VALUES (?, 'ses_r', 'completed', ?, ?, ?)`)
		if err != nil {
			return err
		}
		ev, err := tx.Prepare(`INSERT INTO events (run_id, seq, type, line) VALUES (?, ?, 'x', '{}')`)
		if err != nil {
			return err
		}
		start := base.Add(-age)
		for i := range n {
			id := fmt.Sprintf("run_%08d", i)
			at := toNS(start.Add(time.Duration(i) * time.Second))
			if _, err := run.Exec(id, at, at, eventsPer); err != nil {
				return err
			}
			for seq := 1; seq <= eventsPer; seq++ {
				if _, err := ev.Exec(id, seq); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRetentionRemovesWhatIsDue(t *testing.T) {
	s, clk := openTest(t)
	now := clk.now()
	seedRuns(t, s, 10, 2, now, 100*24*time.Hour) // 10 runs 100 days old
	mustSession(t, s, "ses_new")
	l := mustBegin(t, s, "run_live", "ses_new")             // running: never touched
	s.write(ctxb(), "old running", func(tx *sql.Tx) error { // even when old
		_, err := tx.Exec(`UPDATE runs SET started_at = ? WHERE id = 'run_live'`, toNS(now.Add(-200*24*time.Hour)))
		return err
	})
	for i := range 5 {
		l2 := mustBegin(t, s, fmt.Sprintf("run_new%d", i), "ses_r")
		l2.Journal(1, "run.started", eventLine(l2.RunID(), 1, "run.started"))
		if err := l2.Finish(ctxb(), "completed", 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	must(t, s.RecordAudit(ctxb(), AuditTool, now.Add(-40*24*time.Hour), []byte(`{}`)))
	must(t, s.RecordAudit(ctxb(), AuditTool, now, []byte(`{}`)))

	r := Retention{RunsOlderThan: 90 * 24 * time.Hour, KeepFull: 2, AuditOlderThan: 30 * 24 * time.Hour}
	rep, err := s.ApplyRetention(ctxb(), r, false)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Done || rep.DeletedRuns != 10 || rep.DroppedEvents != 3 || rep.DeletedAudit != 1 {
		t.Fatalf("report %+v", rep)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM runs WHERE events > 0 AND status <> 'running'`); n != 2 {
		t.Fatalf("%d ended runs keep a journal, want 2", n)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM runs WHERE id = 'run_live'`); n != 1 {
		t.Fatal("a running run was removed")
	}
	// Within a day it does nothing; forced, it runs again.
	if rep, _ := s.ApplyRetention(ctxb(), r, false); !rep.Skipped {
		t.Fatalf("second pass %+v", rep)
	}
	if rep, _ := s.ApplyRetention(ctxb(), r, true); rep.Skipped || !rep.Done {
		t.Fatalf("forced pass %+v", rep)
	}
	l.Finish(ctxb(), "completed", 0, nil)
	if rep, _ := s.ApplyRetention(ctxb(), Retention{}, false); !rep.Done || rep.DeletedRuns != 0 {
		t.Fatalf("off: %+v", rep)
	}
}

// BenchmarkRetention100k measures one retention pass on a store of 100,000
// ended runs (3 journal lines each) that are all due: each pass is bounded
// by RetentionBudget, and passes-to-drain says how many commands it takes
// to work off the backlog. ns/op is one pass.
func BenchmarkRetention100k(b *testing.B) {
	const n = 100_000
	s, clk := openTest(b)
	now := clk.now()
	seedRuns(b, s, n, 3, now, 400*24*time.Hour)
	r := Retention{RunsOlderThan: 90 * 24 * time.Hour, KeepFull: 200, AuditOlderThan: 30 * 24 * time.Hour}
	b.ResetTimer()
	passes, worst := 0, time.Duration(0)
	for i := 0; i < b.N; i++ {
		start := time.Now()
		rep, err := s.ApplyRetention(ctxb(), r, true)
		if err != nil {
			b.Fatal(err)
		}
		worst = max(worst, time.Since(start))
		if !rep.Done {
			passes++
		} else if passes >= 0 {
			b.ReportMetric(float64(passes+1), "passes-to-drain")
			passes = -1 << 30
		}
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms")
}
