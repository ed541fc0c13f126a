package codemode

import "fmt"

// Error codes a program can end with (SPEC §12).
const (
	// CodeError is a syntax error, an uncaught exception, or a return value
	// that is not JSON; Details carry line and column when known.
	CodeError = "code_error"
	// CodeLimitExceeded is a program over its memory, call or stack limit.
	CodeLimitExceeded = "limit_exceeded"
	// CodeTimeout is a program stopped by its context's deadline.
	CodeTimeout = "timeout"
	// CodeCancelled is a program stopped by its context's cancellation.
	CodeCancelled = "cancelled"
)

// Error is how a program failed, or how a tool call failed inside it (a
// CallFunc returns one to throw an Error with code, message and details in
// the program).
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...)}
}
