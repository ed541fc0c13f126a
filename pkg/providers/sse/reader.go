// Package sse reads Server-Sent Events (the text/event-stream format of the
// WHATWG HTML standard) from any io.Reader.
//
// It is shared by every provider codec: OpenAI Chat Completions (data-only
// events ending in "data: [DONE]"), OpenAI Responses and Anthropic (named
// events), and Gemini (CRLF framing, no event names, no terminator). The
// reader only frames events; what "[DONE]" or an event name means is the
// codec's business.
package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxSize bounds one line and the data of one event. Providers send
// chunks of a few kilobytes; 8 MiB leaves room for a large tool argument sent
// in one piece while still stopping a runaway stream from exhausting memory.
const DefaultMaxSize = 8 << 20

// ErrTooLong is returned (wrapped) when a line or an event's data exceeds the
// reader's size limit.
var ErrTooLong = errors.New("sse: line or event data too long")

// Event is one dispatched server-sent event.
type Event struct {
	// Name is the value of the last "event:" field, empty when the event had
	// none (the standard would call it "message").
	Name string
	// Data is the event's "data:" fields joined by "\n".
	Data string
	// ID is the last event ID seen so far on the stream; as the standard says,
	// it carries over to later events that set none.
	ID string
}

// Reader splits a stream into events. It is not safe for concurrent use.
type Reader struct {
	src     io.Reader
	buf     []byte
	start   int // first unread byte in buf
	end     int // end of valid data in buf
	srcErr  error
	maxSize int
	// skipLF is set after a line ended in CR at the end of buf: a following
	// LF belongs to the same CRLF line break.
	skipLF  bool
	started bool // the byte-order mark check has run

	name    string
	data    []byte
	hasData bool
	lastID  string
	sawLine bool // the current event has at least one field line
}

// NewReader returns a Reader over r with the DefaultMaxSize limit.
func NewReader(r io.Reader) *Reader {
	return NewReaderSize(r, DefaultMaxSize)
}

// NewReaderSize returns a Reader over r whose lines and event data may not
// exceed maxSize bytes; maxSize <= 0 means DefaultMaxSize.
func NewReaderSize(r io.Reader, maxSize int) *Reader {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	// Provider chunks are far under 4 KiB; the buffer doubles for longer
	// lines. A bigger start cost every model call 64 KiB of garbage.
	initial := 4 << 10
	if initial > maxSize+1 {
		initial = maxSize + 1
	}
	return &Reader{src: r, buf: make([]byte, initial), maxSize: maxSize}
}

// Next returns the next event. At the end of the stream it returns io.EOF;
// an event still open at the end (no closing blank line) is delivered first.
// Read errors of the underlying reader are returned as they are.
func (r *Reader) Next() (Event, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			if err == io.EOF && r.sawLine {
				if ev, ok := r.dispatch(); ok {
					return ev, nil
				}
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		if err := r.field(line); err != nil {
			return Event{}, err
		}
	}
}

// field applies one non-empty line to the event being built.
func (r *Reader) field(line []byte) error {
	r.sawLine = true
	if line[0] == ':' {
		return nil // comment, used by servers as keep-alive
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "data":
		if r.hasData {
			r.data = append(r.data, '\n')
		}
		r.data = append(r.data, value...)
		r.hasData = true
		if len(r.data) > r.maxSize {
			return fmt.Errorf("%w: event data passed %d bytes", ErrTooLong, r.maxSize)
		}
	case "event":
		r.name = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = string(value)
		}
	}
	// "retry" and unknown fields are ignored, as the standard says.
	return nil
}

// dispatch ends the current event. Like the standard, an event without any
// data line is not delivered; its name is forgotten.
func (r *Reader) dispatch() (Event, bool) {
	ev := Event{Name: r.name, Data: string(r.data), ID: r.lastID}
	ok := r.hasData
	r.name, r.data, r.hasData, r.sawLine = "", r.data[:0], false, false
	return ev, ok
}

// readLine returns the next line without its terminator (LF, CRLF or CR).
// The slice is valid until the next call.
func (r *Reader) readLine() ([]byte, error) {
	for {
		if r.skipLF && r.start < r.end {
			if r.buf[r.start] == '\n' {
				r.start++
			}
			r.skipLF = false
		}
		if !r.started && (r.end-r.start >= 3 || r.srcErr != nil) {
			r.started = true
			if bytes.HasPrefix(r.buf[r.start:r.end], []byte("\xef\xbb\xbf")) {
				r.start += 3
			}
		}
		if r.started {
			if line, ok := r.cutLine(); ok {
				return line, nil
			}
		}
		if r.end-r.start > r.maxSize {
			return nil, fmt.Errorf("%w: a line passed %d bytes", ErrTooLong, r.maxSize)
		}
		if r.srcErr != nil {
			if r.start < r.end {
				// The last line had no terminator: it still counts.
				line := r.buf[r.start:r.end]
				r.start = r.end
				return line, nil
			}
			return nil, r.srcErr
		}
		r.fill()
	}
}

// cutLine takes one terminated line off the buffer if there is one.
func (r *Reader) cutLine() ([]byte, bool) {
	b := r.buf[r.start:r.end]
	i := bytes.IndexByte(b, '\n')
	limit := b
	if i >= 0 {
		limit = b[:i]
	}
	if j := bytes.IndexByte(limit, '\r'); j >= 0 {
		line := b[:j]
		r.start += j + 1
		if j+1 < len(b) {
			if b[j+1] == '\n' {
				r.start++
			}
		} else {
			r.skipLF = true
		}
		return line, true
	}
	if i < 0 {
		return nil, false
	}
	r.start += i + 1
	return b[:i], true
}

// fill reads more input, compacting or growing the buffer as needed.
func (r *Reader) fill() {
	if r.start > 0 {
		n := copy(r.buf, r.buf[r.start:r.end])
		r.start, r.end = 0, n
	}
	if r.end == len(r.buf) {
		size := 2 * len(r.buf)
		if size > r.maxSize+1 {
			size = r.maxSize + 1
		}
		grown := make([]byte, size)
		copy(grown, r.buf[:r.end])
		r.buf = grown
	}
	// A reader may return 0, nil; give up after a few tries instead of
	// spinning forever.
	for tries := 0; tries < 100; tries++ {
		n, err := r.src.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			r.srcErr = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.srcErr = io.ErrNoProgress
}
