package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/store"
)

// NewCmdRuns builds `tavo runs` and its subcommands.
func NewCmdRuns(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "runs",
		Short: "List, inspect, follow, resume, cancel and prune runs",
	}
	c.AddCommand(NewCmdRunsList(f, nil), NewCmdRunsShow(f, nil), NewCmdRunsEvents(f, nil), NewCmdRunsCancel(f, nil), NewCmdRunsPrune(f, nil),
		NewCmdRunsResume(f, nil))
	return c
}

// runRow is a run as the runs commands print it.
type runRow struct {
	ID        string          `json:"id"`
	SessionID string          `json:"session_id"`
	Status    string          `json:"status"`
	ExitCode  *int            `json:"exit_code,omitempty"`
	StartedAt time.Time       `json:"started_at"`
	EndedAt   *time.Time      `json:"ended_at,omitempty"`
	Profile   string          `json:"profile,omitempty"`
	Provider  string          `json:"provider,omitempty"`
	Model     string          `json:"model,omitempty"`
	Events    int             `json:"events"`
	Result    json.RawMessage `json:"result,omitempty"`
}

func toRunRow(r *store.Run) runRow {
	row := runRow{ID: r.ID, SessionID: r.SessionID, Status: r.Status, ExitCode: r.ExitCode, StartedAt: r.StartedAt.UTC(),
		Profile: r.Profile, Provider: r.Provider, Model: r.Model, Events: r.Events}
	if r.EndedAt != nil {
		t := r.EndedAt.UTC()
		row.EndedAt = &t
	}
	if len(r.Summary) > 0 {
		row.Result = r.Summary
	}
	return row
}

// RunsListOptions are the inputs of `tavo runs list`.
type RunsListOptions struct {
	Factory   *Factory
	Ctx       context.Context
	Limit     int
	Cursor    string
	SessionID string
	// Parent lists the runs that run started as sub-agents.
	Parent string
}

// NewCmdRunsList builds `tavo runs list`; runF, when not nil, runs instead
// of runsListRun (for tests).
func NewCmdRunsList(f *Factory, runF func(*RunsListOptions) error) *cobra.Command {
	opts := &RunsListOptions{Factory: f}
	c := &cobra.Command{
		Use:   "list",
		Short: "List runs, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			return runOr(runF, runsListRun, opts)
		},
		Example: `  tavo runs list --limit 10
  tavo runs list --session ses_01J… -o json --jq '.runs[].status'`,
	}
	c.Flags().IntVar(&opts.Limit, "limit", 50, "runs per page, 1-200")
	c.Flags().StringVar(&opts.Cursor, "cursor", "", "continue after a previous page")
	c.Flags().StringVar(&opts.SessionID, "session", "", "only the runs of this session")
	c.Flags().StringVar(&opts.Parent, "parent", "", "only the runs this run started as sub-agents, oldest first (docs/subagents.md)")
	_ = c.RegisterFlagCompletionFunc("session", completeSessions(f))
	return c
}

func runsListRun(opts *RunsListOptions) error {
	f := opts.Factory
	if err := checkLimit(opts.Limit, 200); err != nil {
		return err
	}
	out, st, err := storeOutputContext(opts.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(opts.Ctx, st, opts.SessionID); err != nil {
		return err
	}
	var runs []store.Run
	var next string
	if opts.Parent != "" {
		if opts.SessionID != "" || opts.Cursor != "" {
			return usageError(errors.New("--parent lists one run's sub-agent runs in one page: drop --session and --cursor"))
		}
		if runs, err = childRuns(opts.Ctx, st, opts.Parent); err != nil {
			return err
		}
	} else if runs, next, err = st.ListRuns(opts.Ctx, opts.SessionID, opts.Limit, opts.Cursor); err != nil {
		return cursorError(err)
	}
	rows := make([]runRow, 0, len(runs))
	for i := range runs {
		r := toRunRow(&runs[i])
		r.Result = nil
		rows = append(rows, r)
	}
	if out.Structured() {
		return writePage(f, out, "runs", rows, next)
	}
	t := cli.NewTable(f.IO, "ID", "SESSION", "STATUS", "EXIT", "STARTED", "MODEL")
	for _, r := range rows {
		exit := ""
		if r.ExitCode != nil {
			exit = strconv.Itoa(*r.ExitCode)
		}
		t.AddRow(r.ID, r.SessionID, r.Status, exit, r.StartedAt.Format(time.RFC3339), r.Model)
	}
	if err := t.Render(); err != nil {
		return err
	}
	pageHint(f, next)
	return nil
}

// runError maps a store error about run id to exit 1 with a hint.
func runError(err error, id string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return failedError(fmt.Errorf("no run %q (see `tavo runs list`)", id))
	case errors.Is(err, store.ErrNotRunning):
		return failedError(fmt.Errorf("run %q has already ended", id))
	}
	return failedError(err)
}

