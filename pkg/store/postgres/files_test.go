package postgres_test

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
	"github.com/tavo-cli/tavo/pkg/store/storetest"
)

// TestFilesConformance: the file store with its files in PostgreSQL.
func TestFilesConformance(t *testing.T) {
	serverURL(t)
	var mu sync.Mutex
	urls := map[*testing.T]string{}
	storetest.RunFiles(t, func(t *testing.T) *files.Store {
		mu.Lock()
		u, ok := urls[t]
		if !ok {
			u = schemaURL(t, t.Name())
			urls[t] = u
		}
		mu.Unlock()
		s := openURL(t, u, postgres.Options{})
		db := s.SharedDB()
		if db == nil {
			t.Fatal("a PostgreSQL store has no shared database")
		}
		return files.OpenWith(t.TempDir(), func(context.Context) (*sql.DB, error) { return db, nil })
	})
}
