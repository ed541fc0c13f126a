package cmd

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/events"
)

// exitCodeOf is the exit status an error from a run function ends the
// process with: its ExitError's code, else -1.
func exitCodeOf(err error) int {
	var ee *ExitError
	if !errors.As(err, &ee) {
		return -1
	}
	return ee.Code
}

// TestMemoryRunsWithoutCobra appends notes from stdin and shows them
// through the options alone, and checks that a refused update is a usage
// error.
func TestMemoryRunsWithoutCobra(t *testing.T) {
	ctx, dataDir := context.Background(), t.TempDir()
	// factory is a Factory on dataDir whose stdin, a pipe, holds three
	// lines, one of them blank, and its stdout.
	factory := func() (*Factory, *bytes.Buffer) {
		ios, in, out, _ := cli.Test()
		in.WriteString("first note\n\n  second note  \n")
		return &Factory{IO: ios, DataDir: dataDir, Getenv: func(string) string { return "" }}, out
	}

	f, _ := factory()
	if err := memoryAppendRun(&MemoryAppendOptions{Factory: f, Ctx: ctx}); err != nil {
		t.Fatal(err)
	}
	f, out := factory()
	if err := memoryShowRun(&MemoryShowOptions{Factory: f, Ctx: ctx}); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "enabled: false\n1. first note\n2. second note\n"; got != want {
		t.Fatalf("memory show = %q, want %q", got, want)
	}

	f, _ = factory()
	err := memorySetRun(&MemorySetOptions{Factory: f, Ctx: ctx, Enable: true, Disable: true})
	if exitCodeOf(err) != events.ExitUsage {
		t.Fatalf("--enable --disable: %v (exit %d)", err, exitCodeOf(err))
	}
}

// TestVarRunsWithoutCobra sets and gets a global variable through the
// options alone; a missing variable is a failure (exit 1), and rm of
// several missing names prints all but the last, which is the exit status.
func TestVarRunsWithoutCobra(t *testing.T) {
	ctx, dataDir := context.Background(), t.TempDir()
	// factory is a Factory on dataDir, with its stdout and stderr.
	factory := func() (*Factory, *bytes.Buffer, *bytes.Buffer) {
		ios, _, out, errOut := cli.Test()
		return &Factory{IO: ios, DataDir: dataDir, Getenv: func(string) string { return "" }}, out, errOut
	}
	global := &VarOptions{}

	f, _, _ := factory()
	if err := varSetRun(&VarSetOptions{VarOptions: global, Factory: f, Ctx: ctx, Name: "zip", Value: "01234", AsString: true}); err != nil {
		t.Fatal(err)
	}
	f, out, _ := factory()
	if err := varGetRun(&VarGetOptions{VarOptions: global, Factory: f, Ctx: ctx, Name: "zip"}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "01234\n" {
		t.Fatalf("var get = %q", got)
	}

	f, _, _ = factory()
	err := varGetRun(&VarGetOptions{VarOptions: global, Factory: f, Ctx: ctx, Name: "nope"})
	if exitCodeOf(err) != events.ExitFailed || err.Error() != `no global variable "nope"` {
		t.Fatalf("missing variable: %v (exit %d)", err, exitCodeOf(err))
	}

	f, _, errOut := factory()
	err = varRmRun(&VarRmOptions{VarOptions: global, Factory: f, Ctx: ctx, Names: []string{"a", "zip", "b"}})
	if exitCodeOf(err) != events.ExitFailed || err.Error() != `no global variable "b"` {
		t.Fatalf("rm: %v (exit %d)", err, exitCodeOf(err))
	}
	if got := errOut.String(); got != "tavo: no global variable \"a\"\n" {
		t.Fatalf("rm stderr = %q", got)
	}

	err = varLsRun(&VarLsOptions{VarOptions: &VarOptions{Scope: "chat"}, Factory: f, Ctx: ctx})
	if exitCodeOf(err) != events.ExitUsage {
		t.Fatalf("--scope chat without --session: %v (exit %d)", err, exitCodeOf(err))
	}
}