// RunsShowOptions are the inputs of `tavo runs show`.
type RunsShowOptions struct {
	Factory *Factory
	Ctx     context.Context
	RunID   string
}

// NewCmdRunsShow builds `tavo runs show`; runF, when not nil, runs instead
// of runsShowRun (for tests).
func NewCmdRunsShow(f *Factory, runF func(*RunsShowOptions) error) *cobra.Command {
	opts := &RunsShowOptions{Factory: f}
	return &cobra.Command{
		Use:   "show RUN",
		Short: "Show a run: status, times, model and its run.completed result",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.RunID = cmd.Context(), args[0]
			return runOr(runF, runsShowRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeRuns(f)),
		Example: `  tavo runs show run_01J…
  tavo runs show run_01J… -o json --jq .summary.text
  # exit 1 when the run does not exist (docs/exit-codes.md)`,
	}
}

func runsShowRun(opts *RunsShowOptions) error {
	f := opts.Factory
	out, st, err := storeOutputContext(opts.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	r, err := st.GetRun(opts.Ctx, opts.RunID)
	if err != nil {
		return runError(err, opts.RunID)
	}
	row := toRunRow(r)
	if out.Structured() {
		return out.WriteValue(row)
	}
	w := f.IO.Out
	fmt.Fprintf(w, "id:        %s\nsession:   %s\nstatus:    %s\n", row.ID, row.SessionID, row.Status)
	if row.ExitCode != nil {
		fmt.Fprintf(w, "exit code: %d\n", *row.ExitCode)
	}
	fmt.Fprintf(w, "started:   %s\n", row.StartedAt.Format(time.RFC3339Nano))
	if row.EndedAt != nil {
		fmt.Fprintf(w, "ended:     %s (%s)\n", row.EndedAt.Format(time.RFC3339Nano), row.EndedAt.Sub(row.StartedAt).Round(time.Millisecond))
	}
	fmt.Fprintf(w, "model:     %s %s (profile %q)\nevents:    %d\n", row.Provider, row.Model, row.Profile, row.Events)
	var res struct {
		Text  string `json:"text"`
		Error *struct {
			Code, Message string
		} `json:"error"`
	}
	if len(row.Result) > 0 && json.Unmarshal(row.Result, &res) == nil {
		if res.Error != nil {
			fmt.Fprintf(w, "error:     %s: %s\n", res.Error.Code, res.Error.Message)
		}
		if res.Text != "" {
			fmt.Fprintf(w, "\n%s\n", res.Text)
		}
	}
	return nil
}

// RunsEventsOptions are the inputs of `tavo runs events`.
type RunsEventsOptions struct {
	Factory       *Factory
	Ctx           context.Context
	RunID         string
	After, Before int64
	// Limit 0 prints every event; a positive one prints a page.
	Limit int
	// Follow keeps printing events as they are journaled until the run ends.
	Follow bool
}

// NewCmdRunsEvents builds `tavo runs events`; runF, when not nil, runs
// instead of runsEventsRun (for tests).
func NewCmdRunsEvents(f *Factory, runF func(*RunsEventsOptions) error) *cobra.Command {
	opts := &RunsEventsOptions{Factory: f}
	c := &cobra.Command{
		Use:   "events RUN",
		Short: "Print a run's events exactly as they were streamed (NDJSON)",
		Long: `Print a run's events exactly as they were streamed, one NDJSON line each.

Without --limit every event is printed (streamed, in constant memory). --limit N
prints one page: the N events after --after-seq, or the N just before
--before-seq; when the page is cut, stderr says how to get the next one.

--follow prints the events as they are journaled, by whichever tavo process runs
the run, and ends after run.completed (or when the run ends without one: its
process died). A finished run is printed whole and the command ends.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.RunID = cmd.Context(), args[0]
			return runOr(runF, runsEventsRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeRuns(f)),
		Example: `  tavo runs events run_01J… | jq -r 'select(.type=="tool.call").payload.name'
  tavo runs events run_01J… --follow --after-seq 12
  tavo runs events run_01J… --after-seq 10 --limit 20
  # exit 1 when the run does not exist (docs/exit-codes.md)`,
	}
	c.Flags().Int64Var(&opts.After, "after-seq", 0, "only events after this seq")
	c.Flags().Int64Var(&opts.Before, "before-seq", 0, "only events before this seq (0: no bound)")
	c.Flags().IntVar(&opts.Limit, "limit", 0, "print one page of at most this many events, 1-500 (default: all)")
	c.Flags().BoolVarP(&opts.Follow, "follow", "f", false, "print events as they are journaled until the run ends")
	return c
}

func runsEventsRun(opts *RunsEventsOptions) error {
	f := opts.Factory
	if opts.Limit != 0 {
		if err := checkLimit(opts.Limit, store.MaxEventPage); err != nil {
			return err
		}
	}
	if opts.Follow && (opts.Limit != 0 || opts.Before != 0) {
		return usageError(errors.New("--follow prints every event to the end: it takes --after-seq, not --limit or --before-seq"))
	}
	// The journal is NDJSON already: that is the pipe default, -o json
	// makes one array of it, text one line per event.
	format := f.Output
	if format == "" && f.JQ != "" {
		format = string(cli.FormatNDJSON) // --jq sees each event, as in a pipe
	}
	out, err := cli.NewOutput(f.IO, format, f.JQ, cli.FormatNDJSON)
	if err != nil {
		return usageError(err)
	}
	ctx := opts.Ctx
	if opts.Follow {
		var stop context.CancelFunc
		ctx, stop = signalContext(ctx)
		defer stop()
	}
	st, err := openStore(ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.GetRun(ctx, opts.RunID); err != nil {
		return runError(err, opts.RunID)
	}
	if opts.Follow && out.Format == cli.FormatJSON {
		return usageError(errors.New("--follow streams events: use -o ndjson (the default in a pipe) or -o text"))
	}
	jq := out.JQ
	// -o json is one array, so its events are gathered first; -o text is a
	// table, one row per event; ndjson (the pipe default) streams.
	var docs []json.RawMessage
	var table *cli.Table
	if out.Format == cli.FormatText {
		table = cli.NewTable(f.IO, "SEQ", "TIME", "TYPE")
	}
	// Lines go out through one buffer, flushed after each read of the
	// journal, so a follower sees each batch at once and a long journal
	// costs few writes.
	w := bufio.NewWriterSize(f.IO.Out, 64<<10)
	print := func(e store.EventRow) error {
		switch {
		case out.Format == cli.FormatJSON:
			docs = append(docs, json.RawMessage(append([]byte(nil), e.Line...)))
			return nil
		case table != nil:
			var ev struct {
				Time string `json:"time"`
			}
			_ = json.Unmarshal(e.Line, &ev)
			table.AddRow(strconv.FormatInt(e.Seq, 10), ev.Time, e.Type)
			if opts.Follow {
				// A follower sees each row as it comes, not at the end.
				if err := table.Render(); err != nil {
					return err
				}
				table = cli.NewTable(f.IO, "SEQ", "TIME", "TYPE")
			}
			return nil
		case jq != nil:
			var v any
			if err := json.Unmarshal(e.Line, &v); err != nil {
				return err
			}
			return jq.Apply(w, v)
		}
		if _, err := w.Write(e.Line); err != nil {
			return err
		}
		return w.WriteByte('\n')
	}
	switch {
	case opts.Follow:
		err = st.FollowEvents(ctx, opts.RunID, opts.After, 0, func(e store.EventRow) error {
			if err := print(e); err != nil {
				return err
			}
			// Flush per event: a follower is waiting for each one.
			return w.Flush()
		})
		if ctx.Err() != nil {
			err = nil // stopped by a signal: what was printed stands
		}
	case opts.Limit == 0:
		_, err = st.ScanEvents(ctx, opts.RunID, opts.After, opts.Before, print)
	default:
		err = printEventPage(ctx, st, opts, print)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	switch {
	case out.Format == cli.FormatJSON:
		return cli.WriteList(out, docs)
	case table != nil && !opts.Follow:
		return table.Render()
	}
	return nil
}

// printEventPage prints one --limit page and says on stderr when there
// is more beyond it in the direction of paging.
func printEventPage(ctx context.Context, st *store.Store, opts *RunsEventsOptions, print func(store.EventRow) error) error {
	f := opts.Factory
	if opts.Before > 0 {
		lines, err := st.Events(ctx, opts.RunID, opts.After, opts.Before, opts.Limit)
		if err != nil {
			return err
		}
		var first int64
		for i, line := range lines {
			var e struct {
				Seq  int64  `json:"seq"`
				Type string `json:"type"`
			}
			_ = json.Unmarshal(line, &e)
			if i == 0 {
				first = e.Seq
			}
			if err := print(store.EventRow{Seq: e.Seq, Type: e.Type, Line: line}); err != nil {
				return err
			}
		}
		if len(lines) == opts.Limit && first > opts.After+1 && !f.Quiet {
			fmt.Fprintf(f.IO.ErrOut, "tavo: page cut at %d events; older: --before-seq %d\n", opts.Limit, first)
		}
		return nil
	}
	n, cut := 0, false
	var last int64
	errFull := errors.New("page full")
	_, err := st.ScanEvents(ctx, opts.RunID, opts.After, 0, func(e store.EventRow) error {
		if n == opts.Limit {
			cut = true
			return errFull
		}
		n++
		last = e.Seq
		return print(e)
	})
	if err != nil && !errors.Is(err, errFull) {
		return err
	}
	if cut && !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "tavo: page cut at %d events; more: --after-seq %d\n", opts.Limit, last)
	}
	return nil
}

// NewCmdRunsResume builds `tavo runs resume`, which runs like `tavo session
// send` on the run's session, from where the run stopped. runF, when not
// nil, runs instead of runRun (for tests).
func NewCmdRunsResume(f *Factory, runF func(*RunOptions) error) *cobra.Command {
	o := &RunOptions{Factory: f}
	c := &cobra.Command{
		Use:   "resume RUN [--answer TEXT | --input ndjson]",
		Short: "Continue a run that ended input_required or interrupted, as a new run",
		Long: `Continue a run, as a new run in the same session whose run.started carries
resumed_from:

  input_required  the question it stopped on is asked again, with the same
                  call_id: --answer TEXT answers it (an option's number, label
                  or value, or free text), --input ndjson lets a driver answer
                  it, else --ask decides as for tavo run. The calls after it
                  in the same round run then, and the model goes on.
  interrupted     its process died; the run goes on from its last complete
                  round (a half round was never stored, so it is never
                  replayed), or from its prompt when no round completed.

Any other run is refused with exit 2 and the reason: one still running, one
that ended another way, one already resumed, or one whose session has had a
run since. The session's stored settings apply, and the flags of tavo run
override them for this run only.

` + runExitCodes,
		Example: `  tavo runs resume run_01J… --answer staging
  tavo runs resume run_01J… --input ndjson < answers.ndjson
  tavo runs resume run_01J…            # an interrupted run`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.ResumeRun, o.Changed = cmd.Context(), args[0], cmd.Flags().Changed
			return runOr(runF, runRun, o)
		},
	}
	addRunFlags(c, o)
	c.Flags().StringVar(&o.Answer, "answer", "", "answer to the question the run stopped on")
	return c
}

