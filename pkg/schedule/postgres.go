package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
)

// Fleet settings of the queue on PostgreSQL (SPEC §15), where a worker may
// die on another machine and cannot be found dead by its pid.
const (
	// PostgresRescueAfter is River's RescueStuckJobsAfter on PostgreSQL: a
	// job still running after it is given back to the queue by River's
	// rescuer (which looks every 30 s). A rescued job whose run is still
	// alive waits for it (a loop firing) or ends at once (a wake-up or a
	// goal run, which are never replayed), so a slow run is never run
	// twice; the bound only matters for a worker that died between taking
	// a job and starting its run.
	PostgresRescueAfter = 2 * time.Minute
	// LapsedEvery is how often a worker on PostgreSQL looks for loop
	// firings whose run lost its session lease (its worker died: the lease
	// lapses 15 s after the last heartbeat) and rescues their jobs at once.
	LapsedEvery = 5 * time.Second
)

// riverMigrateLock is the transaction-scoped advisory lock River's
// migrations run under, so two processes migrating at once apply each
// step once ("tavr" in ASCII; the store's own migrations use another).
const riverMigrateLock = 0x74617672

// Open opens the queue of the store storeURL names: River's SQLite driver
// on the embedded store of dataDir when storeURL is "", River's PostgreSQL
// driver (LISTEN/NOTIFY, no polling needed) for a postgres:// URL.
func Open(ctx context.Context, storeURL, dataDir string, cfg Config) (*Queue, error) {
	if storeURL == "" {
		return OpenSQLite(ctx, dataDir, cfg)
	}
	return OpenPostgres(ctx, storeURL, cfg)
}

// MigrateURL brings River's tables of the store storeURL names up to date
// (what `tavo store migrate` runs; every Open does it too).
func MigrateURL(ctx context.Context, storeURL, dataDir string) error {
	q, err := Open(ctx, storeURL, dataDir, Config{})
	if err != nil {
		return err
	}
	return q.Close()
}

// OpenPostgres opens the queue on the PostgreSQL database storeURL names
// (libpq conventions, as the store's): River's tables beside tavo's, in
// the same schema, migrated on first use under an advisory lock. With a
// Handler, the queue also rescues the jobs of loop firings whose worker
// died (LapsedEvery), and Close stops that.
func OpenPostgres(ctx context.Context, storeURL string, cfg Config) (*Queue, error) {
	pc, err := pgxpool.ParseConfig(storeURL)
	if err != nil {
		// pgx's message may quote the URL; the password must not show.
		return nil, fmt.Errorf("opening the job queue: the PostgreSQL URL %s is not valid: %w", postgres.Redact(storeURL), store.ErrInvalid)
	}
	pc.MaxConns = int32(max(4, cfg.Concurrency+4))
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("opening the job queue on %s: %w", postgres.Redact(storeURL), err)
	}
	driver := riverpgxv5.New(pool)
	if err := migratePostgres(ctx, pool, driver); err != nil {
		pool.Close()
		return nil, err
	}
	if cfg.RescueAfter <= 0 {
		cfg.RescueAfter = PostgresRescueAfter
	}
	q, err := New(driver, cfg)
	if err != nil {
		pool.Close()
		return nil, err
	}
	stop := func() {}
	if h := cfg.Handler; h != nil && h.Store != nil {
		stop = q.watchLapsed(h)
	}
	q.closeDB = func() error {
		stop()
		pool.Close()
		return nil
	}
	return q, nil
}

// migratePostgres applies River's migrations (each version in its own
// transaction, as River must: a version adds an enum value the next one
// uses) while one connection holds the session advisory lock
// riverMigrateLock: a second process waits, then finds them applied.
func migratePostgres(ctx context.Context, pool *pgxpool.Pool, driver *riverpgxv5.Driver) error {
	m, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return fmt.Errorf("job queue migrations: %w", err)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("job queue migrations: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(riverMigrateLock)); err != nil {
		return fmt.Errorf("job queue migrations: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(riverMigrateLock))
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("job queue migrations: %w", err)
	}
	return nil
}

// watchLapsed runs RescueLapsed every LapsedEvery until the returned stop
// is called.
func (q *Queue) watchLapsed(h *Handler) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(LapsedEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if n, err := q.RescueLapsed(ctx, h.Store); err != nil && ctx.Err() == nil {
				h.logf("looking for jobs of dead workers: %v", err)
			} else if n > 0 {
				h.logf("rescued %d job(s) of a worker that died", n)
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// RescueLapsed gives back to the queue the running loop firings whose run
// was interrupted because its session lease lapsed: the worker running
// it died, on this machine or another (a dead process stops renewing its
// lease; the database's clock decides). Reaping the session first marks
// such a run interrupted. The rescued job finishes the firing without
// replaying it (Handler.rescued). It returns how many it rescued.
func (q *Queue) RescueLapsed(ctx context.Context, st *store.Store) (int, error) {
	res, err := q.c.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateRunning).Kinds(KindLoopFire).First(1000))
	if err != nil {
		return 0, err
	}
	var dead []*rivertype.JobRow
	for _, j := range res.Jobs {
		var args LoopFire
		if json.Unmarshal(j.EncodedArgs, &args) != nil {
			continue
		}
		l, err := st.GetLoop(ctx, args.LoopID)
		if err != nil || l.ClaimedJob != j.ID || l.LastRunID == "" {
			continue // gone, not started yet, or finished
		}
		if _, err := st.ReapSession(ctx, l.SessionID); err != nil {
			return 0, err
		}
		if r, err := st.GetRun(ctx, l.LastRunID); err == nil && r.Status == store.StatusInterrupted {
			dead = append(dead, j)
		}
	}
	return len(dead), q.rescue(ctx, dead, "the worker running the job stopped renewing its session lease (it died)")
}

// rescue makes jobs available again now, recording why on each.
func (q *Queue) rescue(ctx context.Context, jobs []*rivertype.JobRow, why string) error {
	if len(jobs) == 0 {
		return nil
	}
	now := time.Now().UTC()
	p := &riverdriver.JobRescueManyParams{StuckHorizon: now}
	for _, j := range jobs {
		msg, _ := json.Marshal(map[string]any{"at": now.Format(time.RFC3339Nano), "attempt": j.Attempt, "error": why, "trace": ""})
		p.ID = append(p.ID, j.ID)
		p.Error = append(p.Error, msg)
		p.FinalizedAt = append(p.FinalizedAt, nil)
		p.ScheduledAt = append(p.ScheduledAt, now)
		p.State = append(p.State, string(rivertype.JobStateAvailable))
	}
	if _, err := q.exec.JobRescueMany(ctx, p); err != nil {
		return fmt.Errorf("rescuing the jobs of dead workers: %w", err)
	}
	return nil
}
