package cmd_test

import (
	"database/sql"
	"path/filepath"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdLoopsDue makes every queued loop firing due now, for testscripts: a
// loop fires at least 10 s apart and tests do not wait for clocks. It moves
// the River job's time only (the firing's own due time, which the worker
// checks against the loop's next_run_at, stays), so the worker sees the
// firing as it would at its time. Test-only: the product has no such way.
//
//	loopsdue
func cmdLoopsDue(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: loopsdue")
	}
	db, err := sql.Open("sqlite", filepath.Join(ts.Getenv("XDG_DATA_HOME"), "tavo", "tavo.db"))
	ts.Check(err)
	defer db.Close()
	past := time.Now().Add(-time.Second).UTC().Format("2006-01-02 15:04:05.000")
	res, err := db.Exec(`UPDATE river_job SET scheduled_at = ? WHERE kind = 'tavo_loop_fire' AND state IN ('scheduled', 'available')`, past)
	ts.Check(err)
	if n, _ := res.RowsAffected(); n == 0 {
		ts.Fatalf("loopsdue: no loop firing is queued")
	}
}
