package resources

import (
	"bytes"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"
)

// Position is a place in a source.
type Position struct {
	// Pos is the byte offset in the source.
	Pos int64
	// Line and Column are 1-based; Column counts UTF-16 code units.
	Line, Column int
	// Units is the UTF-16 code units of the selected range before Pos: the
	// offset of a continue URL.
	Units int64
}

// Page is one budgeted page of a source.
type Page struct {
	// Text is the page, raw bytes of the source (an invalid byte stays as
	// it is; JSON shows it as U+FFFD).
	Text string
	// Start is where the page begins, Next where the next one would.
	Start, Next Position
	// More is set when the range goes on after the page.
	More bool
}

// scanBuf is how much of a source a scanner reads at once.
const scanBuf = 64 << 10

// scanner reads a source through a buffer and decodes it rune by rune.
type scanner struct {
	r    io.ReaderAt
	size int64
	buf  []byte
	base int64 // the source offset of buf[0]
	i, n int
	err  error
}

func newScanner(r io.ReaderAt, size, pos int64) *scanner {
	return &scanner{r: r, size: size, buf: make([]byte, scanBuf), base: pos}
}

// ensure buffers at least k bytes from i when the source has them, and
// reports whether any byte is left.
func (s *scanner) ensure(k int) bool {
	if s.n-s.i >= k {
		return true
	}
	if s.err != nil || s.base+int64(s.n) >= s.size {
		return s.n > s.i
	}
	copy(s.buf, s.buf[s.i:s.n])
	s.base += int64(s.i)
	s.n -= s.i
	s.i = 0
	want := min(int64(len(s.buf)-s.n), s.size-s.base-int64(s.n))
	m, err := s.r.ReadAt(s.buf[s.n:s.n+int(want)], s.base+int64(s.n))
	s.n += m
	if err != nil && !(err == io.EOF && int64(m) == want) {
		s.err = err
	}
	return s.n > s.i
}

// next decodes the rune at the read position without consuming it.
func (s *scanner) next() (r rune, size int, ok bool) {
	if !s.ensure(utf8.UTFMax) {
		return 0, 0, false
	}
	if c := s.buf[s.i]; c < utf8.RuneSelf {
		return rune(c), 1, true
	}
	r, size = utf8.DecodeRune(s.buf[s.i:s.n])
	return r, size, true
}

// skipLines moves past the ends of n lines; it returns how many it passed.
func (s *scanner) skipLines(n int) int {
	done := 0
	for done < n && s.ensure(1) {
		j := bytes.IndexByte(s.buf[s.i:s.n], '\n')
		if j < 0 {
			s.i = s.n
			continue
		}
		s.i += j + 1
		done++
	}
	return done
}

// failure is a read error of the source, if any.
func (s *scanner) failure() error { return s.err }

// rangeEnded reports whether pos is past the last selected line.
func rangeEnded(pos Position, sel Selector) bool {
	return sel.End > 0 && pos.Line > sel.End
}

// rangeStart finds the start of sel's first line, from the start of the
// source. It fails when the source has fewer lines.
func rangeStart(r io.ReaderAt, size int64, sel Selector) (Position, error) {
	p := Position{Line: 1, Column: 1}
	if sel.All() || sel.Start == 1 {
		return p, nil
	}
	sc := newScanner(r, size, 0)
	passed := sc.skipLines(sel.Start - 1)
	if err := sc.failure(); err != nil {
		return p, err
	}
	p.Pos = sc.base + int64(sc.i)
	p.Line = 1 + passed
	if passed < sel.Start-1 || p.Pos >= size {
		lines := p.Line
		if p.Pos >= size {
			lines-- // the source ends right after a newline
		}
		return p, errorf(CodeInvalidArguments, "line %d is past the end: the resource has %d lines", sel.Start, max(lines, 0))
	}
	return p, nil
}

