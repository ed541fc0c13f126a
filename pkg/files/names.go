package files

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// MaxNameBytes is the longest file name, in bytes: the limit of common
// file systems, checked here so the failure reads well.
const MaxNameBytes = 255

// MaxSessionBytes is the longest session ID the store accepts.
const MaxSessionBytes = 128

// nameExpected is the rule of a name, as invalid-argument errors state it.
const nameExpected = "one file name: no '/', '\\', ':', NUL or control characters, not '.' or '..', at most 255 bytes"

// CheckName reports whether name is one valid file name (SPEC §5): not
// empty, not "." or "..", no path separator ('/' or '\'), colon, NUL or
// other control character, valid UTF-8 and at most MaxNameBytes long.
// Backslash and colon are refused on every system so that a name means the
// same file everywhere. The error is a KindInvalid *Error for field "name".
func CheckName(name string) error {
	bad := func(why string) error {
		return invalid("name", nameExpected, fmt.Sprintf("invalid file name %s: %s", quote(name), why))
	}
	switch {
	case name == "":
		return invalid("name", nameExpected, "the file name is empty")
	case name == "." || name == "..":
		return bad("'.' and '..' are folder references, not file names")
	case len(name) > MaxNameBytes:
		return bad(fmt.Sprintf("it is %d bytes long; the limit is %d", len(name), MaxNameBytes))
	case !utf8.ValidString(name):
		return bad("it is not valid UTF-8")
	}
	for _, r := range name {
		switch {
		case r == '/' || r == '\\':
			return bad("a name cannot contain a path separator; files live in one flat folder per scope")
		case r == ':':
			return bad("a name cannot contain a colon")
		case r == 0:
			return bad("a name cannot contain NUL")
		case unicode.IsControl(r):
			return bad("a name cannot contain control characters")
		}
	}
	return nil
}

// CheckSession reports whether id can name a session's file folder:
// 1–128 ASCII letters, digits, '_' or '-'. tavo's own IDs (ses_01J…) always
// pass; anything that could escape the sessions folder never does.
func CheckSession(id string) error {
	const expected = "a session ID of 1-128 letters, digits, '_' or '-'"
	if id == "" {
		return invalid("session", expected, "no session given: the chat scope belongs to a session")
	}
	if len(id) > MaxSessionBytes {
		return invalid("session", expected, fmt.Sprintf("invalid session ID: %d bytes long, the limit is %d", len(id), MaxSessionBytes))
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return invalid("session", expected, fmt.Sprintf("invalid session ID %s: only letters, digits, '_' and '-' are allowed", quote(id)))
		}
	}
	return nil
}

// quote renders a user-supplied string for a one-line message: quoted, with
// control characters escaped, and cut when long.
func quote(s string) string {
	const max = 80
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}
