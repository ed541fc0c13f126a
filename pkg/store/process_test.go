package store

// These tests run the test binary itself as other tavo processes
// (TestHelperProcess with TAVO_STORE_HELPER set) sharing one data dir: they
// race for a session, write side by side, get killed mid-run and receive a
// cancel request, as cron jobs and parallel CI steps would.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

const (
	helperEnv = "TAVO_STORE_HELPER"
	dirEnv    = "TAVO_STORE_DIR"
	nEnv      = "TAVO_STORE_N"
)

// Sizes of the parallel append test.
const (
	appendBatches  = 40
	appendPerBatch = 3
)

// TestHelperProcess is not a test: it is the child process of the tests
// below. It talks over stdin (commands) and stdout (lines starting "@@ ").
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("runs only as a child process of the multi-process tests")
	}
	in := bufio.NewScanner(os.Stdin)
	say := func(format string, a ...any) { fmt.Printf("@@ "+format+"\n", a...) }
	fail := func(err error) {
		say("error %v", err)
		os.Exit(3)
	}
	wait := func(cmd string) {
		for in.Scan() {
			if in.Text() == cmd {
				return
			}
		}
		os.Exit(4) // the parent went away
	}
	dir, n := os.Getenv(dirEnv), os.Getenv(nEnv)
	switch mode {
	case "race":
		wait("go")
		s, err := Open(ctxb(), dir)
		if err != nil {
			fail(err)
		}
		l, err := s.BeginRun(ctxb(), "run_race_"+n, "ses_race", RunMeta{})
		switch {
		case err == nil:
			say("won")
		case errors.Is(err, ErrSessionBusy):
			say("busy")
		default:
			fail(err)
		}
		wait("exit")
		if l != nil {
			if err := l.Finish(ctxb(), "completed", 0, nil); err != nil {
				fail(err)
			}
		}
		s.Close()
	case "append":
		wait("go")
		s, err := Open(ctxb(), dir) // all children migrate a fresh dir at once
		if err != nil {
			fail(err)
		}
		ses, run := "ses_p"+n, "run_p"+n
		if _, err := s.CreateSession(ctxb(), ses, "parallel "+n); err != nil {
			fail(err)
		}
		l, err := s.BeginRun(ctxb(), run, ses, RunMeta{})
		if err != nil {
			fail(err)
		}
		seq := int64(0)
		for b := range appendBatches {
			msgs := msgsOf(userMsg(fmt.Sprintf("%s batch %d", ses, b)), assistantCall("a", "c"), toolResult("c", `{"ok":true}`))
			if _, err := l.AppendMessages(ctxb(), b+1, msgs); err != nil {
				fail(err)
			}
			seq++
			l.Journal(seq, "message", eventLine(run, seq, "message"))
			if err := s.SetVar(ctxb(), ScopeGlobal, "", "last", json.RawMessage(strconv.Quote(ses))); err != nil {
				fail(err)
			}
		}
		if err := l.Finish(ctxb(), "completed", 0, json.RawMessage(`{"status":"completed"}`)); err != nil {
			fail(err)
		}
		s.Close()
		say("done")
	case "kill":
		s, err := Open(ctxb(), dir)
		if err != nil {
			fail(err)
		}
		l, err := s.BeginRun(ctxb(), "run_kill", "ses_kill", RunMeta{})
		if err != nil {
			fail(err)
		}
		say("started")
		big := strings.Repeat("payload ", 2000)
		for b := 1; ; b++ {
			msgs := make([]providers.Message, 5)
			for i := range msgs {
				msgs[i] = userMsg(fmt.Sprintf("batch %d part %d %s", b, i, big))
			}
			if _, err := l.AppendMessages(ctxb(), b, msgs); err != nil {
				fail(err)
			}
			l.Journal(int64(b), "message", eventLine("run_kill", int64(b), "message"))
			say("batch %d", b)
		}
	case "cancel":
		s, err := Open(ctxb(), dir)
		if err != nil {
			fail(err)
		}
		l, err := s.BeginRun(ctxb(), "run_cancel", "ses_cancel", RunMeta{})
		if err != nil {
			fail(err)
		}
		say("started")
		go func() { wait("never"); os.Exit(4) }() // exit if the parent goes
		<-l.Cancelled()
		if err := l.Finish(ctxb(), "cancelled", 130, json.RawMessage(`{"status":"cancelled"}`)); err != nil {
			fail(err)
		}
		say("cancelled")
	default:
		fail(fmt.Errorf("unknown mode %q", mode))
	}
	os.Exit(0)
}

