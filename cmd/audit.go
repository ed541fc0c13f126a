package cmd

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/store"
)

// storeAudit writes fetch and search audit rows to the store, opening it on
// the first row only, so commands that audit nothing (tavo tools list) never
// pay for opening the database.
type storeAudit struct {
	f  *Factory
	mu sync.Mutex
	st *store.Store
}

// open opens the store on first use; a failure is retried on the next call
// (it may have been a cancelled context).
func (a *storeAudit) open(ctx context.Context) (*store.Store, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st != nil {
		return a.st, nil
	}
	st, err := store.Open(ctx, a.f.DataDirectory())
	if err != nil {
		return nil, err
	}
	a.st = st
	a.f.onExit(func() { st.Close() })
	return st, nil
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
	if f.audit == nil {
		f.audit = &storeAudit{f: f}
	}
	return f.audit
}
