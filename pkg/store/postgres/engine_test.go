package postgres_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
)

func TestRebind(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT 1`:     `SELECT 1`,
		`SELECT ? , ?`: `SELECT $1 , $2`,
		`SELECT '?', "a?b", ? -- why?` + "\n" + `?`: `SELECT '?', "a?b", $1 -- why?` + "\n" + `$2`,
		`SELECT 'it''s ?', ? /* ? */, ?`:            `SELECT 'it''s ?', $1 /* ? */, $2`,
	} {
		if got := postgres.Rebind(in); got != want {
			t.Errorf("Rebind(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPasswordNeverShown: neither a URL that does not parse nor a server
// that cannot be reached makes an error that spells the password.
func TestPasswordNeverShown(t *testing.T) {
	const pw = "s3cret-Pa55"
	for _, u := range []string{
		"postgres://tavo:" + pw + "@127.0.0.1:1/db?connect_timeout=1",
		"postgres://tavo:" + pw + "@127.0.0.1:1/db?sslmode=bogus",
		"postgres://tavo:" + pw + "@127.0.0.1:notaport/db",
		"postgres://tavo@127.0.0.1:1/db?password=" + pw + "&connect_timeout=1",
	} {
		_, err := postgres.Open(context.Background(), u, postgres.Options{})
		if err == nil {
			t.Fatalf("%s: no error", postgres.Redact(u))
		}
		if strings.Contains(err.Error(), pw) {
			t.Errorf("error shows the password: %v", err)
		}
		if r := postgres.Redact(u); strings.Contains(r, pw) {
			t.Errorf("Redact shows the password: %s", r)
		}
	}
}

func TestLocationHasNoPassword(t *testing.T) {
	u := serverURL(t)
	t.Setenv("PGPASSWORD", "env-secret-xyz")
	eng, err := postgres.Open(context.Background(), u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if loc := eng.Location(); strings.Contains(loc, "env-secret-xyz") || !strings.HasPrefix(loc, "postgres://") {
		t.Fatalf("location %q", loc)
	}
}

// TestMigrateConcurrently: processes opening a new database at once
// migrate it once between them, and all of them work.
func TestMigrateConcurrently(t *testing.T) {
	u := schemaURL(t, t.Name())
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng, err := postgres.Open(context.Background(), u, postgres.Options{})
			if err != nil {
				errs <- err
				return
			}
			s, err := store.OpenEngine(context.Background(), t.TempDir(), eng)
			if err != nil {
				errs <- err
				return
			}
			_, err = s.CreateSession(context.Background(), "ses_"+strings.Repeat("x", 1), "t")
			if err != nil && !errors.Is(err, store.ErrInvalid) {
				errs <- err
			}
			s.Close()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestDeadHolderLosesLease: a holder that stops beating (its connections
// are gone, as after kill -9) loses its session after the lease's life,
// and the next store to look marks its run interrupted.
func TestDeadHolderLosesLease(t *testing.T) {
	u := schemaURL(t, t.Name())
	opts := postgres.Options{LeaseTTL: 600 * time.Millisecond}
	eng, err := postgres.Open(context.Background(), u, opts)
	if err != nil {
		t.Fatal(err)
	}
	dead, err := store.OpenEngine(context.Background(), t.TempDir(), eng)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.CreateSession(context.Background(), "ses_d", "d"); err != nil {
		t.Fatal(err)
	}
	if _, err := dead.BeginRun(context.Background(), "run_d", "ses_d", store.RunMeta{}); err != nil {
		t.Fatal(err)
	}
	// The holder dies: its database handle goes, its heartbeat fails.
	eng.DB().Close()

	live := openURL(t, u, opts)
	_, err = live.BeginRun(context.Background(), "run_e", "ses_d", store.RunMeta{})
	if !errors.Is(err, store.ErrSessionBusy) {
		t.Fatalf("second run while the lease lives: %v", err)
	}
	for {
		l, err := live.BeginRun(context.Background(), "run_e", "ses_d", store.RunMeta{})
		if errors.Is(err, store.ErrSessionBusy) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		defer l.Finish(context.Background(), "completed", 0, nil)
		break
	}
	r, err := live.GetRun(context.Background(), "run_d")
	if err != nil || r.Status != store.StatusInterrupted {
		t.Fatalf("dead run %+v %v", r, err)
	}
}

// TestCancelByNotification: with the safety-net poll out of the way (an
// hour), a cancel from another handle still reaches the run, so it came by
// LISTEN/NOTIFY; also when requested the moment BeginRun returns.
func TestCancelByNotification(t *testing.T) {
	u := schemaURL(t, t.Name())
	opts := postgres.Options{PollEvery: time.Hour}
	a, b := openURL(t, u, opts), openURL(t, u, opts)
	if _, err := a.CreateSession(context.Background(), "ses_n", "n"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"run_n1", "run_n2", "run_n3"} {
		l, err := a.BeginRun(context.Background(), id, "ses_n", store.RunMeta{})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.RequestCancel(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		<-l.Cancelled() // bounded by the test's deadline, not a clock
		if err := l.Finish(context.Background(), "cancelled", 130, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFollowByNotification: a follower of another handle's run gets its
// lines and its end.
func TestFollowByNotification(t *testing.T) {
	u := schemaURL(t, t.Name())
	a, b := openURL(t, u, postgres.Options{}), openURL(t, u, postgres.Options{})
	if _, err := a.CreateSession(context.Background(), "ses_f", "f"); err != nil {
		t.Fatal(err)
	}
	l, err := a.BeginRun(context.Background(), "run_f", "ses_f", store.RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan int64, 100)
	done := make(chan error, 1)
	go func() {
		done <- b.FollowEvents(context.Background(), "run_f", 0, 0, func(e store.EventRow) error { got <- e.Seq; return nil })
	}()
	for i := int64(1); i <= 5; i++ {
		l.Journal(i, "x", []byte(`{}`))
		if s := <-got; s != i {
			t.Fatalf("followed %d, want %d", s, i)
		}
	}
	l.Journal(6, "run.completed", []byte(`{}`))
	if err := l.Finish(context.Background(), "completed", 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestStolenLeaseStopsTheRun: a holder whose lease was taken by another
// store (it expired while the holder's heartbeats failed) finds out at its
// next heartbeat; the session binding then stops the run as interrupted,
// so two machines never write one session together.
func TestStolenLeaseStopsTheRun(t *testing.T) {
	eng, st := openEngineURL(t, schemaURL(t, t.Name()), postgres.Options{LeaseTTL: 600 * time.Millisecond})
	b, err := session.Bind(context.Background(), st, session.BindOptions{Prompt: "work"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	b.WatchCancel(ctx, cancel)
	// Another machine holds the lease now, as after an expiry.
	if _, err := eng.DB().Exec(`UPDATE session_leases SET holder = 'another-machine' WHERE session_id = $1`, b.SessionID()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the run was not stopped after its lease was taken")
	}
	var sc *runner.StopCause
	if !errors.As(context.Cause(ctx), &sc) || sc.Status != events.StatusInterrupted || !strings.Contains(sc.Reason, "lease was lost") {
		t.Fatalf("cause %v", context.Cause(ctx))
	}
	// A lease still ours is never reported lost.
	b2, err := session.Bind(context.Background(), st, session.BindOptions{Prompt: "more"})
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancelCause(context.Background())
	defer cancel2(nil)
	b2.WatchCancel(ctx2, cancel2)
	select {
	case <-ctx2.Done():
		t.Fatalf("a held lease stopped its run: %v", context.Cause(ctx2))
	case <-time.After(time.Second): // five heartbeats
	}
	b2.Finish(context.Background(), &runner.Result{Status: events.StatusCompleted})
	b.Finish(context.Background(), &runner.Result{Status: events.StatusInterrupted, ExitCode: events.ExitInterrupted})
}
