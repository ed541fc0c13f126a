package fetch

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPageAtCutsAfterTheLastNewline(t *testing.T) {
	md := "aaaa\nbbbb\ncccc\n"
	p, next := PageAt(md, 0, 12)
	if p != "aaaa\nbbbb\n" || next != 10 {
		t.Fatalf("page %q next %d", p, next)
	}
	p, next = PageAt(md, next, 12)
	if p != "cccc\n" || next != len(md) {
		t.Fatalf("last page %q next %d", p, next)
	}
	if p, next = PageAt(md, len(md), 12); p != "" || next != len(md) {
		t.Fatalf("past the end: %q %d", p, next)
	}
}

func TestPageAtNeverSplitsARune(t *testing.T) {
	line := strings.Repeat("€", 100) // 3 bytes each, no newline
	for size := 4; size < 40; size++ {
		var got strings.Builder
		for off := 0; off < len(line); {
			p, next := PageAt(line, off, size)
			if !utf8.ValidString(p) || len(p) > size || p == "" {
				t.Fatalf("size %d offset %d: page %q", size, off, p)
			}
			got.WriteString(p)
			off = next
		}
		if got.String() != line {
			t.Fatalf("size %d: pages do not rebuild the text", size)
		}
	}
}

// TestPaginateProperties checks random documents of mixed scripts: pages
// rebuild the document, are valid UTF-8, fit the size, and end at a line
// boundary whenever their window held one.
func TestPaginateProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "é", "中", "😀", "\n", " ", "\n\n", "ü", "𝄞"}
	for round := range 200 {
		var b strings.Builder
		n := r.IntN(5000)
		for range n {
			if r.IntN(50) == 0 {
				b.WriteString(strings.Repeat("字", r.IntN(400)))
			}
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		md := b.String()
		size := 8 + r.IntN(600)
		pages := Paginate(md, size)
		if strings.Join(pages, "") != md {
			t.Fatalf("round %d: pages do not rebuild the document", round)
		}
		off := 0
		for i, p := range pages {
			if !utf8.ValidString(p) || len(p) > size || p == "" {
				t.Fatalf("round %d page %d: len %d size %d valid %v", round, i, len(p), size, utf8.ValidString(p))
			}
			window := md[off:min(len(md), off+size)]
			last := i == len(pages)-1
			if !last && strings.Contains(window, "\n") && !strings.HasSuffix(p, "\n") {
				t.Fatalf("round %d page %d does not end at a line boundary", round, i)
			}
			off += len(p)
		}
	}
}

func TestPageSizeIsAbout24KiB(t *testing.T) {
	md := strings.Repeat(strings.Repeat("x", 99)+"\n", 1000)
	pages := Paginate(md, PageSize)
	if len(pages[0]) != 24500 || len(pages) != 5 {
		t.Fatalf("first page %d bytes, %d pages", len(pages[0]), len(pages))
	}
}