// RunsCancelOptions are the inputs of `tavo runs cancel`.
type RunsCancelOptions struct {
	Factory *Factory
	Ctx     context.Context
	RunID   string
}

// NewCmdRunsCancel builds `tavo runs cancel`; runF, when not nil, runs
// instead of runsCancelRun (for tests).
func NewCmdRunsCancel(f *Factory, runF func(*RunsCancelOptions) error) *cobra.Command {
	opts := &RunsCancelOptions{Factory: f}
	return &cobra.Command{
		Use:   "cancel RUN",
		Short: "Cancel a run, also one owned by another tavo process",
		Long: `Ask a running run to stop. The process that owns it sees the request within a
fraction of a second and ends the run with run.completed status cancelled.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.RunID = cmd.Context(), args[0]
			return runOr(runF, runsCancelRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeRuns(f)),
		Example: `  tavo runs cancel run_01J…
  tavo runs list -o json --jq '.runs[] | select(.status=="running") | .id' | xargs -n1 tavo runs cancel
  # exit 1 when the run does not exist or has already ended (docs/exit-codes.md)`,
	}
}

func runsCancelRun(opts *RunsCancelOptions) error {
	st, err := openStore(opts.Ctx, opts.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.RequestCancel(opts.Ctx, opts.RunID); err != nil {
		return runError(err, opts.RunID)
	}
	note(opts.Factory, "asked run %s to stop", opts.RunID)
	return nil
}

// RunsPruneOptions are the inputs of `tavo runs prune`.
type RunsPruneOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Keep is required: KeepSet says whether --keep was given.
	Keep     int
	KeepSet  bool
	KeepFull int
	// KeepFullSet false means every kept run keeps its events.
	KeepFullSet bool
	DryRun      bool
}

