package schedule

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/tavo-cli/tavo/pkg/store"
	storeopen "github.com/tavo-cli/tavo/pkg/store/open"
	"github.com/tavo-cli/tavo/pkg/store/postgres/pgtest"
)

// pgURL gives one test an empty schema on TAVO_TEST_POSTGRES's server and
// returns the URL whose search_path names it; without the variable the
// test is skipped.
func pgURL(t *testing.T) string { return pgtest.SchemaURL(t, "sched") }

// pgWorker is one worker process's worth: its own store handle and queue.
type pgWorker struct {
	st *store.Store
	q  *Queue
	h  *Handler
	f  *fakeStarter
}

func newPGWorker(t *testing.T, u string) *pgWorker {
	t.Helper()
	ctx := context.Background()
	st, err := storeopen.Open(ctx, u, filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fakeStarter{st: st}
	h := &Handler{Store: st, Start: f.start, BusyWait: time.Hour, Log: t.Logf}
	q, err := Open(ctx, u, "", Config{Handler: h, Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return &pgWorker{st: st, q: q, h: h, f: f}
}

// TestPostgresMigrateConcurrently: processes opening a fresh database's
// queue at once all succeed (River's migrations under one lock).
func TestPostgresMigrateConcurrently(t *testing.T) {
	u := pgURL(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = MigrateURL(context.Background(), u, "")
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestPostgresThreeWorkers: three workers on one PostgreSQL store work 60
// due loop firings; each fires once, none twice.
func TestPostgresThreeWorkers(t *testing.T) {
	u := pgURL(t)
	ws := []*pgWorker{newPGWorker(t, u), newPGWorker(t, u), newPGWorker(t, u)}
	ctx := context.Background()
	const n = 60
	var loops []string
	for i := range n {
		sid := fmt.Sprintf("ses_%03d", i)
		if _, err := ws[0].st.CreateSession(ctx, sid, "t"); err != nil {
			t.Fatal(err)
		}
		l, err := ws[0].st.CreateLoop(ctx, store.NewLoop{SessionID: sid, Prompt: "p", Interval: time.Minute, MaxTurns: 1})
		if err != nil {
			t.Fatal(err)
		}
		loops = append(loops, l.ID)
	}
	// Due now: the workers queue every active loop's firing when they start.
	if _, err := ws[0].st.SharedDB().Exec(`UPDATE loops SET next_run_at = ?`, time.Now().Add(-time.Second).UnixNano()); err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.q.Work(wctx, w.h, time.Minute, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	for done := 0; done < n; {
		time.Sleep(50 * time.Millisecond)
		ls, err := ws[1].st.ListLoops(ctx, "", store.LoopExhausted)
		if err != nil {
			t.Fatal(err)
		}
		done = len(ls)
	}
	stop()
	wg.Wait()
	total := 0
	for _, w := range ws {
		total += w.f.count()
	}
	if total != n {
		t.Fatalf("%d runs for %d firings", total, n)
	}
	seen := map[string]bool{}
	for _, w := range ws {
		for _, r := range w.f.runs {
			if seen[r.SessionID] {
				t.Fatalf("session %s fired twice", r.SessionID)
			}
			seen[r.SessionID] = true
		}
	}
	for _, id := range loops {
		if l, err := ws[2].st.GetLoop(ctx, id); err != nil || l.CompletedTurns != 1 {
			t.Fatalf("loop %+v %v", l, err)
		}
	}
}

// TestPostgresRescueLapsed: a running firing whose run was interrupted (its
// worker died and its lease lapsed) is given back to the queue; one whose
// run still holds its session is not.
func TestPostgresRescueLapsed(t *testing.T) {
	u := pgURL(t)
	w := newPGWorker(t, u)
	ctx := context.Background()
	db := w.st.SharedDB()
	var jobs []int64
	for i, sid := range []string{"ses_dead", "ses_alive"} {
		if _, err := w.st.CreateSession(ctx, sid, "t"); err != nil {
			t.Fatal(err)
		}
		l, err := w.st.CreateLoop(ctx, store.NewLoop{SessionID: sid, Prompt: "p", Interval: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		res, err := w.q.c.Insert(ctx, LoopFire{LoopID: l.ID, Due: l.NextRunAt}, nil)
		if err != nil {
			t.Fatal(err)
		}
		id := res.Job.ID
		jobs = append(jobs, id)
		// Taken by a worker, which started its run.
		if _, err := db.Exec(`UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now(), attempted_by = '{other-host}' WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
		runID := fmt.Sprintf("run_%d", i)
		lease, err := w.st.BeginRun(ctx, runID, sid, store.RunMeta{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.st.ClaimFiring(ctx, l.ID, id, runID); err != nil {
			t.Fatal(err)
		}
		if sid == "ses_dead" {
			// What the next process to look does once the lease lapsed.
			if err := lease.Finish(ctx, store.StatusInterrupted, 0, nil); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Cleanup(func() { lease.Finish(context.WithoutCancel(ctx), "completed", 0, nil) })
		}
	}
	n, err := w.q.RescueLapsed(ctx, w.st)
	if err != nil || n != 1 {
		t.Fatalf("rescued %d, %v; want 1", n, err)
	}
	res, err := w.q.c.JobList(ctx, river.NewJobListParams().IDs(jobs...))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range res.Jobs {
		want := rivertype.JobStateRunning
		if j.ID == jobs[0] {
			want = rivertype.JobStateAvailable
		}
		if j.State != want {
			t.Errorf("job %d is %s, want %s", j.ID, j.State, want)
		}
	}
}
