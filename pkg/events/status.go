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
	ExitInterrupted   = 130
	ExitTerminated    = 143
)

// ExitCodeFor returns the exit code of a run that ended with status. A
// cancelled run gets ExitInterrupted (the runner uses ExitTerminated instead
// when SIGTERM cancelled it). An unknown status gets ExitFailed, so a run
// never exits 0 by mistake.
func ExitCodeFor(status string) int {
	switch status {
	case StatusCompleted:
		return ExitOK
	case StatusMaxRounds, StatusMaxToolCalls, StatusTimeout:
		return ExitLimit
	case StatusInputRequired:
		return ExitInputRequired
	case StatusCancelled:
		return ExitInterrupted
	default:
		return ExitFailed
	}
}