// child is a running helper process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Scanner
	stderr *strings.Builder
}

func startChild(t *testing.T, mode, dir string, n int) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, dirEnv+"="+dir, nEnv+"="+strconv.Itoa(n))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout), stderr: &strings.Builder{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return c
}

// next returns the child's next "@@" line without the prefix.
func (c *child) next(t *testing.T) string {
	t.Helper()
	for c.out.Scan() {
		if line, ok := strings.CutPrefix(c.out.Text(), "@@ "); ok {
			return line
		}
	}
	t.Fatalf("child ended without answering; stderr: %s", c.stderr)
	return ""
}

func (c *child) send(t *testing.T, cmd string) {
	t.Helper()
	if _, err := io.WriteString(c.stdin, cmd+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (c *child) wait(t *testing.T) {
	t.Helper()
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("child: %v; stderr: %s", err, c.stderr)
	}
}

const children = 8

// TestProcessesRaceForOneSession: eight processes BeginRun on one session
// at the same moment; exactly one wins and the others are refused without
// waiting (the winner keeps the session until every answer is in, so a
// waiting loser would hang the test).
func TestProcessesRaceForOneSession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, _ := openAt(t, dir)
	mustSession(t, s, "ses_race")
	kids := make([]*child, children)
	for i := range kids {
		kids[i] = startChild(t, "race", dir, i)
	}
	for _, k := range kids {
		k.send(t, "go")
	}
	won, busy := 0, 0
	for _, k := range kids {
		switch ans := k.next(t); ans {
		case "won":
			won++
		case "busy":
			busy++
		default:
			t.Fatalf("child answered %q", ans)
		}
	}
	if won != 1 || busy != children-1 {
		t.Fatalf("%d won and %d were busy, want 1 and %d", won, busy, children-1)
	}
	for _, k := range kids {
		k.send(t, "exit")
	}
	for _, k := range kids {
		k.wait(t)
	}
	runs, _, _ := s.ListRuns(ctxb(), "ses_race", 0, "")
	if len(runs) != 1 || runs[0].Status != "completed" {
		t.Fatalf("runs after the race: %+v", runs)
	}
	checkIntegrity(t, s)
}