// skipUnits moves from p (the range start or a page boundary) to offset
// units into the range.
func skipUnits(r io.ReaderAt, size int64, p Position, sel Selector, offset int64) (Position, error) {
	sc := newScanner(r, size, p.Pos)
	for p.Units < offset {
		if rangeEnded(p, sel) {
			break
		}
		c, n, ok := sc.next()
		if !ok {
			break
		}
		u, _ := runeCost(c, n)
		if p.Units+int64(u) > offset {
			return p, errorf(CodeInvalidArguments, "offset=%d falls inside a character; use the continue URL a read returned", offset)
		}
		sc.i += n
		p.Pos += int64(n)
		p.Units += int64(u)
		if c == '\n' {
			p.Line++
			p.Column = 1
		} else {
			p.Column += u
		}
	}
	if err := sc.failure(); err != nil {
		return p, err
	}
	if p.Units < offset {
		return p, errorf(CodeInvalidArguments, "offset=%d is past the end of the range (%d UTF-16 units); use the continue URL a read returned", offset, p.Units)
	}
	return p, nil
}

// cutPage reads one page from start, within sel and b. It prefers to end a
// page after a newline; a line longer than a page is cut on a character
// boundary (never inside a surrogate pair) and continued on the next page.
func cutPage(r io.ReaderAt, size int64, start Position, sel Selector, b Budget) (Page, error) {
	sc := newScanner(r, size, start.Pos)
	text := make([]byte, 0, min(int64(b.Bytes), max(size-start.Pos, 0)))
	cur := start
	units, shown, lines := 0, 0, 0
	lastNL := -1
	var afterNL Position
	more := false
	for {
		if rangeEnded(cur, sel) {
			break
		}
		c, n, ok := sc.next()
		if !ok {
			break
		}
		u, bb := runeCost(c, n)
		if units+u > b.Units || shown+bb > b.Bytes {
			more = true
			if lastNL >= 0 {
				text = text[:lastNL+1]
				cur = afterNL
			}
			break
		}
		text = append(text, sc.buf[sc.i:sc.i+n]...)
		sc.i += n
		units += u
		shown += bb
		cur.Pos += int64(n)
		cur.Units += int64(u)
		if c != '\n' {
			cur.Column += u
			continue
		}
		cur.Line++
		cur.Column = 1
		lines++
		lastNL, afterNL = len(text)-1, cur
		if lines >= b.Lines {
			_, _, left := sc.next()
			more = left && !rangeEnded(cur, sel)
			break
		}
	}
	if err := sc.failure(); err != nil {
		return Page{}, err
	}
	return Page{Text: string(text), Start: start, Next: cur, More: more}, nil
}

// Pager cuts pages from sources and remembers where pages ended, so that
// reading a large source page by page through its continue URLs costs each
// page, not the whole source before it. It is safe for concurrent use.
type Pager struct {
	mu    sync.Mutex
	marks map[string]Position
}

// maxMarks bounds the remembered positions; past it they are forgotten.
const maxMarks = 4096

func (p *Pager) mark(key string) (Position, bool) {
	if p == nil {
		return Position{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pos, ok := p.marks[key]
	return pos, ok
}

func (p *Pager) remember(key string, pos Position) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.marks == nil || len(p.marks) >= maxMarks {
		p.marks = map[string]Position{}
	}
	p.marks[key] = pos
}

// Page cuts the page of r (size bytes) that begins offset UTF-16 units into
// the range sel. key names the source and its version (path, size, time):
// positions remembered under one key are never used for another. A nil
// Pager remembers nothing.
func (p *Pager) Page(r io.ReaderAt, size int64, key string, sel Selector, offset int64, b Budget) (Page, error) {
	selKey := key + "\x00" + sel.String() + "\x00"
	start, ok := p.mark(selKey + strconv.FormatInt(offset, 10))
	if !ok {
		var err error
		if start, err = rangeStart(r, size, sel); err != nil {
			return Page{}, err
		}
		if offset > 0 {
			if start, err = skipUnits(r, size, start, sel, offset); err != nil {
				return Page{}, err
			}
		}
	}
	pg, err := cutPage(r, size, start, sel, b)
	if err != nil {
		return Page{}, err
	}
	if pg.More {
		p.remember(selKey+strconv.FormatInt(pg.Next.Units, 10), pg.Next)
	}
	return pg, nil
}

// TextSource is a whole text in memory, for Pager.Page.
func TextSource(s string) (io.ReaderAt, int64) {
	return bytesReaderAt(s), int64(len(s))
}

// bytesReaderAt reads a string without copying it into a bytes.Reader.
type bytesReaderAt string

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
