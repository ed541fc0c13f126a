package fetch

import (
	"strings"
	"unicode/utf8"
)

// PageSize is the size of one page of a long document (SPEC §6).
const PageSize = 24 << 10

// minPageSize is the smallest page a Pager shrinks to when a page does not
// fit its caller's budget.
const minPageSize = 1 << 10

// PageAt returns the page of md that starts at offset and is at most size
// bytes, and the offset of the next page (len(md) when none remains). A
// page ends after the last newline that fits; only a line longer than a
// page is cut inside, and then never inside a UTF-8 sequence.
func PageAt(md string, offset, size int) (page string, next int) {
	if size < utf8.UTFMax {
		size = utf8.UTFMax
	}
	if offset < 0 {
		offset = 0
	}
	if offset >= len(md) {
		return "", len(md)
	}
	end := offset + size
	if end >= len(md) {
		return md[offset:], len(md)
	}
	if i := strings.LastIndexByte(md[offset:end], '\n'); i >= 0 {
		end = offset + i + 1
	} else {
		for end > offset && !utf8.RuneStart(md[end]) {
			end--
		}
		if end == offset {
			// Not UTF-8 at all; any cut is as good as another.
			end = offset + size
		}
	}
	return md[offset:end], end
}

// Paginate splits md into pages of at most size bytes, as PageAt cuts them.
func Paginate(md string, size int) []string {
	var pages []string
	for off := 0; off < len(md); {
		var p string
		p, off = PageAt(md, off, size)
		pages = append(pages, p)
	}
	return pages
}
