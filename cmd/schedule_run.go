package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/schedule"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
	goaltools "github.com/tavo-cli/tavo/pkg/tools/goals"
	"github.com/tavo-cli/tavo/pkg/tools/loops"
)

// This file joins `tavo run` to goals, wake-ups and the worker (SPEC §14):
// the --goal flags, the goal hook every run with a store gets, the wake-up
// a run that ended waiting leaves for the worker, and the worker's way of
// starting a run, which is runRun itself (the `tavo session send` path).

// headlessRun is a run the worker starts.
type headlessRun struct {
	// config, when set, replaces the session's stored settings (a loop's
	// recorded ones).
	config  *session.Config
	loopID  string
	onBound func(runID string)
	outcome schedule.RunOutcome
}

// runStarter is the worker's schedule.Starter: runRun with the session's
// stored settings (or the loop's), no terminal, nobody to ask.
func runStarter(f *Factory) schedule.Starter {
	return func(ctx context.Context, req schedule.RunRequest) (schedule.RunOutcome, error) {
		h := &headlessRun{loopID: req.LoopID, onBound: req.OnBound}
		if len(req.Config) > 0 {
			var c session.Config
			if err := json.Unmarshal(req.Config, &c); err != nil {
				return schedule.RunOutcome{}, fmt.Errorf("the loop's recorded settings: %w", err)
			}
			h.config = &c
		}
		o := &RunOptions{Factory: f, Ctx: ctx, Args: []string{req.Prompt}, Session: req.SessionID, Ask: "cancel", headless: h}
		if err := runRun(o); err != nil {
			return h.outcome, err
		}
		return h.outcome, nil
	}
}

// addGoalFlags declares --goal, --max-turns and --detach on `tavo run`.
func addGoalFlags(c *cobra.Command, o *RunOptions) {
	fl := c.Flags()
	fl.StringVar(&o.Goal, "goal", "", "keep working, turn after turn, until a judge finds this condition met (see docs/goals-loops.md)")
	fl.IntVar(&o.MaxTurns, "max-turns", store.DefaultGoalMaxTurns, "most turns the --goal may take (exit 3, goal_exhausted, when used up)")
	fl.BoolVar(&o.Detach, "detach", false, "with --goal: hand the run to `tavo worker` and print the goal's id instead of running here")
}

// checkGoalFlags refuses flags that need --goal without it.
func checkGoalFlags(o *RunOptions) error {
	changed := func(flag string) bool { return o.Changed != nil && o.Changed(flag) }
	switch {
	case o.Goal == "" && changed("max-turns"):
		return usageError(errors.New("--max-turns is for a --goal run: add --goal CONDITION"))
	case o.Goal == "" && o.Detach:
		return usageError(errors.New("--detach hands a --goal run to the worker: add --goal CONDITION"))
	case changed("goal") && strings.TrimSpace(o.Goal) == "":
		return usageError(errors.New("--goal needs a condition"))
	case o.Goal != "" && config.GoalTurnsRange.Check(o.MaxTurns) != nil:
		return usageError(config.GoalTurnsRange.Check(o.MaxTurns))
	case o.Detach && o.Input != "":
		return usageError(errors.New("--detach runs in the worker, where nobody drives it: drop --input"))
	}
	return nil
}

// checkNoActiveGoal refuses --goal in a session that has an active goal
// already (one per session), before anything starts.
func checkNoActiveGoal(ctx context.Context, st *store.Store, o *RunOptions) error {
	if o.Goal == "" || o.Session == "" {
		return nil
	}
	g, err := st.ActiveGoal(ctx, o.Session)
	if err != nil {
		return failedError(err)
	}
	if g != nil {
		return usageError(fmt.Errorf("session %s already has an active goal %s (%q): cancel it with `tavo goals cancel %s`", o.Session, g.ID, g.Condition, g.ID))
	}
	return nil
}

