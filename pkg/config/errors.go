package config

import "fmt"

// Error is a configuration error: a file that does not parse or validate, an
// unknown profile, a missing key or model. The CLI exits 2 on these. Msg is
// one complete, actionable line and never contains a key.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string {
	if e.Msg == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Msg
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

func errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}
