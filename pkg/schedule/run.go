package schedule

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Work works jobs until ctx is done (the first SIGTERM or SIGINT), then
// stops taking jobs and lets the running ones end within grace; runs still
// going after it are interrupted (they end interrupted, resumable, and
// their loops fire again as usual). It returns when every job has stopped,
// or at once when hard is closed (a second signal).
func (q *Queue) Work(ctx context.Context, h *Handler, grace time.Duration, hard <-chan struct{}) error {
	if err := q.start(h); err != nil {
		return err
	}
	<-ctx.Done()
	return q.stop(grace, hard)
}

// WorkDue works every job that is due now, then stops (`tavo worker
// --once`): jobs that come due meanwhile, or are snoozed, wait for the next
// worker.
func (q *Queue) WorkDue(ctx context.Context, h *Handler, grace time.Duration, hard <-chan struct{}) error {
	if err := q.start(h); err != nil {
		return err
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
		if err := q.PromoteDue(context.WithoutCancel(ctx)); err != nil {
			continue // busy: the next tick tries again
		}
		if n, err := q.due(context.WithoutCancel(ctx)); err == nil && n == 0 {
			break
		}
	}
	return q.stop(grace, hard)
}

// start rescues dead workers' jobs, queues every active loop's firing,
// promotes what is due and starts taking jobs.
func (q *Queue) start(h *Handler) error {
	ctx := context.Background()
	if h == nil || h.queue != q {
		return errors.New("schedule: the queue was made without this handler")
	}
	if n, err := q.RescueDead(ctx); err != nil {
		return err
	} else if n > 0 {
		h.logf("rescued %d job(s) of a worker that died", n)
	}
	if err := q.ScheduleActiveLoops(ctx, h.Store); err != nil {
		return err
	}
	if err := q.PromoteDue(ctx); err != nil {
		return fmt.Errorf("reading due jobs: %w", err)
	}
	if err := q.c.Start(ctx); err != nil {
		return fmt.Errorf("starting the worker: %w", err)
	}
	return nil
}

// stop stops taking jobs, waits up to grace for the running ones, then
// cancels them and waits for them to end, unless hard is closed first.
func (q *Queue) stop(grace time.Duration, hard <-chan struct{}) error {
	soft, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	go func() {
		select {
		case <-hard:
			cancel()
		case <-soft.Done():
		}
	}()
	err := q.c.Stop(soft)
	if err == nil {
		return nil
	}
	select {
	case <-hard:
		return errStopped
	default:
	}
	rest, cancelRest := context.WithCancel(context.Background())
	defer cancelRest()
	go func() {
		select {
		case <-hard:
			cancelRest()
		case <-rest.Done():
		}
	}()
	if err := q.c.StopAndCancel(rest); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("stopping the worker: %w", err)
	}
	return nil
}