// startGoal readies a bound run for goals: the --goal is created in its
// session, every run gets the goal hook (a goal the model sets itself is
// pursued too), and a loop's run knows its loop. It returns the run's
// context.
func startGoal(ctx context.Context, st *store.Store, o *RunOptions, s *runSetup) (context.Context, error) {
	if h := o.headless; h != nil {
		if h.loopID != "" {
			ctx = loops.WithLoop(ctx, h.loopID)
		}
		if h.onBound != nil {
			h.onBound(s.opts.RunID)
		}
	}
	emit := func(t events.Type, p any) { s.opts.Emitter.Emit(t, p) }
	if o.Goal != "" {
		g, err := st.CreateGoal(ctx, s.opts.SessionID, strings.TrimSpace(o.Goal), o.MaxTurns)
		if err != nil {
			return ctx, err
		}
		// The first turn knows the goal (its id above all), so the model
		// can complete it with tavo_goal_complete right away; the event
		// follows run.started, like every event of the run.
		s.opts.Prompt.Parts = append(s.opts.Prompt.Parts, providers.Part{Type: providers.PartText, Text: "\n\n" + schedule.GoalNote(g)})
		s.opts.AfterStarted = func() { emit(events.GoalUpdated, goaltools.GoalEvent(g, goaltools.ByCreated)) }
	}
	hook := &schedule.GoalTurns{Store: st, SessionID: s.opts.SessionID, Judge: s.opts.Provider, JudgeModel: s.judgeModel, Emit: emit}
	s.opts.AfterTurn = hook.AfterTurn
	return ctx, nil
}

// judgeModel is the model that judges goals: the profile's judge_model,
// else the run's model.
func judgeModel(res *config.Resolved, set *config.RunSettings) string {
	if res.Profile.JudgeModel != "" {
		return res.Profile.JudgeModel
	}
	return set.Model
}

// recordWake keeps the wake-up of a run that ended waiting: on the run in
// the store, and (outside the worker, which queues it itself) as a job for
// the worker.
func recordWake(ctx context.Context, f *Factory, st *store.Store, o *RunOptions, sessionID, runID string, res *runner.Result) error {
	if res.WakeAt == nil {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	if err := st.SetRunWakeAt(ctx, runID, *res.WakeAt); err != nil {
		return err
	}
	if o.headless != nil {
		return nil
	}
	q, err := openQueue(ctx, f, schedule.Config{})
	if err != nil {
		return err
	}
	defer q.Close()
	return q.ScheduleWake(ctx, sessionID, runID, *res.WakeAt)
}

// detachGoal hands a --goal run to the worker: the session (new unless
// --session) keeps how it is to be run, the goal is created, a job queued,
// and the ids printed.
func detachGoal(ctx context.Context, f *Factory, st *store.Store, o *RunOptions, s *runSetup) error {
	if err := checkNoActiveGoal(ctx, st, o); err != nil {
		return err
	}
	prompt := s.opts.Prompt.Text()
	sid := o.Session
	if sid == "" {
		sid = ids.New("ses", time.Now())
		if _, err := st.CreateSession(ctx, sid, store.AutoTitle(prompt)); err != nil {
			return failedError(err)
		}
		if !s.remember.IsZero() {
			doc, err := json.Marshal(s.remember)
			if err != nil {
				return failedError(err)
			}
			if err := st.SetSessionConfig(ctx, sid, doc, true); err != nil {
				return failedError(err)
			}
		}
	} else if err := checkSession(ctx, st, sid); err != nil {
		return err
	}
	g, err := st.CreateGoal(ctx, sid, strings.TrimSpace(o.Goal), o.MaxTurns)
	if err != nil {
		return failedError(err)
	}
	q, err := openQueue(ctx, f, schedule.Config{})
	if err != nil {
		return failedError(err)
	}
	defer q.Close()
	// The worker's first turn knows the goal, as a run here would.
	if err := q.ScheduleGoal(ctx, g, prompt+"\n\n"+schedule.GoalNote(g)); err != nil {
		return failedError(err)
	}
	return printGoal(f, g, "detached: `tavo worker` runs it; follow it with `tavo goals show "+g.ID+"`")
}

// runStore is the store of a run: its own, closed when the run ends, for a
// command; the worker's one shared store for the runs it starts (opening
// a store per firing would cost more than the firing).
func runStore(ctx context.Context, o *RunOptions) (*store.Store, func() error, error) {
	return openRunStore(ctx, o.Factory, o.headless != nil)
}

func openRunStore(ctx context.Context, f *Factory, shared bool) (*store.Store, func() error, error) {
	if shared {
		st, err := f.Store(ctx)
		if err != nil {
			return nil, nil, &ExitError{Code: events.ExitFailed, Err: err}
		}
		return st, func() error { return nil }, nil
	}
	st, err := openStore(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	return st, st.Close, nil
}
