package resources

import (
	"unicode/utf8"
)

// The text budget of SPEC §11: what one read shows the model, body and
// continuation note together.
const (
	// MaxLines is the most lines one page holds.
	MaxLines = 2000
	// MaxUnits is the most UTF-16 code units one page holds.
	MaxUnits = 30000
	// MaxBytes is the most UTF-8 bytes one page holds, whatever its units.
	MaxBytes = 64 << 10
)

// Budget bounds one page.
type Budget struct {
	Lines, Units, Bytes int
}

// DefaultBudget is the budget of SPEC §11.
func DefaultBudget() Budget { return Budget{Lines: MaxLines, Units: MaxUnits, Bytes: MaxBytes} }

// Less is b with room kept for a note of n bytes (a continue URL and the
// JSON around it): the note counts against the page.
func (b Budget) Less(n int) Budget {
	b.Units -= n
	b.Bytes -= n
	// A page always has room for one character, so reading always moves on.
	b.Units = max(b.Units, 2)
	b.Bytes = max(b.Bytes, 4)
	return b
}

// Fits reports whether s, shown whole, keeps to b. An invalid byte counts
// as the U+FFFD it is shown as.
func (b Budget) Fits(s string) bool {
	if len(s) <= b.Units && len(s) <= b.Bytes && len(s) < b.Lines {
		return true // even all newlines or all ASCII cannot pass
	}
	units, bytes, lines := 0, 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			units++
			bytes++
			if c == '\n' {
				lines++
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			u, n := runeCost(r, size)
			units += u
			bytes += n
			i += size
		}
		if units > b.Units || bytes > b.Bytes {
			return false
		}
	}
	// A last line without "\n" is a line too.
	if len(s) > 0 && s[len(s)-1] != '\n' {
		lines++
	}
	return lines <= b.Lines
}

// runeCost is what one decoded rune costs: UTF-16 units and shown bytes. An
// invalid byte (RuneError of size 1) is shown as U+FFFD: 1 unit, 3 bytes.
func runeCost(r rune, size int) (units, bytes int) {
	if r == utf8.RuneError && size == 1 {
		return 1, 3
	}
	if r >= 0x10000 {
		return 2, size
	}
	return 1, size
}

// UTF16Len is the length of s in UTF-16 code units (an invalid byte counts
// one, as the U+FFFD it becomes).
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		u, _ := runeCost(r, size)
		n += u
		i += size
	}
	return n
}
