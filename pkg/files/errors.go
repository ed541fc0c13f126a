package files

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

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
	// KindUnavailable is a store whose folder cannot be written or read:
	// a full disk, a read-only file system, missing permissions, an I/O
	// error. The message says which, without the folder's place on disk.
	KindUnavailable Kind = "unavailable"
)

// Sentinels for errors.Is: an *Error matches the one of its Kind.
var (
	ErrInvalid  = errors.New("invalid argument")
	ErrNotFound = errors.New("file not found")
	ErrTooLarge = errors.New("file too large")
	// ErrUnavailable matches KindUnavailable.
	ErrUnavailable = errors.New("file store unavailable")
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
	// Err is the system's error behind a KindUnavailable, which names the
	// place on disk: for people and errors.Is (a command may show it), and
	// never part of Error().
	Err error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the system's error behind a KindUnavailable, or nil.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrNotFound) and friends work.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrInvalid:
		return e.Kind == KindInvalid
	case ErrNotFound:
		return e.Kind == KindNotFound
	case ErrTooLarge:
		return e.Kind == KindTooLarge
	case ErrUnavailable:
		return e.Kind == KindUnavailable
	}
	return false
}

// invalid builds a KindInvalid error.
func invalid(field, expected, msg string) *Error {
	return &Error{Kind: KindInvalid, Field: field, Expected: expected, Msg: msg}
}

// unavailable is the error of a failed read or write of the store's
// folder: "saving chat/a.txt: the file store cannot be written (disk
// full)". doing names the file by its logical path; err (which names the
// physical one) is kept behind Unwrap only.
func unavailable(doing string, write bool, err error) *Error {
	verb := "read"
	if write {
		verb = "written"
	}
	return &Error{Kind: KindUnavailable, Err: err,
		Msg: fmt.Sprintf("%s: the file store cannot be %s (%s)", doing, verb, systemReason(err))}
}

// systemReason is why a file operation failed, in a few words and without
// any path: the system error's own text, or plainer words for the usual
// cases.
func systemReason(err error) string {
	var errno syscall.Errno
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "disk full"
	case errors.Is(err, syscall.EROFS):
		return "read-only file system"
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EPERM):
		return "permission denied"
	case errors.Is(err, syscall.EFBIG):
		return "file too large for the file system"
	case errors.As(err, &errno):
		return errno.Error()
	}
	return "unexpected error"
}
