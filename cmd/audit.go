package cmd

import (
	"context"
	"encoding/json"
	"time"

	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/store"
)

// storeAudit writes fetch and search audit rows to the Factory's store,
// which opens on the first row only, so commands that audit nothing (tavo
// tools list) never pay for opening the database.
type storeAudit struct {
	f *Factory
}

// open returns the process's store, opening it on first use.
func (a *storeAudit) open(ctx context.Context) (*store.Store, error) {
	return a.f.Store(ctx)
}

// RecordFetch implements fetch.Auditor.
func (a *storeAudit) RecordFetch(ctx context.Context, rec fetch.AuditRecord) error {
	st, err := a.open(ctx)
	if err != nil {
		return err
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	at := rec.Time
	if at.IsZero() {
		at = time.Now()
	}
	return st.RecordAudit(ctx, "fetch", at.UTC(), data)
}

// RecordSearch implements search.Auditor.
func (a *storeAudit) RecordSearch(ctx context.Context, rec search.SearchRecord) error {
	st, err := a.open(ctx)
	if err != nil {
		return err
	}
	return st.RecordSearch(ctx, rec)
}

// auditLog is the process's audit writer.
func (f *Factory) auditLog() *storeAudit {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.audit == nil {
		f.audit = &storeAudit{f: f}
	}
	return f.audit
}
