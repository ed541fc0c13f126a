package files

import "errors"

// Kind classifies a store failure so that callers (the tools, the commands)
// can map it onto their own codes without parsing messages.
type Kind string

// The kinds of *Error.
const (
	// KindInvalid is a bad argument: a name, scope, session, encoding,
	// content, cursor or limit the store refuses.
	KindInvalid Kind = "invalid"
	// KindNotFound is a file that does not exist in the scope.
	KindNotFound Kind = "not_found"
	// KindTooLarge is content or a file over the store's size limit.
	KindTooLarge Kind = "too_large"
)

// Sentinels for errors.Is: an *Error matches the one of its Kind.
var (
	ErrInvalid  = errors.New("invalid argument")
	ErrNotFound = errors.New("file not found")
	ErrTooLarge = errors.New("file too large")
)

// Error is a failure the caller caused and can fix. Its message is one line
// that names files by their logical path ("chat/a.txt"), never by where they
// lie on disk, so it is safe to show to a model.
type Error struct {
	Kind Kind
	// Field is the argument the error is about: "name", "content",
	// "encoding", "scope", "session", "cursor" or "limit"; empty when none.
	Field string
	// Expected says what would have been accepted, for KindInvalid.
	Expected string
	// Limit is the size limit in bytes, for KindTooLarge.
	Limit int64
	Msg   string
}

func (e *Error) Error() string { return e.Msg }

// Is makes errors.Is(err, ErrNotFound) and friends work.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrInvalid:
		return e.Kind == KindInvalid
	case ErrNotFound:
		return e.Kind == KindNotFound
	case ErrTooLarge:
		return e.Kind == KindTooLarge
	}
	return false
}

// invalid builds a KindInvalid error.
func invalid(field, expected, msg string) *Error {
	return &Error{Kind: KindInvalid, Field: field, Expected: expected, Msg: msg}
}
