package store

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTitle is the longest session title, in characters (runes).
const MaxTitle = 120

// untitled is the title of a session whose first message has no text.
const untitled = "Untitled"

// AutoTitle makes a session title from the first user message: its first
// non-blank line with runs of whitespace collapsed to one space and control
// characters dropped, cut to MaxTitle characters at a word boundary (or, for
// one long word, a character boundary) ending in "…". It never returns an
// empty string: a text without words gives "Untitled".
func AutoTitle(firstUserText string) string {
	var line string
	for l := range strings.SplitSeq(firstUserText, "\n") {
		if l = clean(l); l != "" {
			line = l
			break
		}
	}
	if line == "" {
		return untitled
	}
	if utf8.RuneCountInString(line) <= MaxTitle {
		return line
	}
	runes := []rune(line)[:MaxTitle-1] // room for "…"
	cut := string(runes)
	// Prefer ending at a word boundary unless that throws away most of it.
	if i := strings.LastIndexByte(cut, ' '); i >= len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRightFunc(cut, unicode.IsSpace) + "…"
}

// clean collapses whitespace and drops control and invalid characters.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// validTitle trims title and checks it is one line of 1–MaxTitle characters.
func validTitle(title string) (string, error) {
	t := strings.TrimSpace(title)
	n := utf8.RuneCountInString(t)
	switch {
	case !utf8.ValidString(t):
		return "", fmt.Errorf("title is not valid UTF-8: %w", ErrInvalid)
	case n == 0:
		return "", fmt.Errorf("title is empty: %w", ErrInvalid)
	case n > MaxTitle:
		return "", fmt.Errorf("title has %d characters, at most %d are allowed: %w", n, MaxTitle, ErrInvalid)
	case strings.IndexFunc(t, unicode.IsControl) >= 0:
		return "", fmt.Errorf("title must be one line without control characters: %w", ErrInvalid)
	}
	return t, nil
}

// maxID is the longest accepted session or run id.
const maxID = 128

// validID checks that id can name a session or run: 1–128 ASCII letters,
// digits, '_', '-' or '.', not starting with '.'. Ids become lock file
// names, so nothing else is accepted.
func validID(kind, id string) error {
	if id == "" {
		return fmt.Errorf("%s id is empty: %w", kind, ErrInvalid)
	}
	if len(id) > maxID || id[0] == '.' {
		return fmt.Errorf("%s id %q is not valid: %w", kind, id, ErrInvalid)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return fmt.Errorf("%s id %q is not valid: %w", kind, id, ErrInvalid)
		}
	}
	return nil
}
