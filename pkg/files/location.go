package files

import "fmt"

// Scope names a set of files.
type Scope string

// The scopes of SPEC §5.
const (
	// ScopeChat holds one session's files.
	ScopeChat Scope = "chat"
	// ScopeGlobal holds files shared by every session.
	ScopeGlobal Scope = "global"
)

// ParseScope checks a scope name; "" is chat, the default of the tools.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case "", ScopeChat:
		return ScopeChat, nil
	case ScopeGlobal:
		return ScopeGlobal, nil
	}
	return "", invalid("scope", "chat or global", fmt.Sprintf("unknown scope %s: use chat or global", quote(s)))
}

// Location is one folder of files: the global scope, or the chat scope of
// one session. The zero value is not valid; use Chat, Global or NewLocation.
type Location struct {
	Scope Scope
	// Session is the session whose chat files these are; empty for global.
	Session string
}

// Chat is the chat scope of session id (checked when used).
func Chat(session string) Location { return Location{Scope: ScopeChat, Session: session} }

// Global is the global scope.
func Global() Location { return Location{Scope: ScopeGlobal} }

// NewLocation checks scope and, for the chat scope, the session ID, and
// returns the location. A session given with the global scope is ignored.
func NewLocation(scope Scope, session string) (Location, error) {
	switch scope {
	case ScopeGlobal:
		return Global(), nil
	case ScopeChat:
		if err := CheckSession(session); err != nil {
			return Location{}, err
		}
		return Chat(session), nil
	}
	_, err := ParseScope(string(scope))
	return Location{}, err
}

// check validates l as NewLocation does.
func (l Location) check() error {
	_, err := NewLocation(l.Scope, l.Session)
	return err
}

// String is the location as paths start with: "chat" or "global".
func (l Location) String() string { return string(l.Scope) }

// Path is the logical path of the file name in l, as users and models see
// it: "chat/report.md" or "global/notes.txt", never a place on disk.
func (l Location) Path(name string) string { return string(l.Scope) + "/" + name }
