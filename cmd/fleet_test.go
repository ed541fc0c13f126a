package cmd_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/store"
	storeopen "github.com/tavo-cli/tavo/pkg/store/open"
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
			scriptEnv(env, fixtures)
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
			"requests":     cmdRequests,
			"mkloops":      cmdMkLoops,
			"sqlcount":     cmdSQLCount,
		},
	})
}

// fleetStore opens the script's shared store (TAVO_STORE_URL).
func fleetStore(ts *testscript.TestScript) *store.Store {
	st, err := storeopen.Open(context.Background(), ts.Getenv("TAVO_STORE_URL"), ts.MkAbs("mkloops-data"))
	ts.Check(err)
	return st
}

// cmdMkLoops makes N sessions with one loop each (max-turns 1, every 10 s,
// run with the openai provider and gpt-4.1), all due now: what N
// `tavo loops create` would make once 10 s passed, without the wait.
//
//	mkloops N
func cmdMkLoops(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkloops N")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	st := fleetStore(ts)
	defer st.Close()
	ctx := context.Background()
	due := time.Now().Add(-time.Second).UnixNano()
	for i := range n {
		sid := fmt.Sprintf("ses_fleet%04d%s", i, ts.Getenv("MKLOOPS_TAG"))
		_, err := st.CreateSession(ctx, sid, "fleet")
		ts.Check(err)
		l, err := st.CreateLoop(ctx, store.NewLoop{SessionID: sid, Prompt: "ping", Interval: 10 * time.Second, MaxTurns: 1,
			Config: []byte(`{"provider":"openai","model":"gpt-4.1"}`)})
		ts.Check(err)
		// Only the new loops: one being fired keeps its due time.
		_, err = st.SharedDB().Exec(`UPDATE loops SET next_run_at = ? WHERE id = ?`, due, l.ID)
		ts.Check(err)
	}
}

// cmdSQLCount runs a query of one integer against the shared store and
// compares it with WANT.
//
//	sqlcount WANT 'SELECT count(*) FROM …'
func cmdSQLCount(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: sqlcount WANT QUERY")
	}
	st := fleetStore(ts)
	defer st.Close()
	var got int64
	ts.Check(st.SharedDB().QueryRow(args[1]).Scan(&got))
	if ok := strconv.FormatInt(got, 10) == args[0]; ok == neg {
		ts.Fatalf("%s: %d, want %s%s", args[1], got, map[bool]string{true: "not ", false: ""}[neg], args[0])
	}
}
