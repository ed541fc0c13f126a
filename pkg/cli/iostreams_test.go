package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"
)

func TestTestStreamsAreNotTerminals(t *testing.T) {
	ios, in, out, errOut := Test()
	if ios.IsStdinTTY() || ios.IsStdoutTTY() || ios.IsStderrTTY() {
		t.Fatal("Test streams claim to be terminals")
	}
	if ios.ColorEnabled() {
		t.Fatal("colour enabled on a non-terminal stdout")
	}
	in.WriteString("hello")
	b, _ := io.ReadAll(ios.In)
	if string(b) != "hello" {
		t.Fatalf("In reads %q", b)
	}
	io.WriteString(ios.Out, "o")
	io.WriteString(ios.ErrOut, "e")
	if out.String() != "o" || errOut.String() != "e" {
		t.Fatalf("out=%q err=%q", out, errOut)
	}
}

func TestSetTTY(t *testing.T) {
	ios, _, _, _ := Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	ios.SetStderrTTY(true)
	if !ios.IsStdinTTY() || !ios.IsStdoutTTY() || !ios.IsStderrTTY() {
		t.Fatal("Set*TTY(true) not reflected")
	}
	if !ios.ColorEnabled() {
		t.Fatal("colour off on a terminal stdout without NO_COLOR")
	}
	ios.SetNoColor(true)
	if ios.ColorEnabled() {
		t.Fatal("SetNoColor(true) did not turn colour off")
	}
}

func TestEnvTurnsColourOff(t *testing.T) {
	for _, tc := range []struct {
		env       map[string]string
		color     bool
		spinnable bool
	}{
		{map[string]string{}, true, true},
		{map[string]string{"TERM": "xterm-256color"}, true, true},
		{map[string]string{"NO_COLOR": "1"}, false, true},
		{map[string]string{"NO_COLOR": ""}, true, true},
		{map[string]string{"TERM": "dumb"}, false, false},
	} {
		ios, _, _, errOut := Test()
		ios.applyEnv(func(k string) string { return tc.env[k] })
		ios.SetStdoutTTY(true)
		ios.SetStderrTTY(true)
		if got := ios.ColorEnabled(); got != tc.color {
			t.Errorf("env %v: ColorEnabled = %v, want %v", tc.env, got, tc.color)
		}
		ios.StartSpinner("x")()
		if got := errOut.Len() > 0; got != tc.spinnable {
			t.Errorf("env %v: spinner drawn = %v, want %v", tc.env, got, tc.spinnable)
		}
	}
}

type fakeTerminal struct {
	bytes.Buffer
	closed bool
}

func (f *fakeTerminal) Close() error { f.closed = true; return nil }

func TestOpenTerminal(t *testing.T) {
	ios, _, _, _ := Test()
	if _, err := ios.OpenTerminal(); !errors.Is(err, ErrNoTerminal) {
		t.Fatalf("Test streams: err = %v, want ErrNoTerminal", err)
	}
	ft := &fakeTerminal{}
	ft.WriteString("yes\n")
	ios.SetTerminal(ft)
	rw, err := ios.OpenTerminal()
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(rw, "Continue? ")
	line := make([]byte, 4)
	if _, err := io.ReadFull(rw, line); err != nil || string(line) != "yes\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	rw.Close()
	if !ft.closed || !strings.Contains(ft.String(), "Continue? ") {
		t.Fatalf("closed=%v contents=%q", ft.closed, ft.String())
	}
}

func TestSpinnerOnlyOnTerminalStderr(t *testing.T) {
	ios, _, out, errOut := Test()
	stop := ios.StartSpinner("fetching")
	stop()
	if errOut.Len() != 0 || out.Len() != 0 {
		t.Fatalf("spinner wrote to a pipe: out=%q err=%q", out, errOut)
	}

	ios.SetStderrTTY(true)
	stop = ios.StartSpinner("fetching")
	stop()
	stop() // a second stop is harmless
	got := errOut.String()
	if !strings.Contains(got, "fetching") {
		t.Fatalf("spinner output %q lacks the label", got)
	}
	if !strings.HasSuffix(got, "\r") {
		t.Fatalf("spinner did not clear its line: %q", got)
	}
	if out.Len() != 0 {
		t.Fatalf("spinner wrote to stdout: %q", out)
	}
	// After stop returns the goroutine is gone: nothing more is written.
	n := errOut.Len()
	for range 1000 {
		if errOut.Len() != n {
			t.Fatal("spinner kept writing after stop")
		}
	}
}

// failWriter fails every write, as /dev/full does.
type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("no space left on device")
}

func TestOutErrRemembersTheFirstWriteFailure(t *testing.T) {
	ios, _, _, _ := Test()
	if ios.OutErr() != nil {
		t.Fatal("OutErr before any write")
	}
	fw := &failWriter{}
	ios.Out = fw
	ios.CheckOut()
	ios.CheckOut() // twice wraps once
	fmt.Fprintln(ios.Out, "dropped by fmt")
	if err := ios.OutErr(); err == nil || err.Error() != "no space left on device" {
		t.Fatalf("OutErr = %v", err)
	}
	// Later writes fail at once, without another try.
	if _, err := ios.Out.Write([]byte("x")); err == nil || fw.n != 1 {
		t.Fatalf("later write: err %v, tries %d", err, fw.n)
	}
}

func TestIsClosedPipe(t *testing.T) {
	if !IsClosedPipe(fmt.Errorf("write /dev/stdout: %w", syscall.EPIPE)) || IsClosedPipe(errors.New("x")) {
		t.Fatal("IsClosedPipe")
	}
}
