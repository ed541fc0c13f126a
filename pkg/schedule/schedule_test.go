package schedule

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/store"
)

// fakeStarter stands in for cmd's run path: it holds the session like a
// run does (a store lease), calls OnBound, and finishes the run.
type fakeStarter struct {
	st    *store.Store
	mu    sync.Mutex
	runs  []RunRequest
	busy  int           // this many first calls find the session busy
	block chan struct{} // when set, runs wait for it (or their context)
	// started, when set, gets each run id once the run holds the session.
	started chan string
}

func (f *fakeStarter) start(ctx context.Context, req RunRequest) (RunOutcome, error) {
	f.mu.Lock()
	if f.busy > 0 {
		f.busy--
		f.mu.Unlock()
		return RunOutcome{}, fmt.Errorf("session %s: %w", req.SessionID, store.ErrSessionBusy)
	}
	f.runs = append(f.runs, req)
	f.mu.Unlock()
	runID := ids.New("run", time.Now())
	lease, err := f.st.BeginRun(ctx, runID, req.SessionID, store.RunMeta{})
	if err != nil {
		return RunOutcome{}, err
	}
	if req.OnBound != nil {
		req.OnBound(runID)
	}
	if f.started != nil {
		f.started <- runID
	}
	status := "completed"
	if f.block != nil {
		select {
		case <-f.block:
		case <-ctx.Done():
			// As the runner does: the cause's status, else cancelled.
			status = "cancelled"
			var sc *runner.StopCause
			if errors.As(context.Cause(ctx), &sc) && sc.Status != "" {
				status = sc.Status
			}
		}
	}
	if err := lease.Finish(context.WithoutCancel(ctx), status, 0, nil); err != nil {
		return RunOutcome{}, err
	}
	return RunOutcome{RunID: runID, Status: status}, nil
}

func (f *fakeStarter) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.runs)
}

type env struct {
	dir string
	st  *store.Store
	q   *Queue
	h   *Handler
	f   *fakeStarter
}

