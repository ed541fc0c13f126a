package cmd_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/store"
	storeopen "github.com/tavo-cli/tavo/pkg/store/open"
	"github.com/tavo-cli/tavo/pkg/store/postgres/pgtest"
)

// TestFleet runs the scripts of testdata/fleet with TAVO_STORE_URL naming
// one PostgreSQL database (a fresh schema per script) that all their tavo
// processes share, as machines of a fleet would (SPEC §15). Without
// TAVO_TEST_POSTGRES it skips.
func TestFleet(t *testing.T) {
	base := pgtest.ServerURL(t)
	fixtures, _ := fake.FixturesDir()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/fleet",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			scriptEnv(env, fixtures)
			u, drop, err := pgtest.NewSchema(context.Background(), base, "fleet")
			if err != nil {
				return err
			}
			env.Defer(drop)
			env.Setenv("TAVO_STORE_URL", u)
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
