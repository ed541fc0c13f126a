package events

import (
	"fmt"
	"io"
)

// Sink receives every event of a run. line is the envelope encoded as one
// line of JSON ending in "\n"; every sink gets the same bytes. A sink may
// keep line but must not modify it. The Emitter calls sinks one at a time,
// in seq order.
type Sink interface {
	WriteEvent(e *Envelope, line []byte) error
}

// NewNDJSONWriter returns a Sink that writes each line to w with a single
// Write call, so a reader of a pipe never sees half a line. When w has a
// Flush() error method (a *bufio.Writer) it is flushed after every line:
// events are meant to be read as they happen.
func NewNDJSONWriter(w io.Writer) Sink {
	s := &ndjsonWriter{w: w}
	if f, ok := w.(interface{ Flush() error }); ok {
		s.flush = f.Flush
	}
	return s
}

type ndjsonWriter struct {
	w     io.Writer
	flush func() error
}

func (s *ndjsonWriter) WriteEvent(_ *Envelope, line []byte) error {
	n, err := s.w.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return err
	}
	if s.flush != nil {
		if err := s.flush(); err != nil {
			return fmt.Errorf("flush: %w", err)
		}
	}
	return nil
}

// FuncSink adapts a function to a Sink.
func FuncSink(f func(e *Envelope, line []byte) error) Sink {
	return funcSink(f)
}

type funcSink func(e *Envelope, line []byte) error

func (f funcSink) WriteEvent(e *Envelope, line []byte) error { return f(e, line) }
