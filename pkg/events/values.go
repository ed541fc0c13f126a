package events

// Values of the enumerated payload fields. The schema accepts exactly these.
const (
	// AskAnswered and AskCancelled are AskAnswerP.Status values.
	AskAnswered  = "answered"
	AskCancelled = "cancelled"

	// SourceOption and SourceCustom are AskAnswerP.Source values: an offered
	// option was picked, or the person wrote their own answer.
	SourceOption = "option"
	SourceCustom = "custom"

	// DecisionAllow and DecisionDeny are ConfirmResultP.Decision values.
	DecisionAllow = "allow"
	DecisionDeny  = "deny"

	// TodoPending, TodoInProgress and TodoCompleted are Todo.Status values.
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

// Via values say where an answer or a decision came from.
const (
	// ViaTerminal: a person at the controlling terminal.
	ViaTerminal = "terminal"
	// ViaStdin: a line read from standard input (--ask stdin).
	ViaStdin = "stdin"
	// ViaDriver: a driving program over --input ndjson.
	ViaDriver = "driver"
	// ViaFlag: decided by a flag without asking (--yes allows; only in
	// confirm.result).
	ViaFlag = "flag"
	// ViaNone: nobody could be asked (--ask cancel, no terminal); the answer
	// is cancelled or the decision is deny.
	ViaNone = "none"
)
