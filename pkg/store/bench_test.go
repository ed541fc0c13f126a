package store

// Benchmarks for SPEC §10 with a session of 10,000 stored messages:
// `session send` set-up (Open, the session, its compaction, History,
// BeginRun) < 100 ms, a 100-message `session read` page < 20 ms.

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

const benchMessages = 10_000

// seedSession stores n messages in rounds shaped like real ones: a user
// prompt, an assistant turn with reasoning, text and a tool call, and a
// tool result of about 2 KB.
func seedSession(b *testing.B, s *Store, id string, n int) {
	b.Helper()
	if _, err := s.CreateSession(ctxb(), id, "bench"); err != nil {
		b.Fatal(err)
	}
	prompt := strings.Repeat("Please look at the build log and tell me why it fails. ", 4)
	result := `{"ok":true,"result":{"url":"https://example.com/log","markdown":` +
		fmt.Sprintf("%q", strings.Repeat("line of fetched page text, with some detail in it.\n", 40)) + `}}`
	var batch []providers.Message
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			batch = append(batch, userMsg(prompt))
		case 1:
			batch = append(batch, assistantCall("Let me fetch it and check the failing step.", fmt.Sprintf("call_%d", i)))
		case 2:
			batch = append(batch, toolResult(fmt.Sprintf("call_%d", i-1), result))
		}
		if len(batch) == 300 || i == n-1 {
			if _, err := s.AppendMessages(ctxb(), id, "run_seed", i/3+1, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

func BenchmarkHistory10k(b *testing.B) {
	s, _ := openTest(b)
	seedSession(b, s, "ses_bench", benchMessages)
	cpu := startCPU()
	for b.Loop() {
		h, err := s.History(ctxb(), "ses_bench", 1)
		if err != nil || len(h) != benchMessages {
			b.Fatal(len(h), err)
		}
	}
	cpu.report(b, "history")
}

// BenchmarkSessionSendSetup is everything `tavo session send` does with the
// store before its first model request, on a 10,000-message session.
func BenchmarkSessionSendSetup(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "data")
	s, _ := openAt(b, dir)
	seedSession(b, s, "ses_bench", benchMessages)
	s.Close()
	i := 0
	cpu := startCPU()
	for b.Loop() {
		i++
		s, err := Open(ctxb(), dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.GetSession(ctxb(), "ses_bench"); err != nil {
			b.Fatal(err)
		}
		from := int64(1)
		if c, err := s.LatestCompaction(ctxb(), "ses_bench"); err == nil {
			from = c.KeptFromSeq
		}
		h, err := s.History(ctxb(), "ses_bench", from)
		if err != nil || len(h) != benchMessages {
			b.Fatal(len(h), err)
		}
		l, err := s.BeginRun(ctxb(), fmt.Sprintf("run_%d", i), "ses_bench", RunMeta{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		l.Finish(ctxb(), "completed", 0, nil)
		s.Close()
		b.StartTimer()
	}
	cpu.report(b, "setup")
}

func BenchmarkReadMessagesPage(b *testing.B) {
	s, _ := openTest(b)
	seedSession(b, s, "ses_bench", benchMessages)
	for _, before := range []int64{0, benchMessages / 2} {
		b.Run(fmt.Sprintf("before=%d", before), func(b *testing.B) {
			cpu := startCPU()
			for b.Loop() {
				m, err := s.ReadMessages(ctxb(), "ses_bench", before, 100)
				if err != nil || len(m) != 100 {
					b.Fatal(len(m), err)
				}
			}
			cpu.report(b, "page")
		})
	}
}

func BenchmarkAppendRound(b *testing.B) {
	s, _ := openTest(b)
	mustSession(b, s, "ses_bench")
	round := msgsOf(assistantCall("checking", "c1"), toolResult("c1", `{"ok":true,"result":"fine"}`))
	cpu := startCPU()
	for b.Loop() {
		if _, err := s.AppendMessages(ctxb(), "ses_bench", "run_1", 1, round); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b, "round")
}

func BenchmarkBeginRunFinish(b *testing.B) {
	s, _ := openTest(b)
	mustSession(b, s, "ses_bench")
	i := 0
	cpu := startCPU()
	for b.Loop() {
		i++
		l, err := s.BeginRun(ctxb(), fmt.Sprintf("run_%d", i), "ses_bench", RunMeta{})
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Finish(ctxb(), "completed", 0, json.RawMessage(`{"status":"completed"}`)); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b, "run")
}

// BenchmarkJournal measures what a run pays per event (the queue is made
// unbounded, so Journal never waits for the writer here) and the rate the
// journal is written at, Finish included.
func BenchmarkJournal(b *testing.B) {
	s, _ := openTest(b)
	s.flushEvery = 50 * time.Millisecond
	s.journalMax = math.MaxInt
	mustSession(b, s, "ses_bench")
	l := mustBegin(b, s, "run_bench", "ses_bench")
	line := eventLine("run_bench", 1, "text.delta")
	seq := int64(0)
	cpu, start := startCPU(), time.Now()
	for b.Loop() {
		seq++
		l.Journal(seq, "text.delta", line)
	}
	perCall := b.Elapsed()
	if err := l.Finish(ctxb(), "completed", 0, nil); err != nil {
		b.Fatal(err)
	}
	all, allCPU := time.Since(start), cpuTime()-cpu.start
	r, _ := s.GetRun(ctxb(), "run_bench")
	if int64(r.Events) != seq {
		b.Fatalf("%d of %d events stored", r.Events, seq)
	}
	b.ReportMetric(float64(perCall.Nanoseconds())/float64(b.N), "ns/journal-call")
	b.ReportMetric(float64(seq)/all.Seconds(), "events/s")
	b.ReportMetric(float64(allCPU.Nanoseconds())/float64(seq)/1000, "cpu-µs/event")
}

// cpuClock reads the process's CPU time (user + system, all threads).
// The machines benchmarks run on are often shared, so beside wall time
// per operation (ms/op) the CPU time it took (cpu-ms/op) is reported: it
// barely moves with the load of other processes.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{start: cpuTime()} }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report adds ms/<what> (wall time per operation) and cpu-ms/<what>.
func (c cpuClock) report(b *testing.B, what string) {
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/"+what)
	b.ReportMetric(float64((cpuTime()-c.start).Microseconds())/1000/float64(b.N), "cpu-ms/"+what)
}
