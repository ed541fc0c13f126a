package postgres_test

import (
	"context"
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
	"github.com/tavo-cli/tavo/pkg/store/postgres/pgtest"
	"github.com/tavo-cli/tavo/pkg/store/storetest"
)

// serverURL is the test server's URL, or skips t saying how to get one.
func serverURL(t testing.TB) string { return pgtest.ServerURL(t) }

// schemaURL gives one test an empty schema of its own (pgtest.SchemaURL).
func schemaURL(t testing.TB, _ string) string { return pgtest.SchemaURL(t, "t") }

func openURL(t *testing.T, u string, opts postgres.Options) *store.Store {
	t.Helper()
	_, s := openEngineURL(t, u, opts)
	return s
}

// openEngineURL opens a store on the PostgreSQL schema at u and returns its
// engine too; the store is closed when the test ends.
func openEngineURL(t *testing.T, u string, opts postgres.Options) (*postgres.Engine, *store.Store) {
	t.Helper()
	eng, err := postgres.Open(context.Background(), u, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.OpenEngine(context.Background(), t.TempDir(), eng)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return eng, s
}

func TestConformance(t *testing.T) {
	serverURL(t)
	urlOf := perTestSchema()
	storetest.Run(t, func(t *testing.T, key string) *store.Store {
		u := urlOf(t)
		s := openURL(t, u, postgres.Options{})
		if s.Engine() != "postgres" {
			t.Fatalf("engine %q", s.Engine())
		}
		return s
	})
}

// perTestSchema returns a function giving each test its own schema's URL,
// the same one for every call within that test (two handles on one store).
func perTestSchema() func(t *testing.T) string {
	var mu sync.Mutex
	urls := map[*testing.T]string{}
	return func(t *testing.T) string {
		mu.Lock()
		defer mu.Unlock()
		if urls[t] == "" {
			urls[t] = schemaURL(t, t.Name())
		}
		return urls[t]
	}
}
