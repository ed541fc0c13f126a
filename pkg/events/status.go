package events

// Statuses of run.completed.
const (
	StatusCompleted     = "completed"
	StatusMaxRounds     = "max_rounds"
	StatusMaxToolCalls  = "max_tool_calls"
	StatusTimeout       = "timeout"
	StatusCancelled     = "cancelled"
	StatusInputRequired = "input_required"
	StatusFailed        = "failed"
	// StatusWaiting is a run whose last turn ended with tavo_wait: it
	// completed, and run.completed's wake_at says when a worker wakes the
	// session again (SPEC §14). Exit 0.
	StatusWaiting = "waiting"
	// StatusGoalExhausted is a run whose goal used its max_turns without
	// being met (SPEC §14). Exit 3, like the other limits.
	StatusGoalExhausted = "goal_exhausted"
	// StatusInterrupted is a run stopped from outside before it could end
	// on its own, and resumable like a run whose process died (the store's
	// "interrupted"): a `tavo worker` run still going when the worker's
	// --grace passed. Exit 130.
	StatusInterrupted = "interrupted"
)

// Process exit codes (SPEC §1). run.completed's exit_code is one of them and
// equals the code the process exits with.
const (
	ExitOK            = 0
	ExitFailed        = 1
	ExitUsage         = 2
	ExitLimit         = 3
	ExitSession       = 4
	ExitInputRequired = 5
	// ExitHangup is a run stopped by SIGHUP (its terminal closed, an ssh
	// session dropped): 128+1, as a shell reports a process the signal
	// killed.
	ExitHangup      = 129
	ExitInterrupted = 130
	// ExitClosedPipe is a command whose standard output was a pipe whose
	// reader went away (`tavo run … | head -1`): 128+13, the status of a
	// process killed by SIGPIPE, so `set -o pipefail` sees what it expects.
	ExitClosedPipe = 141
	ExitTerminated = 143
)

// ExitCodeFor returns the exit code of a run that ended with status. A
// cancelled run gets ExitInterrupted (the runner uses the StopCause's code
// instead: ExitTerminated for SIGTERM, ExitHangup for SIGHUP,
// ExitClosedPipe when stdout was closed). An unknown status gets ExitFailed, so a run
// never exits 0 by mistake.
func ExitCodeFor(status string) int {
	switch status {
	case StatusCompleted, StatusWaiting:
		return ExitOK
	case StatusMaxRounds, StatusMaxToolCalls, StatusTimeout, StatusGoalExhausted:
		return ExitLimit
	case StatusInputRequired:
		return ExitInputRequired
	case StatusCancelled, StatusInterrupted:
		return ExitInterrupted
	default:
		return ExitFailed
	}
}
