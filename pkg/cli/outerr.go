package cli

import (
	"errors"
	"io"
	"sync"
	"syscall"
)

// checkedWriter remembers the first error met writing to w and fails every
// later write with it. Commands print with fmt.Fprintf and friends, which
// drop write errors; this keeps them, so that output that could not be
// written (a full disk, a closed pipe) never ends a command with exit 0.
type checkedWriter struct {
	w io.Writer

	mu  sync.Mutex
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

func (c *checkedWriter) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// CheckOut makes s remember the first error met writing to Out (System
// streams do so from the start); OutErr reports it.
func (s *IOStreams) CheckOut() {
	if _, ok := s.Out.(*checkedWriter); !ok {
		s.Out = &checkedWriter{w: s.Out}
	}
}

// OutErr returns the first error met writing to Out, or nil. It is nil
// when no write failed or when Out is not checked (see CheckOut).
func (s *IOStreams) OutErr() error {
	if c, ok := s.Out.(*checkedWriter); ok {
		return c.failed()
	}
	return nil
}

// IsClosedPipe reports whether err is a write to a pipe whose reader went
// away (EPIPE): `tavo … | head -1` once head has exited. Such a reader
// wanted no more, so it is not an error to report.
func IsClosedPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE)
}
