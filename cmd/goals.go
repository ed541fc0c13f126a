package cmd

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/store"
)

// NewCmdGoals builds `tavo goals` and its subcommands.
func NewCmdGoals(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "goals",
		Short: "List, show and cancel goals (tavo run --goal)",
		Long: `A goal keeps a run going turn after turn until a judge finds its condition met,
the model completes it, or it uses its turns (status goal_exhausted, exit 3).
Goals come from tavo run --goal CONDITION or the model's tavo_goal_create;
a session has at most one active goal. See docs/goals-loops.md.`,
	}
	c.AddCommand(NewCmdGoalsList(f, nil), NewCmdGoalsShow(f, nil), NewCmdGoalsCancel(f, nil))
	return c
}

// GoalsOptions are the inputs of `tavo goals list|show|cancel`.
type GoalsOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Session and Status filter the list; GoalID names the goal to show or
	// cancel; Reason says why it is cancelled.
	Session, Status string
	GoalID, Reason  string
}

// NewCmdGoalsList builds `tavo goals list`.
func NewCmdGoalsList(f *Factory, runF func(*GoalsOptions) error) *cobra.Command {
	o := &GoalsOptions{Factory: f}
	c := &cobra.Command{
		Use:   "list",
		Short: "List goals, oldest first",
		Args:  cobra.NoArgs,
		Example: `  tavo goals list --status active
  tavo goals list --session ses_01J… -o json`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Ctx = cmd.Context()
			return runOr(runF, goalsListRun, o)
		},
	}
	c.Flags().StringVar(&o.Session, "session", "", "only this session's goals")
	c.Flags().StringVar(&o.Status, "status", "", "only goals with this status: active|completed|cancelled|exhausted")
	return c
}

func goalsListRun(o *GoalsOptions) error {
	switch o.Status {
	case "", store.GoalActive, store.GoalCompleted, store.GoalCancelled, store.GoalExhausted:
	default:
		return usageError(fmt.Errorf("invalid --status %q: want active, completed, cancelled or exhausted", o.Status))
	}
	out, st, err := storeOutputContext(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(o.Ctx, st, o.Session); err != nil {
		return err
	}
	gs, err := st.ListGoals(o.Ctx, o.Session, o.Status)
	if err != nil {
		return failedError(err)
	}
	if out.Structured() {
		return cli.WriteList(out, gs)
	}
	t := cli.NewTable(o.Factory.IO, "ID", "SESSION", "STATUS", "TURNS", "CONDITION")
	for _, g := range gs {
		t.AddRow(g.ID, g.SessionID, g.Status, strconv.Itoa(g.CompletedTurns)+"/"+strconv.Itoa(g.MaxTurns), clip(g.Condition, 60))
	}
	return t.Render()
}

// NewCmdGoalsShow builds `tavo goals show`.
func NewCmdGoalsShow(f *Factory, runF func(*GoalsOptions) error) *cobra.Command {
	o := &GoalsOptions{Factory: f}
	return &cobra.Command{
		Use:   "show GOAL",
		Short: "Show a goal: condition, status, turns",
		Args:  cobra.ExactArgs(1),
		Example: `  tavo goals show goal_01J…
  tavo goals show goal_01J… -o json --jq .status`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.GoalID = cmd.Context(), args[0]
			return runOr(runF, goalsShowRun, o)
		},
	}
}

func goalsShowRun(o *GoalsOptions) error {
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	g, err := st.GetGoal(o.Ctx, o.GoalID)
	if err != nil {
		return goalError(err, o.GoalID)
	}
	return printGoal(o.Factory, g, "")
}

// NewCmdGoalsCancel builds `tavo goals cancel`.
func NewCmdGoalsCancel(f *Factory, runF func(*GoalsOptions) error) *cobra.Command {
	o := &GoalsOptions{Factory: f}
	c := &cobra.Command{
		Use:   "cancel GOAL",
		Short: "Cancel an active goal: no further turn starts for it",
		Long: `Cancel an active goal. A run pursuing it ends after its current turn; a
goal that has already ended is an error (exit 1).`,
		Args: cobra.ExactArgs(1),
		Example: `  tavo goals cancel goal_01J…
  tavo goals cancel goal_01J… --reason "not needed any more"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.GoalID = cmd.Context(), args[0]
			return runOr(runF, goalsCancelRun, o)
		},
	}
	c.Flags().StringVar(&o.Reason, "reason", "", "why it is cancelled (kept with the goal)")
	return c
}

func goalsCancelRun(o *GoalsOptions) error {
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	g, err := st.EndGoal(o.Ctx, o.GoalID, store.GoalCancelled, o.Reason)
	if err != nil {
		return goalError(err, o.GoalID)
	}
	return printGoal(o.Factory, g, "cancelled")
}

// goalError maps a store error about a goal: not found and already ended
// are failures (exit 1) with a pointer to the list.
func goalError(err error, id string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return failedError(fmt.Errorf("no goal %q (see `tavo goals list`)", id))
	case errors.Is(err, store.ErrNotActive):
		return failedError(fmt.Errorf("goal %s has already ended", id))
	}
	return failedError(err)
}

// printGoal prints a goal: a document for -o json, lines for people; hint
// goes to stderr.
func printGoal(f *Factory, g *store.Goal, hint string) error {
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	if out.Structured() {
		return out.WriteValue(g)
	}
	w := f.IO.Out
	fmt.Fprintf(w, "id:        %s\nsession:   %s\nstatus:    %s\nturns:     %d of %d\ncondition: %s\n",
		g.ID, g.SessionID, g.Status, g.CompletedTurns, g.MaxTurns, g.Condition)
	if g.Reason != "" {
		fmt.Fprintf(w, "reason:    %s\n", g.Reason)
	}
	fmt.Fprintf(w, "updated:   %s\n", g.UpdatedAt.Format(time.RFC3339))
	if hint != "" {
		note(f, "tavo: goal %s %s", g.ID, hint)
	}
	return nil
}