// TestProcessesWriteInParallel: eight processes open a fresh data dir at
// once (all migrating it), then each runs on its own session, appending
// messages, journaling and setting a shared variable. Nothing is lost,
// nothing fails with "database is locked", and the database is sound.
func TestProcessesWriteInParallel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	kids := make([]*child, children)
	for i := range kids {
		kids[i] = startChild(t, "append", dir, i)
	}
	for _, k := range kids {
		k.send(t, "go")
	}
	var wg sync.WaitGroup
	answers := make([]string, children)
	for i, k := range kids {
		wg.Go(func() { answers[i] = k.next(t) })
	}
	wg.Wait()
	for i, a := range answers {
		if a != "done" {
			t.Fatalf("child %d: %s", i, a)
		}
	}
	for _, k := range kids {
		k.wait(t)
	}
	s, _ := openAt(t, dir)
	for i := range children {
		ses := "ses_p" + strconv.Itoa(i)
		h, err := s.History(ctxb(), ses, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != appendBatches*appendPerBatch {
			t.Fatalf("%s has %d messages, want %d", ses, len(h), appendBatches*appendPerBatch)
		}
		for j, m := range h {
			if m.Seq != int64(j+1) {
				t.Fatalf("%s: message %d has seq %d", ses, j, m.Seq)
			}
			if j%appendPerBatch == 0 && m.Message.Text() != fmt.Sprintf("%s batch %d", ses, j/appendPerBatch) {
				t.Fatalf("%s: message %d is %q", ses, j, m.Message.Text())
			}
		}
		r, err := s.GetRun(ctxb(), "run_p"+strconv.Itoa(i))
		if err != nil || r.Status != "completed" || r.Events != appendBatches {
			t.Fatalf("run of %s: %+v %v", ses, r, err)
		}
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM messages`); n != children*appendBatches*appendPerBatch {
		t.Fatalf("%d messages in all", n)
	}
	checkIntegrity(t, s)
}

// TestKilledRunIsInterrupted: a process is killed (SIGKILL) while it
// appends messages. The next Open marks its run interrupted, every stored
// message is whole and every batch complete, and a new run can start.
func TestKilledRunIsInterrupted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, _ := openAt(t, dir)
	mustSession(t, s, "ses_kill")
	s.Close()

	k := startChild(t, "kill", dir, 0)
	if got := k.next(t); got != "started" {
		t.Fatalf("child: %s", got)
	}
	for {
		line := k.next(t)
		if line == "batch 20" {
			break
		}
		if !strings.HasPrefix(line, "batch ") {
			t.Fatalf("child: %s", line)
		}
	}
	if err := k.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	k.cmd.Wait()

	s2, _ := openAt(t, dir)
	r, err := s2.GetRun(ctxb(), "run_kill")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusInterrupted || r.EndedAt == nil {
		t.Fatalf("killed run: %+v", r)
	}
	h, err := s2.History(ctxb(), "ses_kill", 1) // decodes every message
	if err != nil {
		t.Fatal(err)
	}
	if len(h) < 20*5 || len(h)%5 != 0 {
		t.Fatalf("%d messages stored: a batch is partly there", len(h))
	}
	for j, m := range h {
		batch, part := j/5+1, j%5
		if m.Seq != int64(j+1) || !strings.HasPrefix(m.Message.Text(), fmt.Sprintf("batch %d part %d ", batch, part)) {
			t.Fatalf("message %d (seq %d) is %.30q", j, m.Seq, m.Message.Text())
		}
	}
	ss, _ := s2.GetSession(ctxb(), "ses_kill")
	if ss.Messages != len(h) || ss.LastSeq != int64(len(h)) || ss.ActiveRun != "" {
		t.Fatalf("session after the kill: %+v", ss)
	}
	l := mustBegin(t, s2, "run_after", "ses_kill")
	must(t, l.Finish(ctxb(), "completed", 0, nil))
	checkIntegrity(t, s2)
}

// TestCancelReachesAnotherProcess: RequestCancel here closes the Lease's
// Cancelled channel in the child, which then finishes as cancelled.
func TestCancelReachesAnotherProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, _ := openAt(t, dir)
	mustSession(t, s, "ses_cancel")
	k := startChild(t, "cancel", dir, 0)
	if got := k.next(t); got != "started" {
		t.Fatalf("child: %s", got)
	}
	// The child holds the session.
	_, err := s.BeginRun(ctxb(), "run_other", "ses_cancel", RunMeta{})
	wantErr(t, err, ErrSessionBusy)
	must(t, s.RequestCancel(ctxb(), "run_cancel"))
	if got := k.next(t); got != "cancelled" {
		t.Fatalf("child: %s", got)
	}
	k.wait(t)
	r, _ := s.GetRun(ctxb(), "run_cancel")
	if r.Status != "cancelled" || *r.ExitCode != 130 || !r.CancelRequested {
		t.Fatalf("cancelled run: %+v", r)
	}
	wantErr(t, s.RequestCancel(ctxb(), "run_cancel"), ErrNotRunning)
}

func checkIntegrity(t *testing.T, s *Store) {
	t.Helper()
	var res string
	if err := s.db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
	var fk int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM pragma_foreign_key_check").Scan(&fk); err != nil || fk != 0 {
		t.Fatalf("foreign_key_check: %d %v", fk, err)
	}
}
