package schedule

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	"github.com/tavo-cli/tavo/pkg/store"
)

// Config configures a Queue.
type Config struct {
	// Handler works the jobs; nil makes an insert-only queue (what `tavo
	// run` and `tavo loops create` need to schedule work).
	Handler *Handler
	// Concurrency is how many jobs run at once (default 1).
	Concurrency int
	// PollInterval is how often an idle worker looks for due jobs (SQLite
	// has no notifications); default 1s.
	PollInterval time.Duration
	// RescueAfter is how long a job may run before River rescues it as
	// stuck; default DefaultRescueAfter.
	RescueAfter time.Duration
	// Logger receives River's own log; nil discards it.
	Logger *slog.Logger
}

// DefaultRescueAfter is how long a job may run before River's rescuer
// takes it as stuck (the worker that ran it died without a trace River
// could see). A worker starting on the same machine rescues the jobs of a
// dead worker at once (RescueDead).
const DefaultRescueAfter = time.Hour

// client is what tavo uses of a *river.Client, whatever its driver.
type client interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
	Subscribe(kinds ...river.EventKind) (<-chan *river.Event, func())
	JobList(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error)
	JobCancel(ctx context.Context, jobID int64) (*rivertype.JobRow, error)
	ID() string
}

// Queue is tavo's River client: it inserts jobs and, with a Handler, works
// them. It is driver-independent: New takes any River driver (the embedded
// store's SQLite through OpenSQLite; riverpgxv5 for a fleet store).
type Queue struct {
	c    client
	exec riverdriver.Executor
	// closeDB closes the database the queue opened itself.
	closeDB func() error
	// db is that database (tests make jobs due through it).
	db *sql.DB
}

// New makes a Queue over driver, whose database River's migrations must
// already have reached (Migrate).
func New[TTx any](driver riverdriver.Driver[TTx], cfg Config) (*Queue, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	rc := &river.Config{
		ID:                   ClientID(),
		Logger:               logger,
		FetchPollInterval:    cmpDur(cfg.PollInterval, time.Second),
		FetchCooldown:        min(10*time.Millisecond, cmpDur(cfg.PollInterval, time.Second)),
		JobTimeout:           -1, // a run has its own --timeout
		RescueStuckJobsAfter: cmpDur(cfg.RescueAfter, DefaultRescueAfter),
		MaxAttempts:          5,
		// SQLite has no LISTEN: River's SQLite listener polls a table many
		// times a second, the most of an idle worker's CPU. Fetch polling
		// alone finds due jobs. PostgreSQL's LISTEN/NOTIFY is real: there
		// River hears of new jobs and leadership at once.
		PollOnly: driver.DatabaseName() == riverdriver.DatabaseNameSQLite,
	}
	if h := cfg.Handler; h != nil {
		w := river.NewWorkers()
		river.AddWorker(w, river.WorkFunc(h.fireLoop))
		river.AddWorker(w, river.WorkFunc(h.wake))
		river.AddWorker(w, river.WorkFunc(h.goalTurns))
		rc.Workers = w
		rc.Queues = map[string]river.QueueConfig{QueueName: {MaxWorkers: max(1, cfg.Concurrency)}}
	}
	c, err := river.NewClient(driver, rc)
	if err != nil {
		return nil, fmt.Errorf("starting the job queue: %w", err)
	}
	q := &Queue{c: c, exec: driver.GetExecutor()}
	if cfg.Handler != nil {
		cfg.Handler.queue = q
	}
	return q, nil
}

