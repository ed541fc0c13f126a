package state

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Memory limits. Memory is injected into the system prompt of every run
// while it is enabled, so it is kept small: the whole of it fits in one tool
// result (64 KiB) and costs at most a few thousand tokens a request.
const (
	// MaxMemoryItems is the most notes memory holds.
	MaxMemoryItems = 200
	// MaxMemoryItemChars is the longest note, in characters (runes).
	MaxMemoryItemChars = 2000
	// MaxMemoryBytes is the most text all notes hold together, in UTF-8
	// bytes.
	MaxMemoryBytes = 32 << 10
)

// MemoryError is a memory write that breaks a rule: one item (Index ≥ 0)
// is blank, not UTF-8 or too long, or the memory as a whole would be too
// large (Index -1, TooLarge).
type MemoryError struct {
	// Index is the offending item, counted from 0 in the list given, or -1.
	Index int
	// TooLarge is set when a size limit, Limit, was exceeded.
	TooLarge bool
	Limit    int
	// Unit names what Limit counts: "characters", "items" or "bytes".
	Unit string
	Msg  string
}

func (e *MemoryError) Error() string { return e.Msg }

// CleanMemoryItems trims every item and checks it: non-blank, valid UTF-8,
// at most MaxMemoryItemChars characters. It returns the trimmed items or a
// *MemoryError naming the first bad one (numbered from 1 in the message).
func CleanMemoryItems(items []string) ([]string, error) {
	out := make([]string, len(items))
	for i, it := range items {
		it = strings.TrimSpace(it)
		switch {
		case !utf8.ValidString(it):
			return nil, &MemoryError{Index: i, Msg: fmt.Sprintf("memory item %d is not valid UTF-8 text", i+1)}
		case it == "":
			return nil, &MemoryError{Index: i, Msg: fmt.Sprintf("memory item %d is empty; every note needs some text", i+1)}
		}
		if n := utf8.RuneCountInString(it); n > MaxMemoryItemChars {
			return nil, &MemoryError{Index: i, TooLarge: true, Limit: MaxMemoryItemChars, Unit: "characters",
				Msg: fmt.Sprintf("memory item %d is %d characters long; a note holds at most %d", i+1, n, MaxMemoryItemChars)}
		}
		out[i] = it
	}
	return out, nil
}

// CheckMemorySize checks the memory a write would leave: at most
// MaxMemoryItems notes and MaxMemoryBytes of text.
func CheckMemorySize(items []string) error {
	if len(items) > MaxMemoryItems {
		return &MemoryError{Index: -1, TooLarge: true, Limit: MaxMemoryItems, Unit: "items",
			Msg: fmt.Sprintf("memory would hold %d notes; it holds at most %d, so merge or remove some first", len(items), MaxMemoryItems)}
	}
	total := 0
	for _, it := range items {
		total += len(it)
	}
	if total > MaxMemoryBytes {
		return &MemoryError{Index: -1, TooLarge: true, Limit: MaxMemoryBytes, Unit: "bytes",
			Msg: fmt.Sprintf("memory would hold %d bytes of text; it holds at most %d (32 KiB), so shorten, merge or remove notes first", total, MaxMemoryBytes)}
	}
	return nil
}
