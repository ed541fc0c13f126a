package postgres_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
	"github.com/tavo-cli/tavo/pkg/store/storetest"
)

// EnvURL names the PostgreSQL server the tests use; without it they skip.
const EnvURL = "TAVO_TEST_POSTGRES"

// serverURL is the test server's URL, or skips t saying how to get one.
func serverURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		t.Skip("PostgreSQL tests skipped: set TAVO_TEST_POSTGRES=postgres://user@host:port/db (.ci/run starts a throwaway server and sets it)")
	}
	return u
}

// schemaURL makes an empty schema for name (dropped after the test) and
// returns the server URL with search_path set to it, so each test gets a
// store of its own in one database.
func schemaURL(t testing.TB, name string) string {
	t.Helper()
	base := serverURL(t)
	sum := sha256.Sum256([]byte(name))
	schema := "t_" + hex.EncodeToString(sum[:8])
	eng, err := postgres.Open(context.Background(), base, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	db := eng.DB()
	exec(t, db, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
	exec(t, db, "CREATE SCHEMA "+schema)
	t.Cleanup(func() {
		eng, err := postgres.Open(context.Background(), base, postgres.Options{})
		if err == nil {
			eng.DB().Exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE")
			eng.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func exec(t testing.TB, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

func openURL(t *testing.T, u string, opts postgres.Options) *store.Store {
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
	return s
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