func cmpDur(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Migrate brings River's tables in driver's database up to date (River's
// own migrations).
func Migrate[TTx any](ctx context.Context, driver riverdriver.Driver[TTx]) error {
	m, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return fmt.Errorf("job queue migrations: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("job queue migrations: %w", err)
	}
	return nil
}

// OpenSQLite opens the queue on the embedded store of dataDir: River's
// SQLite driver on tavo.db (River's tables beside tavo's), River's
// migrations applied under a lock so concurrent processes migrate once.
func OpenSQLite(ctx context.Context, dataDir string, cfg Config) (*Queue, error) {
	path := filepath.Join(dataDir, store.FileName)
	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	// River's SQLite driver wants one connection: SQLite runs one writer
	// at a time, and River's services run in parallel.
	db.SetMaxOpenConns(1)
	driver := riversqlite.New(db)
	if err := withFileLock(filepath.Join(dataDir, "locks", "river-migrate.lock"), func() error { return Migrate(ctx, driver) }); err != nil {
		db.Close()
		return nil, err
	}
	q, err := New(driver, cfg)
	if err != nil {
		db.Close()
		return nil, err
	}
	q.closeDB, q.db = db.Close, db
	return q, nil
}

// sqliteDSN is the data source name of River's connection: the same
// waiting on locks and immediate transactions as the store's, so a busy
// database waits instead of failing.
func sqliteDSN(path string) string {
	v := url.Values{}
	v.Add("_pragma", "busy_timeout(10000)")
	v.Add("_pragma", "synchronous(NORMAL)")
	v.Set("_txlock", "immediate")
	u := url.URL{Path: path}
	return "file:" + u.EscapedPath() + "?" + v.Encode()
}

// Close closes the database the queue opened.
func (q *Queue) Close() error {
	if q.closeDB != nil {
		return q.closeDB()
	}
	return nil
}

// ScheduleLoop queues the loop's next firing at its next_run_at. A firing
// already queued for that time is not queued twice.
func (q *Queue) ScheduleLoop(ctx context.Context, l *store.Loop) error {
	_, err := q.c.Insert(ctx, LoopFire{LoopID: l.ID, Due: l.NextRunAt}, &river.InsertOpts{
		ScheduledAt: l.NextRunAt, UniqueOpts: river.UniqueOpts{ByArgs: true}})
	if err != nil {
		return fmt.Errorf("scheduling loop %s: %w", l.ID, err)
	}
	return nil
}

// UnscheduleLoop cancels the loop's queued firings, all but the one due at
// keep (all of them when keep is zero), and returns how many it cancelled.
// After a pause, a resume (the loop next fires one interval from the
// resume) or a cancel, such a firing would only be dropped by the worker
// when due, and `tavo worker status` would count it as scheduled until then.
func (q *Queue) UnscheduleLoop(ctx context.Context, loopID string, keep time.Time) (int, error) {
	res, err := q.c.JobList(ctx, river.NewJobListParams().Kinds(KindLoopFire).
		States(rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable).
		First(maxListedJobs))
	if err != nil {
		return 0, fmt.Errorf("reading the queued firings of loop %s: %w", loopID, err)
	}
	n := 0
	for _, j := range res.Jobs {
		var a LoopFire
		if json.Unmarshal(j.EncodedArgs, &a) != nil || a.LoopID != loopID || (!keep.IsZero() && a.Due.Equal(keep)) {
			continue
		}
		if _, err := q.c.JobCancel(ctx, j.ID); err != nil && !errors.Is(err, river.ErrNotFound) {
			return n, fmt.Errorf("cancelling a queued firing of loop %s: %w", loopID, err)
		}
		n++
	}
	return n, nil
}

// maxListedJobs is the most jobs one listing reads (River's own bound).
const maxListedJobs = 10000

// ScheduleWake queues the wake-up of a session that run ended waiting.
func (q *Queue) ScheduleWake(ctx context.Context, sessionID, runID string, at time.Time) error {
	_, err := q.c.Insert(ctx, Wake{SessionID: sessionID, RunID: runID}, &river.InsertOpts{
		ScheduledAt: at, UniqueOpts: river.UniqueOpts{ByArgs: true}})
	if err != nil {
		return fmt.Errorf("scheduling the wake-up of %s: %w", sessionID, err)
	}
	return nil
}

// ScheduleGoal queues a detached goal run (`tavo run --goal … --detach`).
func (q *Queue) ScheduleGoal(ctx context.Context, g *store.Goal, prompt string) error {
	_, err := q.c.Insert(ctx, GoalRun{SessionID: g.SessionID, GoalID: g.ID, Prompt: prompt}, &river.InsertOpts{
		UniqueOpts: river.UniqueOpts{ByArgs: true}})
	if err != nil {
		return fmt.Errorf("scheduling goal %s: %w", g.ID, err)
	}
	return nil
}

// ScheduleActiveLoops queues the next firing of every active loop that has
// none queued (one created while no queue could be reached, or whose job
// was lost): a firing is never missed for good.
func (q *Queue) ScheduleActiveLoops(ctx context.Context, st *store.Store) error {
	ls, err := st.ListLoops(ctx, "", store.LoopActive)
	if err != nil {
		return err
	}
	for i := range ls {
		if err := q.ScheduleLoop(ctx, &ls[i]); err != nil {
			return err
		}
	}
	return nil
}

// PromoteDue makes every scheduled job whose time has come available now,
// as River's scheduler does every few seconds on the leader; `tavo worker
// --once` calls it so it sees what is due at once.
func (q *Queue) PromoteDue(ctx context.Context) error {
	now := time.Now().UTC()
	_, err := q.exec.JobSchedule(ctx, &riverdriver.JobScheduleParams{Max: 10_000, Now: &now})
	return err
}

// ClientID names this process for River (attempted_by): tavo-HOST-PID, so
// a worker on the same host can tell a dead worker's jobs.
func ClientID() string {
	host, _ := os.Hostname()
	host = strings.ReplaceAll(host, "-", "_")
	return "tavo-" + host + "-" + strconv.Itoa(os.Getpid())
}

// deadWorker reports whether id (a ClientID) names a process of this host
// that no longer exists.
func deadWorker(id string) bool {
	host, _ := os.Hostname()
	prefix := "tavo-" + strings.ReplaceAll(host, "-", "_") + "-"
	if !strings.HasPrefix(id, prefix) {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimPrefix(id, prefix))
	if err != nil || pid == os.Getpid() {
		return false
	}
	return !processAlive(pid)
}

// RescueDead gives back to the queue the running jobs of workers of this
// host that died (kill -9, a crash), through River's own rescue, without
// waiting for RescueAfter. It returns how many it rescued.
func (q *Queue) RescueDead(ctx context.Context) (int, error) {
	res, err := q.c.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateRunning).First(1000))
	if err != nil {
		return 0, err
	}
	now := time.Now().UTC()
	p := &riverdriver.JobRescueManyParams{StuckHorizon: now}
	for _, j := range res.Jobs {
		if len(j.AttemptedBy) == 0 || !deadWorker(j.AttemptedBy[len(j.AttemptedBy)-1]) {
			continue
		}
		p.ID = append(p.ID, j.ID)
		p.Error = append(p.Error, []byte(fmt.Sprintf(`{"at":%q,"attempt":%d,"error":"the worker running the job died","trace":""}`,
			now.Format(time.RFC3339Nano), j.Attempt)))
		p.FinalizedAt = append(p.FinalizedAt, nil)
		p.ScheduledAt = append(p.ScheduledAt, now)
		p.State = append(p.State, string(rivertype.JobStateAvailable))
	}
	if len(p.ID) == 0 {
		return 0, nil
	}
	if _, err := q.exec.JobRescueMany(ctx, p); err != nil {
		return 0, fmt.Errorf("rescuing the jobs of dead workers: %w", err)
	}
	return len(p.ID), nil
}

