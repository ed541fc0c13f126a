package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/schedule"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
)

// NewCmdLoops builds `tavo loops` and its subcommands.
func NewCmdLoops(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "loops",
		Short: "Create, list, show, pause, resume and cancel loops",
		Long: `A loop runs a prompt in its session every interval, up to --max-turns times,
with the settings the session had when the loop was created. tavo worker
works the firings (tavo worker --once from cron works what is due). See
docs/goals-loops.md.`,
	}
	c.AddCommand(NewCmdLoopsCreate(f, nil), NewCmdLoopsList(f, nil), NewCmdLoopsShow(f, nil),
		newCmdLoopsMove(f, "pause", store.LoopPaused, "Pause an active loop: no firing until it is resumed"),
		newCmdLoopsMove(f, "resume", store.LoopActive, "Resume a paused loop: it next fires one interval from now"),
		newCmdLoopsMove(f, "cancel", store.LoopCancelled, "Cancel a loop: it fires no more"))
	return c
}

// LoopsOptions are the inputs of `tavo loops …`.
type LoopsOptions struct {
	Factory *Factory
	Ctx     context.Context
	Session string
	Every   time.Duration
	// MaxTurns is the most firings; Changed reports whether it was given.
	MaxTurns int
	Prompt   string
	Status   string
	LoopID   string
	// To is the status pause, resume and cancel move the loop to.
	To     string
	Reason string
}

