package cmd_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
)

// TestFleet runs the scripts of testdata/fleet with TAVO_STORE_URL naming
// one PostgreSQL database (a fresh schema per script) that all their tavo
// processes share, as machines of a fleet would (SPEC §15). Without
// TAVO_TEST_POSTGRES it skips.
func TestFleet(t *testing.T) {
	base := os.Getenv("TAVO_TEST_POSTGRES")
	if base == "" {
		t.Skip("fleet tests skipped: set TAVO_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh starts a throwaway server and sets it)")
	}
	admin, err := postgres.Open(context.Background(), base, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	fixtures, _ := fake.FixturesDir()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/fleet",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, "config"))
			env.Setenv("XDG_DATA_HOME", filepath.Join(env.WorkDir, "data"))
			env.Setenv("TAVO_PROVIDER_FIXTURES", fixtures)
			env.Values[fakeKey{}] = new(*fake.Server)
			env.Values[searchKey{}] = map[string]searchFake{}
			var b [6]byte
			_, _ = rand.Read(b[:])
			schema := "fleet_" + hex.EncodeToString(b[:])
			if _, err := admin.DB().Exec("CREATE SCHEMA " + schema); err != nil {
				return err
			}
			env.Defer(func() { admin.DB().Exec("DROP SCHEMA " + schema + " CASCADE") })
			u, err := url.Parse(base)
			if err != nil {
				return err
			}
			q := u.Query()
			q.Set("search_path", schema)
			u.RawQuery = q.Encode()
			env.Setenv("TAVO_STORE_URL", u.String())
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fake":         cmdFake,
			"checkevents":  cmdCheckEvents,
			"waitrequests": cmdWaitRequests,
		},
	})
}