// Stats counts jobs by state, for `tavo worker status`.
type Stats struct {
	Queue     string `json:"queue"`
	Due       int    `json:"due"`
	Scheduled int    `json:"scheduled"`
	Running   int    `json:"running"`
	// Next is the time of the next scheduled job; nil when none is.
	Next *time.Time `json:"next,omitempty"`
	// Jobs are the due, running and scheduled jobs, soonest first.
	Jobs []JobView `json:"jobs"`
}

// JobView is one job as `tavo worker status` shows it.
type JobView struct {
	ID          int64     `json:"id"`
	Kind        string    `json:"kind"`
	State       string    `json:"state"`
	ScheduledAt time.Time `json:"scheduled_at"`
	Args        string    `json:"args"`
	AttemptedBy string    `json:"attempted_by,omitempty"`
}

// Stats reads what the queue holds.
func (q *Queue) Stats(ctx context.Context) (*Stats, error) {
	res, err := q.c.JobList(ctx, river.NewJobListParams().
		States(rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRunning, rivertype.JobStateRetryable).
		OrderBy(river.JobListOrderByScheduledAt, river.SortOrderAsc).First(1000))
	if err != nil {
		return nil, fmt.Errorf("reading the job queue: %w", err)
	}
	st := &Stats{Queue: QueueName, Jobs: []JobView{}}
	now := time.Now()
	for _, j := range res.Jobs {
		v := JobView{ID: j.ID, Kind: j.Kind, State: string(j.State), ScheduledAt: j.ScheduledAt.UTC(), Args: string(j.EncodedArgs)}
		if len(j.AttemptedBy) > 0 {
			v.AttemptedBy = j.AttemptedBy[len(j.AttemptedBy)-1]
		}
		switch {
		case j.State == rivertype.JobStateRunning:
			st.Running++
		case !j.ScheduledAt.After(now):
			st.Due++
		default:
			st.Scheduled++
			if st.Next == nil {
				t := j.ScheduledAt.UTC()
				st.Next = &t
			}
		}
		st.Jobs = append(st.Jobs, v)
	}
	return st, nil
}

// due counts the jobs that are due and not running.
func (q *Queue) due(ctx context.Context) (int, error) {
	res, err := q.c.JobList(ctx, river.NewJobListParams().
		States(rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable).
		OrderBy(river.JobListOrderByScheduledAt, river.SortOrderAsc).First(1))
	if err != nil {
		return 0, err
	}
	if len(res.Jobs) == 0 || res.Jobs[0].ScheduledAt.After(time.Now()) {
		return 0, nil
	}
	return 1, nil
}

// errStopped is returned by Work when the worker stops.
var errStopped = errors.New("the worker stopped")
