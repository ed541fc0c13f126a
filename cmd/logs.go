package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/store"
)

// NewCmdLogs builds `tavo logs` and its subcommands.
func NewCmdLogs(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "logs",
		Short: "Read and clear the audit log (fetches, searches, tool calls)",
	}
	c.AddCommand(NewCmdLogsList(f, nil), NewCmdLogsClear(f, nil))
	return c
}

// LogsListOptions are the inputs of `tavo logs list`.
type LogsListOptions struct {
	Factory *Factory
	Ctx     context.Context
	Kind    string
	Cursor  string
	Limit   int
}

// NewCmdLogsList builds `tavo logs list`; runF, when not nil, runs instead
// of logsListRun (for tests).
func NewCmdLogsList(f *Factory, runF func(*LogsListOptions) error) *cobra.Command {
	opts := &LogsListOptions{Factory: f}
	c := &cobra.Command{
		Use:   "list",
		Short: "List audit rows, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			return runOr(runF, logsListRun, opts)
		},
		Example: `  tavo logs list --kind search --limit 10
  tavo logs list -o json --jq '.rows[].kind' | sort | uniq -c`,
	}
	c.Flags().StringVar(&opts.Kind, "kind", "", "only fetch, search or tool rows")
	_ = c.RegisterFlagCompletionFunc("kind", completeAuditKinds)
	c.Flags().IntVar(&opts.Limit, "limit", 50, "rows per page, 1-500")
	c.Flags().StringVar(&opts.Cursor, "cursor", "", "continue after a previous page")
	return c
}

func logsListRun(opts *LogsListOptions) error {
	f, kind := opts.Factory, opts.Kind
	if err := checkLimit(opts.Limit, 500); err != nil {
		return err
	}
	if err := checkAuditKind(kind); err != nil {
		return err
	}
	out, st, err := storeOutputContext(opts.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	rows, next, err := st.ListAudit(opts.Ctx, kind, opts.Limit, opts.Cursor)
	if err != nil {
		return storeError(err)
	}
	type row struct {
		ID   int64           `json:"id"`
		Kind string          `json:"kind"`
		Time time.Time       `json:"time"`
		Data json.RawMessage `json:"data"`
	}
	list := make([]row, 0, len(rows))
	for _, r := range rows {
		list = append(list, row{ID: r.ID, Kind: r.Kind, Time: r.Time.UTC(), Data: r.Data})
	}
	if out.Structured() {
		return writePage(f, out, "rows", list, next)
	}
	t := cli.NewTable(f.IO, "TIME", "KIND", "DETAIL")
	for _, r := range list {
		t.AddRow(r.Time.Format(time.RFC3339), r.Kind, clip(string(r.Data), 160))
	}
	if err := t.Render(); err != nil {
		return err
	}
	pageHint(f, next)
	return nil
}

// LogsClearOptions are the inputs of `tavo logs clear`.
type LogsClearOptions struct {
	Factory *Factory
	Ctx     context.Context
	Kind    string
	// OlderThan keeps rows younger than it; OlderThanSet says whether
	// --older-than was given (without it every row of the kind goes).
	OlderThan    time.Duration
	OlderThanSet bool
}

// olderThanRange bounds `logs clear --older-than`: 0 or less would clear
// everything, which a person who typed a duration never means.
var olderThanRange = config.Range[time.Duration]{Flag: "--older-than", Min: time.Second, Max: 100 * 365 * 24 * time.Hour}

// checkAuditKind refuses a --kind other than the kinds tavo writes, so a
// typo never lists or clears nothing and exits 0.
func checkAuditKind(kind string) error {
	switch kind {
	case "", store.AuditFetch, store.AuditSearch, store.AuditTool:
		return nil
	}
	return usageError(fmt.Errorf("invalid --kind %q: want fetch, search or tool", kind))
}

// NewCmdLogsClear builds `tavo logs clear`; runF, when not nil, runs
// instead of logsClearRun (for tests).
func NewCmdLogsClear(f *Factory, runF func(*LogsClearOptions) error) *cobra.Command {
	opts := &LogsClearOptions{Factory: f}
	c := &cobra.Command{
		Use:   "clear",
		Short: "Delete audit rows (all, or of one kind, or older than a duration)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.OlderThanSet = cmd.Context(), cmd.Flags().Changed("older-than")
			return runOr(runF, logsClearRun, opts)
		},
		Example: `  tavo logs clear --older-than 720h
  tavo logs clear --kind fetch`,
	}
	c.Flags().StringVar(&opts.Kind, "kind", "", "only fetch, search or tool rows")
	_ = c.RegisterFlagCompletionFunc("kind", completeAuditKinds)
	c.Flags().DurationVar(&opts.OlderThan, "older-than", 0, "only rows older than this, e.g. 720h")
	return c
}

func logsClearRun(opts *LogsClearOptions) error {
	// Every check comes before the store is touched: a bad flag deletes nothing.
	if err := checkAuditKind(opts.Kind); err != nil {
		return err
	}
	if opts.OlderThanSet {
		if err := checkRange(olderThanRange, opts.OlderThan); err != nil {
			return err
		}
	}
	st, err := openStore(opts.Ctx, opts.Factory)
	if err != nil {
		return err
	}
	defer st.Close()
	var before time.Time
	if opts.OlderThanSet {
		before = time.Now().Add(-opts.OlderThan)
	}
	n, err := st.ClearAudit(opts.Ctx, opts.Kind, before)
	if err != nil {
		return failedError(err)
	}
	note(opts.Factory, "cleared %d audit rows", n)
	return nil
}
