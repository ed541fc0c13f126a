package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/schedule"
)

// WorkerOptions are the inputs of `tavo worker`.
type WorkerOptions struct {
	Factory     *Factory
	Ctx         context.Context
	Once        bool
	Concurrency int
	Grace       time.Duration
	Poll        time.Duration
}

// Worker defaults.
const (
	defaultWorkerConcurrency = 4
	defaultWorkerGrace       = 30 * time.Second
)

// NewCmdWorker builds `tavo worker` and `tavo worker status`.
func NewCmdWorker(f *Factory, runF func(*WorkerOptions) error) *cobra.Command {
	o := &WorkerOptions{Factory: f}
	c := &cobra.Command{
		Use:   "worker",
		Short: "Work loop firings, wake-ups and detached goals (River jobs) in the foreground",
		Long: `Work the scheduled work of the data dir: loop firings, the wake-ups runs asked
for with tavo_wait, and goal runs handed over with tavo run --goal … --detach.
Jobs live in River's tables in tavo.db; several workers (and several
tavo worker --once from overlapping cron entries) may share one data dir, and
each firing runs exactly once. With a PostgreSQL store ([store] url, see
docs/scale.md) they live in that database, and workers on every machine of a
fleet share them.

SIGTERM or SIGINT stops taking jobs and lets running runs end within --grace;
runs still going then are interrupted, and the worker exits 0. A second
signal exits at once. A worker killed outright leaves its job to be rescued
by the next worker on the machine (on PostgreSQL, by any worker once the
run's session lease lapses, within about 20 s): the run is marked
interrupted (never replayed) and the loop fires again as scheduled.

--once works what is due, then exits, for cron:
  * * * * * tavo worker --once`,
		Args: cobra.NoArgs,
		Example: `  tavo worker --concurrency 8
  tavo worker --once
  tavo worker status -o json`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Ctx = cmd.Context()
			return runOr(runF, workerRun, o)
		},
	}
	c.Flags().BoolVar(&o.Once, "once", false, "work what is due now, then exit (for cron)")
	c.Flags().IntVar(&o.Concurrency, "concurrency", defaultWorkerConcurrency, "runs worked at once")
	c.Flags().DurationVar(&o.Grace, "grace", defaultWorkerGrace, "on SIGTERM/SIGINT, how long running runs may take to end before they are interrupted")
	c.Flags().DurationVar(&o.Poll, "poll", time.Second, "how often an idle worker looks for due jobs")
	c.AddCommand(NewCmdWorkerStatus(f, nil))
	return c
}

func workerRun(o *WorkerOptions) error {
	f := o.Factory
	if err := checkRange(config.WorkerConcurrencyRange, o.Concurrency); err != nil {
		return err
	}
	if err := checkRange(config.WorkerGraceRange, o.Grace); err != nil {
		return err
	}
	if err := checkRange(config.Range[time.Duration]{Flag: "--poll", Min: 10 * time.Millisecond, Max: time.Hour}, o.Poll); err != nil {
		return err
	}
	if _, err := loadConfig(f); err != nil {
		return err
	}
	ctx, hard, stop := workerSignals(o.Ctx)
	defer stop()
	// One store for the worker and every run it starts (the Factory's,
	// closed when the command ends).
	st, err := f.Store(o.Ctx)
	if err != nil {
		return failedError(err)
	}
	h := &schedule.Handler{Store: st, Start: runStarter(f)}
	if !f.Quiet {
		h.Log = func(format string, args ...any) {
			fmt.Fprintf(f.IO.ErrOut, "tavo: worker: "+format+"\n", args...)
		}
	}
	q, err := openQueue(o.Ctx, f, schedule.Config{Handler: h, Concurrency: o.Concurrency, PollInterval: o.Poll})
	if err != nil {
		return failedError(err)
	}
	defer q.Close()
	if o.Once {
		err = q.WorkDue(ctx, h, o.Grace, hard)
	} else {
		if !f.Quiet {
			where := f.DataDirectory()
			if st.Engine() != "sqlite" {
				where = st.Engine() + " store " + st.Location()
			}
			fmt.Fprintf(f.IO.ErrOut, "tavo: worker: working %s with %d at once; SIGTERM or Ctrl-C stops it\n", where, o.Concurrency)
		}
		err = q.Work(ctx, h, o.Grace, hard)
	}
	select {
	case <-hard:
		// The second signal: out at once, as the shell would report it.
		return silentExit(events.ExitInterrupted)
	default:
	}
	if err != nil {
		return failedError(err)
	}
	return nil
}

// workerSignals cancels ctx at the first SIGINT or SIGTERM and closes hard
// at the second.
func workerSignals(parent context.Context) (ctx context.Context, hard <-chan struct{}, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	h := make(chan struct{})
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			cancel()
		case <-done:
			return
		}
		select {
		case <-ch:
			close(h)
		case <-done:
		}
	}()
	return ctx, h, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// WorkerStatusOptions are the inputs of `tavo worker status`.
type WorkerStatusOptions struct {
	Factory *Factory
	Ctx     context.Context
}

// NewCmdWorkerStatus builds `tavo worker status`.
func NewCmdWorkerStatus(f *Factory, runF func(*WorkerStatusOptions) error) *cobra.Command {
	o := &WorkerStatusOptions{Factory: f}
	return &cobra.Command{
		Use:   "status",
		Short: "Show the job queue: due, running and scheduled jobs",
		Args:  cobra.NoArgs,
		Example: `  tavo worker status
  tavo worker status -o json --jq .due`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Ctx = cmd.Context()
			return runOr(runF, workerStatusRun, o)
		},
	}
}

func workerStatusRun(o *WorkerStatusOptions) error {
	f := o.Factory
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	q, err := openQueue(o.Ctx, f, schedule.Config{})
	if err != nil {
		return failedError(err)
	}
	defer q.Close()
	s, err := q.Stats(o.Ctx)
	if err != nil {
		return failedError(err)
	}
	if out.Structured() {
		return out.WriteValue(s)
	}
	next := "none"
	if s.Next != nil {
		next = s.Next.Local().Format(time.RFC3339)
	}
	fmt.Fprintf(f.IO.Out, "queue:     %s\ndue:       %d\nrunning:   %d\nscheduled: %d (next %s)\n", s.Queue, s.Due, s.Running, s.Scheduled, next)
	if len(s.Jobs) == 0 {
		return nil
	}
	fmt.Fprintln(f.IO.Out)
	t := cli.NewTable(f.IO, "JOB", "KIND", "STATE", "AT", "ARGS")
	for _, j := range s.Jobs {
		t.AddRow(fmt.Sprint(j.ID), j.Kind, j.State, j.ScheduledAt.Local().Format(time.RFC3339), clip(j.Args, 80))
	}
	return t.Render()
}

// openQueue opens the job queue beside the store the configuration names:
// River's SQLite driver on the embedded store, River's PostgreSQL driver
// (riverpgxv5) on a fleet's PostgreSQL store (SPEC §15).
func openQueue(ctx context.Context, f *Factory, cfg schedule.Config) (*schedule.Queue, error) {
	u, err := f.StoreURL()
	if err != nil {
		return nil, err
	}
	return schedule.Open(ctx, u, f.DataDirectory(), cfg)
}