func newEnv(t *testing.T, dir string) *env {
	t.Helper()
	if dir == "" {
		dir = filepath.Join(t.TempDir(), "data")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fakeStarter{st: st}
	h := &Handler{Store: st, Start: f.start, BusyWait: time.Hour, Log: t.Logf}
	q, err := OpenSQLite(ctx, dir, Config{Handler: h, Concurrency: 4, PollInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return &env{dir: dir, st: st, q: q, h: h, f: f}
}

// dueNow makes every waiting job due now: firings are at least 10 s apart,
// and tests do not wait for clocks.
func (e *env) dueNow(t *testing.T) {
	t.Helper()
	past := time.Now().Add(-time.Second).UTC()
	if _, err := e.q.db.Exec(`UPDATE river_job SET scheduled_at = ? WHERE state IN ('scheduled', 'available', 'retryable')`, past.Format("2006-01-02 15:04:05.000")); err != nil {
		t.Fatal(err)
	}
}

func (e *env) once(t *testing.T) {
	t.Helper()
	if err := e.q.WorkDue(context.Background(), e.h, time.Minute, nil); err != nil {
		t.Fatal(err)
	}
}

func (e *env) loop(t *testing.T, sid string, maxTurns int) *store.Loop {
	t.Helper()
	ctx := context.Background()
	if _, err := e.st.CreateSession(ctx, sid, "t"); err != nil {
		t.Fatal(err)
	}
	l, err := e.st.CreateLoop(ctx, store.NewLoop{SessionID: sid, Prompt: "check", Interval: time.Minute, MaxTurns: maxTurns})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.q.ScheduleLoop(ctx, l); err != nil {
		t.Fatal(err)
	}
	return l
}

func (e *env) get(t *testing.T, id string) *store.Loop {
	t.Helper()
	l, err := e.st.GetLoop(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLoopFiresUntilExhausted(t *testing.T) {
	e := newEnv(t, "")
	l := e.loop(t, "ses_a", 2)
	// Not due yet: nothing runs.
	e.once(t)
	if e.f.count() != 0 {
		t.Fatalf("%d runs before the loop was due", e.f.count())
	}
	e.dueNow(t)
	e.once(t)
	got := e.get(t, l.ID)
	if e.f.count() != 1 || got.CompletedTurns != 1 || got.Status != store.LoopActive || got.LastRunID == "" {
		t.Fatalf("after one firing: %d runs, loop %+v", e.f.count(), got)
	}
	if !got.NextRunAt.After(time.Now()) {
		t.Fatalf("next firing %v is not in the future", got.NextRunAt)
	}
	st, err := e.q.Stats(context.Background())
	if err != nil || st.Scheduled != 1 || st.Due != 0 {
		t.Fatalf("queue after a firing: %+v %v", st, err)
	}
	e.dueNow(t)
	e.once(t)
	got = e.get(t, l.ID)
	if e.f.count() != 2 || got.Status != store.LoopExhausted {
		t.Fatalf("after two firings: %d runs, loop %+v", e.f.count(), got)
	}
	if st, _ := e.q.Stats(context.Background()); st.Scheduled+st.Due != 0 {
		t.Fatalf("an exhausted loop still has jobs: %+v", st)
	}
	if e.f.runs[0].Prompt != "check" || e.f.runs[0].LoopID != l.ID || e.f.runs[0].SessionID != "ses_a" {
		t.Fatalf("run request %+v", e.f.runs[0])
	}
}

func TestPausedLoopDoesNotFireAndResumeSchedulesIt(t *testing.T) {
	e := newEnv(t, "")
	ctx := context.Background()
	l := e.loop(t, "ses_p", 5)
	if _, err := e.st.SetLoopStatus(ctx, l.ID, store.LoopPaused, ""); err != nil {
		t.Fatal(err)
	}
	e.dueNow(t)
	e.once(t)
	if e.f.count() != 0 {
		t.Fatal("a paused loop fired")
	}
	l, err := e.st.SetLoopStatus(ctx, l.ID, store.LoopActive, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.q.ScheduleLoop(ctx, l); err != nil {
		t.Fatal(err)
	}
	e.dueNow(t)
	e.once(t)
	if e.f.count() != 1 {
		t.Fatalf("%d runs after resume", e.f.count())
	}
	if _, err := e.st.SetLoopStatus(ctx, l.ID, store.LoopCancelled, ""); err != nil {
		t.Fatal(err)
	}
	e.dueNow(t)
	e.once(t)
	if e.f.count() != 1 {
		t.Fatal("a cancelled loop fired")
	}
}

// A loop moved to another status keeps at most the firing it is due for:
// the one queued before a pause is cancelled, not left to be dropped when
// due (and counted as scheduled until then).
func TestUnscheduleLoopCancelsStaleFirings(t *testing.T) {
	e := newEnv(t, "")
	ctx := context.Background()
	l := e.loop(t, "ses_u", 5)
	other := e.loop(t, "ses_o", 5)
	// Resumed: a firing one interval later is queued beside the old one.
	l, err := e.st.SetLoopStatus(ctx, l.ID, store.LoopPaused, "")
	if err != nil {
		t.Fatal(err)
	}
	if l, err = e.st.SetLoopStatus(ctx, l.ID, store.LoopActive, ""); err != nil {
		t.Fatal(err)
	}
	resumed := *l
	resumed.NextRunAt = l.NextRunAt.Add(time.Hour)
	if err := e.q.ScheduleLoop(ctx, &resumed); err != nil {
		t.Fatal(err)
	}
	scheduled := func() int {
		t.Helper()
		st, err := e.q.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.Scheduled + st.Due
	}
	if n := scheduled(); n != 3 {
		t.Fatalf("%d firings queued, want 3 (two of this loop, one of the other)", n)
	}
	if n, err := e.q.UnscheduleLoop(ctx, l.ID, resumed.NextRunAt); err != nil || n != 1 {
		t.Fatalf("cancelled %d, %v; want the one from before the resume", n, err)
	}
	if n := scheduled(); n != 2 {
		t.Fatalf("%d firings queued after the resume, want 2", n)
	}
	// Cancelled: none of its firings stays; the other loop's does.
	if n, err := e.q.UnscheduleLoop(ctx, l.ID, time.Time{}); err != nil || n != 1 {
		t.Fatalf("cancelled %d, %v; want 1", n, err)
	}
	st, err := e.q.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Scheduled+st.Due != 1 || !strings.Contains(st.Jobs[0].Args, other.ID) {
		t.Fatalf("queue after the cancel: %+v", st.Jobs)
	}
}

func TestMissedFiringsAreCoalesced(t *testing.T) {
	e := newEnv(t, "")
	l := e.loop(t, "ses_c", 10)
	// The worker was away for what would have been many intervals: the
	// job is long overdue, and it fires once.
	e.dueNow(t)
	e.once(t)
	e.once(t)
	if got := e.get(t, l.ID); e.f.count() != 1 || got.CompletedTurns != 1 {
		t.Fatalf("%d runs, loop %+v", e.f.count(), got)
	}
}

func TestBusySessionSnoozesTheFiring(t *testing.T) {
	e := newEnv(t, "")
	l := e.loop(t, "ses_b", 10)
	e.f.busy = 1
	e.dueNow(t)
	e.once(t)
	got := e.get(t, l.ID)
	if e.f.count() != 0 || got.CompletedTurns != 0 {
		t.Fatalf("a busy session ran: %d runs, %+v", e.f.count(), got)
	}
	st, _ := e.q.Stats(context.Background())
	if st.Scheduled != 1 {
		t.Fatalf("the firing was not snoozed: %+v", st)
	}
	e.dueNow(t)
	e.once(t)
	if got := e.get(t, l.ID); e.f.count() != 1 || got.CompletedTurns != 1 {
		t.Fatalf("the snoozed firing did not run: %d runs, %+v", e.f.count(), got)
	}
}

func TestWorkStopsWithinGraceThenInterrupts(t *testing.T) {
	e := newEnv(t, "")
	e.loop(t, "ses_g", 10)
	e.f.block = make(chan struct{})
	e.f.started = make(chan string, 1)
	e.dueNow(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.q.Work(ctx, e.h, 50*time.Millisecond, nil) }()
	runID := <-e.f.started
	cancel() // SIGTERM: the run does not end within the grace and is interrupted
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	r, err := e.st.GetRun(context.Background(), runID)
	if err != nil || r.Status != store.StatusInterrupted {
		t.Fatalf("run after the grace: %+v %v", r, err)
	}
	// The loop still fires again.
	if l := e.get(t, e.f.runs[0].LoopID); l.CompletedTurns != 1 || l.Status != store.LoopActive {
		t.Fatalf("loop %+v", l)
	}
}

func TestGoalRunInterruptedAtGraceGoesOnWithTheNextWorker(t *testing.T) {
	e := newEnv(t, "")
	ctx := context.Background()
	if _, err := e.st.CreateSession(ctx, "ses_gg", "t"); err != nil {
		t.Fatal(err)
	}
	g, err := e.st.CreateGoal(ctx, "ses_gg", "done", 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.q.ScheduleGoal(ctx, g, "do it"); err != nil {
		t.Fatal(err)
	}
	e.f.block = make(chan struct{})
	e.f.started = make(chan string, 1)
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- e.q.Work(wctx, e.h, 50*time.Millisecond, nil) }()
	runID := <-e.f.started
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r, _ := e.st.GetRun(ctx, runID); r.Status != store.StatusInterrupted {
		t.Fatalf("run %+v", r)
	}
	// The job is kept: the next worker goes on with the goal.
	close(e.f.block)
	e.f.started = nil
	e.once(t)
	if e.f.count() != 2 || e.f.runs[1].SessionID != "ses_gg" {
		t.Fatalf("runs %+v", e.f.runs)
	}
}

func TestWorkLetsRunsEndWithinGrace(t *testing.T) {
	e := newEnv(t, "")
	e.loop(t, "ses_h", 10)
	e.f.block = make(chan struct{})
	e.f.started = make(chan string, 1)
	e.dueNow(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.q.Work(ctx, e.h, time.Hour, nil) }()
	runID := <-e.f.started
	cancel()
	close(e.f.block) // the run ends on its own within the grace
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r, _ := e.st.GetRun(context.Background(), runID); r.Status != "completed" {
		t.Fatalf("run %+v", r)
	}
}

// TestHelperWorker is a worker process for the tests below (not a test of
// its own): SCHEDULE_HELPER=once works what is due; =block starts the
// firing's run, prints its id and waits to be killed.
func TestHelperWorker(t *testing.T) {
	mode := os.Getenv("SCHEDULE_HELPER")
	if mode == "" {
		t.Skip("helper process")
	}
	dir := os.Getenv("SCHEDULE_DIR")
	ctx := context.Background()
	st, err := store.Open(ctx, dir)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	f := &fakeStarter{st: st}
	if mode == "block" {
		f.block, f.started = make(chan struct{}), make(chan string, 1)
		go func() { fmt.Println("started", <-f.started) }()
	}
	h := &Handler{Store: st, Start: f.start, BusyWait: time.Hour}
	q, err := OpenSQLite(ctx, dir, Config{Handler: h, Concurrency: 4, PollInterval: 20 * time.Millisecond})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	if err := q.WorkDue(ctx, h, time.Minute, nil); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	for _, r := range f.runs {
		fmt.Println("ran", r.LoopID)
	}
	os.Exit(0)
}

func helper(t *testing.T, mode, dir string) *exec.Cmd {
	t.Helper()
	c := exec.Command(os.Args[0], "-test.run=^TestHelperWorker$")
	c.Env = append(os.Environ(), "SCHEDULE_HELPER="+mode, "SCHEDULE_DIR="+dir)
	return c
}

func TestParallelOnceWorkersRunEachFiringOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newEnv(t, "")
	want := map[string]bool{}
	for i := range 50 {
		l := e.loop(t, fmt.Sprintf("ses_%02d", i), 10)
		want[l.ID] = true
	}
	e.dueNow(t)
	var wg sync.WaitGroup
	outs := make([]string, 5)
	errs := make([]error, 5)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := helper(t, "once", e.dir).CombinedOutput()
			outs[i], errs[i] = string(b), err
		}()
	}
	wg.Wait()
	var ran []string
	for i, out := range outs {
		if errs[i] != nil || strings.Contains(out, "error:") || strings.Contains(out, "database is locked") {
			t.Fatalf("worker %d: %v\n%s", i, errs[i], out)
		}
		for _, line := range strings.Split(out, "\n") {
			if id, ok := strings.CutPrefix(line, "ran "); ok {
				ran = append(ran, id)
			}
		}
	}
	sort.Strings(ran)
	if len(ran) != 50 {
		t.Fatalf("%d runs for 50 due firings: %v", len(ran), ran)
	}
	for i := 1; i < len(ran); i++ {
		if ran[i] == ran[i-1] {
			t.Fatalf("loop %s fired twice", ran[i])
		}
	}
	for id := range want {
		if l := e.get(t, id); l.CompletedTurns != 1 {
			t.Fatalf("loop %+v", l)
		}
	}
}

// killWorkerMidRun starts a worker process that works what is due, waits
// until its run holds the session, kills it with SIGKILL and returns the
// run's id.
func killWorkerMidRun(t *testing.T, dir string) string {
	t.Helper()
	c := helper(t, "block", dir)
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "started run_") {
		t.Fatalf("helper said %q, %v", line, err)
	}
	if err := c.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.Wait()
	return strings.TrimSpace(strings.TrimPrefix(line, "started "))
}

func TestKilledWorkersWakeUpStillWakesTheSessionOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newEnv(t, "")
	ctx := context.Background()
	if _, err := e.st.CreateSession(ctx, "ses_w", "t"); err != nil {
		t.Fatal(err)
	}
	if err := e.q.ScheduleWake(ctx, "ses_w", "run_waiting", time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	runID := killWorkerMidRun(t, e.dir)

	// The next worker marks the run interrupted and wakes the session
	// with a new run; the one after it has nothing left to do.
	e.once(t)
	if r, err := e.st.GetRun(ctx, runID); err != nil || r.Status != store.StatusInterrupted {
		t.Fatalf("run %+v %v", r, err)
	}
	if e.f.count() != 1 || e.f.runs[0].Prompt != WakePrompt || e.f.runs[0].SessionID != "ses_w" {
		t.Fatalf("runs %+v", e.f.runs)
	}
	e.dueNow(t)
	e.once(t)
	if e.f.count() != 1 {
		t.Fatalf("the wake-up ran twice: %+v", e.f.runs)
	}
}

func TestKilledWorkersWakeUpIsNotRepeatedOnceTheSessionMovedOn(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newEnv(t, "")
	ctx := context.Background()
	if _, err := e.st.CreateSession(ctx, "ses_m", "t"); err != nil {
		t.Fatal(err)
	}
	if err := e.q.ScheduleWake(ctx, "ses_m", "run_waiting", time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	killWorkerMidRun(t, e.dir)
	// Someone ran in the session since (after the dead run).
	lease, err := e.st.BeginRun(ctx, ids.New("run", time.Now()), "ses_m", store.RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lease.Finish(ctx, events.StatusCompleted, 0, nil); err != nil {
		t.Fatal(err)
	}
	e.once(t)
	if e.f.count() != 0 {
		t.Fatalf("woken again after the session moved on: %+v", e.f.runs)
	}
}

func TestKilledWorkersGoalGoesOn(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newEnv(t, "")
	ctx := context.Background()
	if _, err := e.st.CreateSession(ctx, "ses_d", "t"); err != nil {
		t.Fatal(err)
	}
	g, err := e.st.CreateGoal(ctx, "ses_d", "done", 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.AdvanceGoal(ctx, g.ID, false, ""); err != nil { // one turn behind it
		t.Fatal(err)
	}
	if err := e.q.ScheduleGoal(ctx, g, "do it"); err != nil {
		t.Fatal(err)
	}
	runID := killWorkerMidRun(t, e.dir)
	e.once(t)
	if r, err := e.st.GetRun(ctx, runID); err != nil || r.Status != store.StatusInterrupted {
		t.Fatalf("run %+v %v", r, err)
	}
	if e.f.count() != 1 || !strings.HasPrefix(e.f.runs[0].Prompt, "Keep working toward the goal: done") ||
		!strings.Contains(e.f.runs[0].Prompt, "Turns used: 1 of 5") {
		t.Fatalf("runs %+v", e.f.runs)
	}
}

func TestKilledWorkersFiringIsRescuedNotReplayed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newEnv(t, "")
	l := e.loop(t, "ses_k", 10)
	e.dueNow(t)
	c := helper(t, "block", e.dir)
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "started run_") {
		t.Fatalf("helper said %q, %v", line, err)
	}
	runID := strings.TrimSpace(strings.TrimPrefix(line, "started "))
	if err := c.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.Wait()

	// The next worker rescues the job: the run is interrupted, not run
	// again, the firing counts, and the next one is scheduled.
	e.once(t)
	if e.f.count() != 0 {
		t.Fatal("the killed worker's firing was replayed")
	}
	r, err := e.st.GetRun(context.Background(), runID)
	if err != nil || r.Status != store.StatusInterrupted {
		t.Fatalf("run %+v %v", r, err)
	}
	got := e.get(t, l.ID)
	if got.CompletedTurns != 1 || got.Status != store.LoopActive {
		t.Fatalf("loop %+v", got)
	}
	e.dueNow(t)
	e.once(t)
	if e.f.count() != 1 {
		t.Fatalf("the next firing did not happen: %d runs", e.f.count())
	}
}
