package store_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/storetest"
)

// TestConformance runs the engine conformance suite on the embedded SQLite
// engine; package store/postgres runs it on PostgreSQL.
func TestConformance(t *testing.T) {
	var mu sync.Mutex
	dirs := map[*testing.T]string{}
	storetest.Run(t, func(t *testing.T, key string) *store.Store {
		mu.Lock()
		base, ok := dirs[t]
		if !ok {
			base = t.TempDir()
			dirs[t] = base
		}
		mu.Unlock()
		s, err := store.Open(context.Background(), filepath.Join(base, "data"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if s.Engine() != "sqlite" {
			t.Fatalf("engine %q", s.Engine())
		}
		return s
	})
}
