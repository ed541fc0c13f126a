package cmd

import (
	"context"
	"fmt"

	"github.com/tavo-cli/tavo/pkg/store"
)

// applyRetention applies the config's [retention] section to a store just
// opened for writing: at most once a day and within store.RetentionBudget
// (store.ApplyRetention). A config that cannot be read, or a failed pass,
// never stops the command: the pass is retried by a later one, and its
// trouble is a warning on stderr.
func applyRetention(ctx context.Context, f *Factory, st *store.Store) {
	if st.ReadOnly() {
		return // nothing can be removed; the writable case will do it
	}
	cfg, err := f.Config()
	if err != nil || cfg.Retention.IsZero() {
		return
	}
	r := store.Retention{RunsOlderThan: cfg.Retention.RunsAge(), KeepFull: cfg.Retention.KeepFull, AuditOlderThan: cfg.Retention.AuditAge()}
	rep, err := st.ApplyRetention(ctx, r, false)
	if err != nil {
		warn(f, "retention_failed", fmt.Sprintf("applying [retention]: %v", err))
		return
	}
	if f.Verbose && !rep.Skipped {
		fmt.Fprintf(f.IO.ErrOut, "tavo: retention: removed %d runs, %d journals, %d audit rows\n", rep.DeletedRuns, rep.DroppedEvents, rep.DeletedAudit)
	}
}
