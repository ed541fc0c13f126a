// Package cli holds what every tavo command needs to talk to a person or a
// program: the standard streams and whether each is a terminal, the output
// formats (text, json, ndjson), the --jq filter, tables and a spinner.
//
// Commands never look at os.Stdout directly: they write to an IOStreams, so
// tests can hand them buffers and decide which stream "is a terminal".
package cli

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// ErrNoTerminal is returned by OpenTerminal when the process has no
// controlling terminal to ask a person on (CI, cron, a detached process).
var ErrNoTerminal = errors.New("no terminal to ask on: the process has no controlling terminal")

// IOStreams carries the standard streams of one tavo invocation and knows
// which of them are terminals.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// TerminalOpener opens the controlling terminal for interactive prompts.
	// System sets it to open /dev/tty; nil means there is no terminal.
	TerminalOpener func() (io.ReadWriteCloser, error)

	stdinTTY  bool
	stdoutTTY bool
	stderrTTY bool
	// noColor is set by NO_COLOR or TERM=dumb.
	noColor bool
	// dumb is set by TERM=dumb: no cursor tricks such as a spinner.
	dumb bool
}

// System returns the process's own streams, with terminal detection
// (including Cygwin and MSYS terminals) and NO_COLOR and TERM=dumb honoured.
func System() *IOStreams {
	return newSystem(os.Getenv)
}

func newSystem(getenv func(string) string) *IOStreams {
	s := &IOStreams{
		In:             os.Stdin,
		Out:            &checkedWriter{w: os.Stdout},
		ErrOut:         os.Stderr,
		TerminalOpener: openTTY,
		stdinTTY:       isTerminal(os.Stdin),
		stdoutTTY:      isTerminal(os.Stdout),
		stderrTTY:      isTerminal(os.Stderr),
	}
	s.applyEnv(getenv)
	return s
}

// applyEnv reads the variables that tone output down. NO_COLOR counts when
// set to anything non-empty (https://no-color.org).
func (s *IOStreams) applyEnv(getenv func(string) string) {
	s.dumb = getenv("TERM") == "dumb"
	s.noColor = getenv("NO_COLOR") != "" || s.dumb
}

func isTerminal(f *os.File) bool {
	fd := f.Fd()
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// Test returns streams backed by buffers, none of them a terminal, and no
// terminal to open. Tests flip terminal-ness with the Set*TTY methods.
func Test() (ios *IOStreams, in *bytes.Buffer, out *bytes.Buffer, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// IsStdinTTY reports whether stdin is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// SetStdinTTY overrides stdin terminal detection.
func (s *IOStreams) SetStdinTTY(v bool) { s.stdinTTY = v }

// SetStdoutTTY overrides stdout terminal detection.
func (s *IOStreams) SetStdoutTTY(v bool) { s.stdoutTTY = v }

// SetStderrTTY overrides stderr terminal detection.
func (s *IOStreams) SetStderrTTY(v bool) { s.stderrTTY = v }

// SetNoColor turns colour off (true) or lets ColorEnabled decide from
// stdout (false), as NO_COLOR does for System streams.
func (s *IOStreams) SetNoColor(v bool) { s.noColor = v }

// ColorEnabled reports whether stdout may carry colour: it is a terminal
// and neither NO_COLOR nor TERM=dumb is set.
func (s *IOStreams) ColorEnabled() bool { return s.stdoutTTY && !s.noColor }

// SetTerminal makes OpenTerminal return rw, for tests of interactive prompts.
func (s *IOStreams) SetTerminal(rw io.ReadWriteCloser) {
	s.TerminalOpener = func() (io.ReadWriteCloser, error) { return rw, nil }
}

// OpenTerminal opens the controlling terminal, which lets tavo ask a person
// even when stdin is a pipe carrying data. It returns an error wrapping
// ErrNoTerminal when there is none. The caller closes it.
func (s *IOStreams) OpenTerminal() (io.ReadWriteCloser, error) {
	if s.TerminalOpener == nil {
		return nil, ErrNoTerminal
	}
	return s.TerminalOpener()
}
