package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/store"
)

func newCmdRuns(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "runs",
		Short: "List, inspect, replay, cancel and prune runs",
	}
	c.AddCommand(newCmdRunsList(f), newCmdRunsShow(f), newCmdRunsEvents(f), newCmdRunsCancel(f), newCmdRunsPrune(f))
	return c
}

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

func newCmdRunsList(f *Factory) *cobra.Command {
	var limit int
	var cursor, sessionID string
	c := &cobra.Command{
		Use:   "list",
		Short: "List runs, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLimit(limit, 200); err != nil {
				return err
			}
			out, st, err := storeOutput(cmd, f)
			if err != nil {
				return err
			}
			defer st.Close()
			runs, next, err := st.ListRuns(cmd.Context(), sessionID, limit, cursor)
			if err != nil {
				return cursorError(err)
			}
			rows := make([]runRow, 0, len(runs))
			for i := range runs {
				r := toRunRow(&runs[i])
				r.Result = nil
				rows = append(rows, r)
			}
			if out.Structured() {
				return out.WriteValue(map[string]any{"runs": rows, "next_cursor": next})
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
		},
	}
	c.Flags().IntVar(&limit, "limit", 50, "runs per page, 1-200")
	c.Flags().StringVar(&cursor, "cursor", "", "continue after a previous page")
	c.Flags().StringVar(&sessionID, "session", "", "only the runs of this session")
	return c
}

func runError(err error, id string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return failedError(fmt.Errorf("no run %q (see `tavo runs list`)", id))
	case errors.Is(err, store.ErrNotRunning):
		return failedError(fmt.Errorf("run %q has already ended", id))
	}
	return err
}

func newCmdRunsShow(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "show RUN",
		Short: "Show a run: status, times, model and its run.completed result",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, st, err := storeOutput(cmd, f)
			if err != nil {
				return err
			}
			defer st.Close()
			r, err := st.GetRun(cmd.Context(), args[0])
			if err != nil {
				return runError(err, args[0])
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
		},
	}
}

func newCmdRunsEvents(f *Factory) *cobra.Command {
	var after, before int64
	var limit int
	c := &cobra.Command{
		Use:   "events RUN",
		Short: "Print a run's events exactly as they were streamed (NDJSON)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLimit(limit, 500); err != nil {
				return err
			}
			var jq *cli.JQ
			if f.JQ != "" {
				var err error
				if jq, err = cli.NewJQ(f.JQ); err != nil {
					return usageError(err)
				}
			}
			st, err := openStore(cmd.Context(), f)
			if err != nil {
				return err
			}
			defer st.Close()
			if _, err := st.GetRun(cmd.Context(), args[0]); err != nil {
				return runError(err, args[0])
			}
			lines, err := st.Events(cmd.Context(), args[0], after, before, limit)
			if err != nil {
				return err
			}
			for _, line := range lines {
				if jq != nil {
					var v any
					if err := json.Unmarshal(line, &v); err != nil {
						return err
					}
					if err := jq.Apply(f.IO.Out, v); err != nil {
						return err
					}
					continue
				}
				if _, err := f.IO.Out.Write(withNewline(line)); err != nil {
					return err
				}
			}
			return nil
		},
	}
	c.Flags().Int64Var(&after, "after-seq", 0, "only events after this seq")
	c.Flags().Int64Var(&before, "before-seq", 0, "only events before this seq (0: no bound)")
	c.Flags().IntVar(&limit, "limit", 500, "most events, 1-500")
	return c
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return b
	}
	return append(b, '\n')
}

func newCmdRunsCancel(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "cancel RUN",
		Short: "Cancel a run, also one owned by another tavo process",
		Long: `Ask a running run to stop. The process that owns it sees the request within a
fraction of a second and ends the run with run.completed status cancelled.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(cmd.Context(), f)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := st.RequestCancel(cmd.Context(), args[0]); err != nil {
				return runError(err, args[0])
			}
			note(f, "asked run %s to stop", args[0])
			return nil
		},
	}
}

func newCmdRunsPrune(f *Factory) *cobra.Command {
	var keep, keepFull int
	var dryRun bool
	c := &cobra.Command{
		Use:   "prune --keep N --keep-full M [--dry-run]",
		Short: "Delete old runs; keep the N newest, the M newest of them with their events",
		Long: `Delete all but the N newest ended runs; of those kept, only the M newest keep
their event journal. Running runs are never touched, and messages stay with
their sessions. --dry-run prints the plan without changing anything.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("keep") {
				return usageError(errors.New("--keep N is required (the number of runs to keep)"))
			}
			if !cmd.Flags().Changed("keep-full") {
				keepFull = keep
			}
			out, st, err := storeOutput(cmd, f)
			if err != nil {
				return err
			}
			defer st.Close()
			plan, err := st.PlanPrune(cmd.Context(), keep, keepFull)
			if err != nil {
				if errors.Is(err, store.ErrInvalid) {
					return usageError(err)
				}
				return err
			}
			if !dryRun {
				if err := st.ApplyPrune(cmd.Context(), plan); err != nil {
					return err
				}
			}
			if out.Structured() {
				return out.WriteValue(map[string]any{"dry_run": dryRun, "delete_runs": nonNilStrings(plan.DeleteRuns),
					"drop_events": nonNilStrings(plan.DropEvents), "freed_events": plan.FreedEvents})
			}
			verb := "deleted"
			if dryRun {
				verb = "would delete"
			}
			fmt.Fprintf(f.IO.Out, "%s %d runs and the events of %d more (%d events)\n", verb, len(plan.DeleteRuns), len(plan.DropEvents), plan.FreedEvents)
			return nil
		},
	}
	c.Flags().IntVar(&keep, "keep", 0, "runs to keep")
	c.Flags().IntVar(&keepFull, "keep-full", 0, "of those, how many keep their events (default: all kept)")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "print the plan only")
	return c
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
