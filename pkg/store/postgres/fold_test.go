package postgres

import (
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// The fold table pairs each letter with the ASCII letter its canonical
// decomposition starts with, the rest being combining marks, and misses
// none of the ranges it covers.
func TestFoldTable(t *testing.T) {
	from, to := []rune(foldFrom), []rune(foldTo)
	if len(from) != len(to) {
		t.Fatalf("%d letters fold to %d", len(from), len(to))
	}
	seen := map[rune]bool{}
	for i, r := range from {
		d := []rune(norm.NFD.String(string(r)))
		if len(d) < 2 || d[0] != to[i] || d[0] > unicode.MaxASCII {
			t.Errorf("%c folds to %c, decomposes to %q", r, to[i], string(d))
		}
		seen[r] = true
	}
	for _, span := range [][2]rune{{0xC0, 0x24F}, {0x1E00, 0x1EFF}} {
		for r := span[0]; r <= span[1]; r++ {
			d := []rune(norm.NFD.String(string(r)))
			if len(d) < 2 || d[0] > unicode.MaxASCII || !unicode.IsLetter(d[0]) {
				continue
			}
			marks := true
			for _, m := range d[1:] {
				marks = marks && unicode.Is(unicode.Mn, m)
			}
			if marks && !seen[r] {
				t.Errorf("%c (U+%04X) is missing", r, r)
			}
		}
	}
	if got := foldDiacritics("Ştefan's CAFÉ, Hà Nội"); got != "Stefan's CAFE, Ha Noi" {
		t.Fatalf("folded %q", got)
	}
	if strings.ContainsRune(foldFrom, '\'') {
		t.Fatal("a quote in the table would end the migration's SQL string")
	}
}