// NewCmdLoopsCreate builds `tavo loops create`.
func NewCmdLoopsCreate(f *Factory, runF func(*LoopsOptions) error) *cobra.Command {
	o := &LoopsOptions{Factory: f}
	c := &cobra.Command{
		Use:   "create --session ID --every DUR [--max-turns N] PROMPT...",
		Short: "Create a loop that runs PROMPT in a session every DUR",
		Args:  cobra.MinimumNArgs(1),
		Example: `  tavo loops create --session ses_01J… --every 1h "Check the build and tell me when it is green"
  tavo loops create --session "$id" --every 10m --max-turns 6 "Poll https://status.example.com"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.Prompt = cmd.Context(), strings.Join(args, " ")
			return runOr(runF, loopsCreateRun, o)
		},
	}
	c.Flags().StringVar(&o.Session, "session", "", "the session the loop runs in (required)")
	c.Flags().DurationVar(&o.Every, "every", 0, "time between firings, at least 10s (required)")
	c.Flags().IntVar(&o.MaxTurns, "max-turns", store.DefaultLoopMaxTurns, "most firings; the loop is then exhausted")
	_ = c.MarkFlagRequired("session")
	_ = c.MarkFlagRequired("every")
	_ = c.RegisterFlagCompletionFunc("session", completeSessions(f))
	return c
}

func loopsCreateRun(o *LoopsOptions) error {
	if err := checkRange(config.LoopEveryRange, o.Every); err != nil {
		return err
	}
	if err := checkRange(config.LoopTurnsRange, o.MaxTurns); err != nil {
		return err
	}
	if strings.TrimSpace(o.Prompt) == "" {
		return usageError(errors.New("no prompt: pass what each firing should do as arguments"))
	}
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(o.Ctx, st, o.Session); err != nil {
		return err
	}
	// The loop fires with the session's settings as they are now.
	c, err := session.LoadConfig(o.Ctx, st, o.Session)
	if err != nil {
		return sessionError(err, o.Session)
	}
	var doc json.RawMessage
	if !c.IsZero() {
		if doc, err = json.Marshal(c); err != nil {
			return failedError(err)
		}
	}
	l, err := st.CreateLoop(o.Ctx, store.NewLoop{SessionID: o.Session, Prompt: o.Prompt, Interval: o.Every, MaxTurns: o.MaxTurns, Config: doc})
	if err != nil {
		return storeError(err)
	}
	if err := rescheduleLoop(o.Ctx, o.Factory, l); err != nil {
		return failedError(err)
	}
	return printLoop(o.Factory, l, "created; it first fires at "+l.NextRunAt.Local().Format(time.RFC3339)+" when `tavo worker` runs")
}

// NewCmdLoopsList builds `tavo loops list`.
func NewCmdLoopsList(f *Factory, runF func(*LoopsOptions) error) *cobra.Command {
	o := &LoopsOptions{Factory: f}
	c := &cobra.Command{
		Use:   "list",
		Short: "List loops, oldest first",
		Args:  cobra.NoArgs,
		Example: `  tavo loops list
  tavo loops list --status active -o json --jq '.[].loop_id'`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Ctx = cmd.Context()
			return runOr(runF, loopsListRun, o)
		},
	}
	c.Flags().StringVar(&o.Session, "session", "", "only this session's loops")
	c.Flags().StringVar(&o.Status, "status", "", "only loops with this status: active|paused|completed|cancelled|exhausted")
	return c
}

func loopsListRun(o *LoopsOptions) error {
	switch o.Status {
	case "", store.LoopActive, store.LoopPaused, store.LoopCompleted, store.LoopCancelled, store.LoopExhausted:
	default:
		return usageError(fmt.Errorf("invalid --status %q: want active, paused, completed, cancelled or exhausted", o.Status))
	}
	out, st, err := storeOutputContext(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(o.Ctx, st, o.Session); err != nil {
		return err
	}
	ls, err := st.ListLoops(o.Ctx, o.Session, o.Status)
	if err != nil {
		return failedError(err)
	}
	if out.Structured() {
		return cli.WriteList(out, ls)
	}
	t := cli.NewTable(o.Factory.IO, "ID", "SESSION", "STATUS", "EVERY", "TURNS", "NEXT", "PROMPT")
	for _, l := range ls {
		next := "-"
		if l.Status == store.LoopActive {
			next = l.NextRunAt.Local().Format(time.RFC3339)
		}
		t.AddRow(l.ID, l.SessionID, l.Status, l.Interval.String(), strconv.Itoa(l.CompletedTurns)+"/"+strconv.Itoa(l.MaxTurns), next, clip(l.Prompt, 50))
	}
	return t.Render()
}

// NewCmdLoopsShow builds `tavo loops show`.
func NewCmdLoopsShow(f *Factory, runF func(*LoopsOptions) error) *cobra.Command {
	o := &LoopsOptions{Factory: f}
	return &cobra.Command{
		Use:   "show LOOP",
		Short: "Show a loop: prompt, interval, status, turns, next firing",
		Args:  cobra.ExactArgs(1),
		Example: `  tavo loops show loop_01J…
  tavo loops show loop_01J… -o json --jq .next_run_at`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.LoopID = cmd.Context(), args[0]
			return runOr(runF, loopsShowRun, o)
		},
	}
}

func loopsShowRun(o *LoopsOptions) error {
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	l, err := st.GetLoop(o.Ctx, o.LoopID)
	if err != nil {
		return loopError(err, o.LoopID)
	}
	return printLoop(o.Factory, l, "")
}

// newCmdLoopsMove builds `tavo loops pause|resume|cancel`.
func newCmdLoopsMove(f *Factory, verb, to, short string) *cobra.Command {
	o := &LoopsOptions{Factory: f, To: to}
	c := &cobra.Command{
		Use:     verb + " LOOP",
		Short:   short,
		Args:    cobra.ExactArgs(1),
		Example: "  tavo loops " + verb + " loop_01J…\n  tavo loops " + verb + " loop_01J… -o json --jq .status",
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.LoopID = cmd.Context(), args[0]
			return loopsMoveRun(o)
		},
	}
	if to == store.LoopCancelled {
		c.Flags().StringVar(&o.Reason, "reason", "", "why it is cancelled (kept with the loop)")
	}
	return c
}

func loopsMoveRun(o *LoopsOptions) error {
	st, err := openStore(o.Ctx, o.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	l, err := st.SetLoopStatus(o.Ctx, o.LoopID, o.To, o.Reason)
	if err != nil {
		return loopError(err, o.LoopID)
	}
	if err := rescheduleLoop(o.Ctx, o.Factory, l); err != nil {
		return failedError(err)
	}
	return printLoop(o.Factory, l, l.Status)
}

// rescheduleLoop makes the worker's queue match a loop just created or
// moved: an active loop has its next firing queued, and no loop keeps a
// firing queued for another time (a paused, resumed or cancelled loop's
// old one).
func rescheduleLoop(ctx context.Context, f *Factory, l *store.Loop) error {
	q, err := openQueue(ctx, f, schedule.Config{})
	if err != nil {
		return err
	}
	defer q.Close()
	var keep time.Time
	if l.Status == store.LoopActive {
		if err := q.ScheduleLoop(ctx, l); err != nil {
			return err
		}
		keep = l.NextRunAt
	}
	_, err = q.UnscheduleLoop(ctx, l.ID, keep)
	return err
}

// loopError maps a store error about a loop (exit 1).
func loopError(err error, id string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return failedError(fmt.Errorf("no loop %q (see `tavo loops list`)", id))
	case errors.Is(err, store.ErrNotActive):
		msg := err.Error()
		if i := strings.Index(msg, "loop "); i >= 0 {
			msg = msg[i:]
		}
		return failedError(errors.New(strings.TrimSuffix(msg, ": "+store.ErrNotActive.Error())))
	}
	return failedError(err)
}

// printLoop prints a loop: a document for -o json, lines for people; hint
// goes to stderr.
func printLoop(f *Factory, l *store.Loop, hint string) error {
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	if out.Structured() {
		return out.WriteValue(l)
	}
	w := f.IO.Out
	fmt.Fprintf(w, "id:        %s\nsession:   %s\nstatus:    %s\nevery:     %s\nturns:     %d of %d\n",
		l.ID, l.SessionID, l.Status, l.Interval, l.CompletedTurns, l.MaxTurns)
	if l.Status == store.LoopActive {
		fmt.Fprintf(w, "next:      %s\n", l.NextRunAt.Local().Format(time.RFC3339))
	}
	if l.Reason != "" {
		fmt.Fprintf(w, "reason:    %s\n", l.Reason)
	}
	if l.LastRunID != "" {
		fmt.Fprintf(w, "last run:  %s\n", l.LastRunID)
	}
	fmt.Fprintf(w, "prompt:    %s\n", l.Prompt)
	if hint != "" {
		note(f, "tavo: loop %s %s", l.ID, hint)
	}
	return nil
}
