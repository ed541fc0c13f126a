package resources

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// readAll pages through s with budget b and returns the pages.
func readAll(t testing.TB, p *Pager, s string, sel Selector, b Budget) []Page {
	t.Helper()
	r, size := TextSource(s)
	var pages []Page
	var offset int64
	for i := 0; ; i++ {
		pg, err := p.Page(r, size, "k", sel, offset, b)
		if err != nil {
			t.Fatalf("page %d at offset %d: %v", i, offset, err)
		}
		pages = append(pages, pg)
		if !pg.More {
			return pages
		}
		if pg.Next.Units <= offset {
			t.Fatalf("page %d made no progress at offset %d", i, offset)
		}
		offset = pg.Next.Units
	}
}

// checkPages holds the invariants of the budget cutter.
func checkPages(t testing.TB, s string, pages []Page, b Budget) {
	t.Helper()
	var all strings.Builder
	for i, pg := range pages {
		all.WriteString(pg.Text)
		if !b.Fits(pg.Text) {
			t.Fatalf("page %d passes the budget %+v: %d units, %d bytes", i, b, UTF16Len(pg.Text), len(pg.Text))
		}
		if utf8.ValidString(s) && !utf8.ValidString(pg.Text) {
			t.Fatalf("page %d splits a character", i)
		}
	}
	if all.String() != s {
		t.Fatalf("pages do not concatenate to the input: %d bytes vs %d", all.Len(), len(s))
	}
}

func TestPagesConcatenate(t *testing.T) {
	long := strings.Repeat("😀", 40000) // 80,000 units on one line
	cases := map[string]string{
		"empty":      "",
		"ascii":      strings.Repeat("hello world\n", 10000),
		"cjk":        strings.Repeat("漢字かな交じり文\n", 9000),
		"emoji line": long,
		"mixed":      "a\n" + long + "\nb\n" + strings.Repeat("x", 70000),
		"invalid":    "ok\xff\xfe\n" + strings.Repeat("\xe6\xbc", 3),
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			for _, p := range []*Pager{nil, {}} {
				pages := readAll(t, p, s, Selector{}, DefaultBudget())
				if !utf8.ValidString(s) {
					var all strings.Builder
					for _, pg := range pages {
						all.WriteString(pg.Text)
					}
					if all.String() != s {
						t.Fatal("invalid bytes are not kept")
					}
					continue
				}
				checkPages(t, s, pages, DefaultBudget())
			}
		})
	}
}

func TestPageLinesAndPositions(t *testing.T) {
	var sb strings.Builder
	for i := 1; i <= 4500; i++ {
		sb.WriteString("line\n")
	}
	pages := readAll(t, &Pager{}, sb.String(), Selector{}, DefaultBudget())
	if len(pages) != 3 || strings.Count(pages[0].Text, "\n") != 2000 || pages[1].Start.Line != 2001 || pages[1].Start.Column != 1 {
		t.Fatalf("pages: %d, first has %d lines, second starts at line %d", len(pages), strings.Count(pages[0].Text, "\n"), pages[1].Start.Line)
	}
	// A long line is continued mid-line: the next page starts at a column.
	long := strings.Repeat("ab", 20000)
	pages = readAll(t, nil, long, Selector{}, DefaultBudget())
	if len(pages) != 2 || pages[1].Start.Line != 1 || pages[1].Start.Column != MaxUnits+1 {
		t.Fatalf("long line: %d pages, second at %d:%d", len(pages), pages[1].Start.Line, pages[1].Start.Column)
	}
	// A page ends after a newline rather than inside the next line.
	s := "short\n" + strings.Repeat("z", 40000)
	pages = readAll(t, nil, s, Selector{}, DefaultBudget())
	if pages[0].Text != "short\n" {
		t.Fatalf("first page %q, want the short line alone", short(pages[0].Text))
	}
}

func TestSelectorRanges(t *testing.T) {
	s := "one\ntwo\nthree\nfour\nfive"
	r, size := TextSource(s)
	for sel, want := range map[Selector]string{
		{Start: 2, End: 2}: "two\n",
		{Start: 2, End: 4}: "two\nthree\nfour\n",
		{Start: 5, End: 9}: "five",
		{}:                 s,
	} {
		pg, err := (&Pager{}).Page(r, size, "k", sel, 0, DefaultBudget())
		if err != nil || pg.Text != want || pg.More {
			t.Errorf("%v: %q more=%v %v, want %q", sel, pg.Text, pg.More, err, want)
		}
	}
	if _, err := (&Pager{}).Page(r, size, "k", Selector{Start: 6, End: 6}, 0, DefaultBudget()); err == nil || err.(*Error).Code != CodeInvalidArguments {
		t.Errorf("a line past the end: %v", err)
	}
	// offset inside a surrogate pair, and past the end.
	r, size = TextSource("😀x")
	if _, err := (&Pager{}).Page(r, size, "k", Selector{}, 1, DefaultBudget()); err == nil {
		t.Error("offset 1 splits 😀 but was accepted")
	}
	if _, err := (&Pager{}).Page(r, size, "k", Selector{}, 4, DefaultBudget()); err == nil {
		t.Error("offset past the end was accepted")
	}
	if pg, err := (&Pager{}).Page(r, size, "k", Selector{}, 2, DefaultBudget()); err != nil || pg.Text != "x" {
		t.Errorf("offset 2: %q %v", pg.Text, err)
	}
}

func FuzzCutter(f *testing.F) {
	f.Add("hello\nworld", 5, 10, 16)
	f.Add("😀😀😀\n漢字", 1, 3, 8)
	f.Add(strings.Repeat("a\n", 50), 3, 100, 100)
	f.Fuzz(func(t *testing.T, s string, lines, units, bytes int) {
		if !utf8.ValidString(s) || len(s) > 1<<16 {
			t.Skip()
		}
		b := Budget{Lines: 1 + abs(lines)%50, Units: 2 + abs(units)%200, Bytes: 4 + abs(bytes)%400}
		pages := readAll(t, &Pager{}, s, Selector{}, b)
		checkPages(t, s, pages, b)
		// The same pages without remembered positions.
		checkPages(t, s, readAll(t, nil, s, Selector{}, b), b)
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n {
			return 0
		}
		return -n
	}
	return n
}
