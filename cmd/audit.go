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
	f    *Factory
	once sync.Once
	st   *store.Store
	err  error
}

func (a *storeAudit) open(ctx context.Context) (*store.Store, error) {
	a.once.Do(func() {
		a.st, a.err = store.Open(ctx, a.f.DataDirectory())
		if a.err == nil {
			a.f.onExit(func() { a.st.Close() })
		}
	})
	return a.st, a.err
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
