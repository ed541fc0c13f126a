package cmd

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
)

func newCmdLogs(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "logs",
		Short: "Read and clear the audit log (fetches, searches, tool calls)",
	}
	c.AddCommand(newCmdLogsList(f), newCmdLogsClear(f))
	return c
}

func newCmdLogsList(f *Factory) *cobra.Command {
	var kind, cursor string
	var limit int
	c := &cobra.Command{
		Use:   "list",
		Short: "List audit rows, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLimit(limit, 500); err != nil {
				return err
			}
			if kind != "" && kind != "fetch" && kind != "search" && kind != "tool" {
				return usageError(fmt.Errorf("invalid --kind %q: want fetch, search or tool", kind))
			}
			out, st, err := storeOutput(cmd, f)
			if err != nil {
				return err
			}
			defer st.Close()
			rows, next, err := st.ListAudit(cmd.Context(), kind, limit, cursor)
			if err != nil {
				return cursorError(err)
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
				return out.WriteValue(map[string]any{"rows": list, "next_cursor": next})
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
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "only fetch, search or tool rows")
	c.Flags().IntVar(&limit, "limit", 50, "rows per page, 1-500")
	c.Flags().StringVar(&cursor, "cursor", "", "continue after a previous page")
	return c
}

func newCmdLogsClear(f *Factory) *cobra.Command {
	var kind string
	var older time.Duration
	c := &cobra.Command{
		Use:   "clear",
		Short: "Delete audit rows (all, or of one kind, or older than a duration)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(cmd.Context(), f)
			if err != nil {
				return err
			}
			defer st.Close()
			var before time.Time
			if older > 0 {
				before = time.Now().Add(-older)
			}
			n, err := st.ClearAudit(cmd.Context(), kind, before)
			if err != nil {
				return err
			}
			note(f, "cleared %d audit rows", n)
			return nil
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "only fetch, search or tool rows")
	c.Flags().DurationVar(&older, "older-than", 0, "only rows older than this, e.g. 720h")
	return c
}
