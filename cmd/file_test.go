package cmd

import (
	"context"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/files"
)

// runFile runs tavo with a data dir and terminal flags, returning stdout,
// stderr and the exit code.
func runFile(t *testing.T, dataDir string, tty bool, stdin string, args ...string) (string, string, int) {
	t.Helper()
	ios, in, out, errOut := cli.Test()
	in.WriteString(stdin)
	ios.SetStdoutTTY(tty)
	ios.SetStderrTTY(tty)
	ios.SetStdinTTY(tty && stdin == "")
	f := &Factory{IO: ios, Getenv: func(string) string { return "" }}
	code := ExecuteWith(context.Background(), f, append([]string{"--data-dir", dataDir}, args...))
	return out.String(), errOut.String(), code
}

func TestFileLsOnATerminal(t *testing.T) {
	dir := t.TempDir()
	s := files.Open(dir)
	s.Save(context.Background(), files.Global(), "notes.md", []byte(strings.Repeat("x", 1536)))
	s.Save(context.Background(), files.Global(), "a.txt", []byte("hi"))
	out, _, code := runFile(t, dir, true, "", "file", "ls")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	if f := strings.Fields(lines[0]); strings.Join(f, " ") != "NAME SIZE MODIFIED MIME" {
		t.Fatalf("header = %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "a.txt ") || !strings.Contains(lines[1], " 2 B ") || !strings.HasSuffix(lines[1], "text/plain") {
		t.Fatalf("row 1 = %q", lines[1])
	}
	if !strings.Contains(lines[2], "1.5 KiB") || !strings.HasSuffix(lines[2], "text/markdown") {
		t.Fatalf("row 2 = %q", lines[2])
	}

	_, errOut, code := runFile(t, dir, true, "", "file", "ls", "--limit", "1")
	if code != 0 || !strings.HasPrefix(errOut, "tavo: more files: tavo file ls --scope global --cursor ") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	_, errOut, _ = runFile(t, t.TempDir(), true, "", "file", "ls")
	if errOut != "no files\n" {
		t.Fatalf("empty scope on a terminal: %q", errOut)
	}
}

func TestFilePutOnATerminal(t *testing.T) {
	dir := t.TempDir()
	// With stdin a terminal and no PATH there is nothing to read.
	_, errOut, code := runFile(t, dir, true, "", "file", "put", "a.txt")
	if code != 2 || !strings.Contains(errOut, "give PATH, or pipe data in") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = runFile(t, dir, true, "hello", "file", "put", "a.txt")
	if code != 0 || errOut != "saved global/a.txt (5 B)\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	out, _, code := runFile(t, dir, false, "", "file", "put", "-o", "json", "b.txt", "-")
	if code != 0 || !strings.Contains(out, `"path":"global/b.txt"`) {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	_, errOut, code = runFile(t, dir, false, "", "file", "put", "c.txt", "/nonexistent/file")
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "/nonexistent/file") {
		t.Fatalf("missing PATH: exit %d, stderr %q", code, errOut)
	}
}

func TestFileRmSeveral(t *testing.T) {
	dir := t.TempDir()
	s := files.Open(dir)
	s.Save(context.Background(), files.Global(), "a", []byte("a"))
	s.Save(context.Background(), files.Global(), "c", []byte("c"))
	_, errOut, code := runFile(t, dir, false, "", "file", "rm", "a", "b", "c", "d")
	if code != 1 || errOut != "tavo: no file \"b\" in the global scope\ntavo: no file \"d\" in the global scope\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if ok, _ := s.Exists(context.Background(), files.Global(), "c"); ok {
		t.Fatal("c survived")
	}
	// An invalid name stops the command before anything is deleted.
	s.Save(context.Background(), files.Global(), "e", []byte("e"))
	_, _, code = runFile(t, dir, false, "", "file", "rm", "e", "../x")
	if ok, _ := s.Exists(context.Background(), files.Global(), "e"); code != 2 || !ok {
		t.Fatalf("exit %d, e exists %v", code, ok)
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 20 << 20: "20 MiB", 3 << 30: "3 GiB"} {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
}