// NewCmdRunsPrune builds `tavo runs prune`; runF, when not nil, runs
// instead of runsPruneRun (for tests).
func NewCmdRunsPrune(f *Factory, runF func(*RunsPruneOptions) error) *cobra.Command {
	opts := &RunsPruneOptions{Factory: f}
	c := &cobra.Command{
		Use:   "prune --keep N --keep-full M [--dry-run]",
		Short: "Delete old runs; keep the N newest, the M newest of them with their events",
		Long: `Delete all but the N newest ended runs; of those kept, only the M newest keep
their event journal. Running runs are never touched, and messages stay with
their sessions. --dry-run prints the plan without changing anything.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			opts.KeepSet, opts.KeepFullSet = cmd.Flags().Changed("keep"), cmd.Flags().Changed("keep-full")
			return runOr(runF, runsPruneRun, opts)
		},
		Example: `  tavo runs prune --keep 1000 --keep-full 100 --dry-run
  tavo runs prune --keep 1000 --keep-full 100`,
	}
	c.Flags().IntVar(&opts.Keep, "keep", 0, "runs to keep")
	c.Flags().IntVar(&opts.KeepFull, "keep-full", 0, "of those, how many keep their events (default: all kept)")
	c.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the plan only")
	return c
}

func runsPruneRun(opts *RunsPruneOptions) error {
	f := opts.Factory
	if !opts.KeepSet {
		return usageError(errors.New("--keep N is required (the number of runs to keep)"))
	}
	keepFull := opts.KeepFull
	if !opts.KeepFullSet {
		keepFull = opts.Keep
	}
	out, st, err := storeOutputContext(opts.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	plan, err := st.PlanPrune(opts.Ctx, opts.Keep, keepFull)
	if err != nil {
		return storeError(err)
	}
	if !opts.DryRun {
		if err := st.ApplyPrune(opts.Ctx, plan); err != nil {
			return failedError(err)
		}
	}
	if out.Structured() {
		return out.WriteValue(map[string]any{"dry_run": opts.DryRun, "delete_runs": nonNilStrings(plan.DeleteRuns),
			"drop_events": nonNilStrings(plan.DropEvents), "freed_events": plan.FreedEvents})
	}
	verb := "deleted"
	if opts.DryRun {
		verb = "would delete"
	}
	fmt.Fprintf(f.IO.Out, "%s %d runs and the events of %d more (%d events)\n", verb, len(plan.DeleteRuns), len(plan.DropEvents), plan.FreedEvents)
	return nil
}

// nonNilStrings makes a nil list print as [] in JSON.
func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
