// Package pgtest gives tests a PostgreSQL store of their own: an empty
// schema on the server TAVO_TEST_POSTGRES names (scripts/with-postgres.sh
// starts a throwaway one and sets it), dropped when the test ends. Without
// the variable the tests that need it skip with one line saying how to run
// them.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store/postgres"
)

// EnvURL names the PostgreSQL server the tests use.
const EnvURL = "TAVO_TEST_POSTGRES"

// SkipLine is what a skipped test says.
const SkipLine = "PostgreSQL tests skipped: set TAVO_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh starts a throwaway server and sets it)"

// ServerURL is the test server's URL, or skips t.
func ServerURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		t.Skip(SkipLine)
	}
	return u
}

// SchemaURL makes an empty schema for one test (dropped after it) and
// returns the server's URL with search_path naming it, so every test has a
// store of its own in one database; it skips t without a server.
func SchemaURL(t testing.TB, prefix string) string {
	t.Helper()
	u, drop, err := NewSchema(context.Background(), ServerURL(t), prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return u
}

// NewSchema makes an empty schema named prefix_<random> on the server at
// base and returns base with search_path set to it, and the function that
// drops it with everything in it.
func NewSchema(ctx context.Context, base, prefix string) (schemaURL string, drop func(), err error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("pgtest: %s: %w", EnvURL, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := prefix + "_" + hex.EncodeToString(b[:])
	admin, err := postgres.Open(ctx, base, postgres.Options{})
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.DB().ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		return "", nil, err
	}
	drop = func() {
		_, _ = admin.DB().Exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE")
		admin.Close()
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}
