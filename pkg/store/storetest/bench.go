package storetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/store"
)

// The benchmarks below measure SPEC §10's store targets on any engine, so
// scripts/bench.sh prints SQLite and PostgreSQL side by side.

// Handles opens a new handle on one store, as a new process would; the
// caller closes it. A BenchOpener makes a fresh empty store for a
// benchmark and returns its Handles.
type (
	Handles     func() *store.Store
	BenchOpener func(b *testing.B) Handles
)

// BenchMessages is how many messages the session benchmarks store.
const BenchMessages = 10_000

// Seed stores n messages in rounds shaped like real ones (a prompt, an
// assistant turn with a tool call, a 2 KB tool result) in a new session.
func Seed(b *testing.B, s *store.Store, id string, n int) {
	b.Helper()
	if _, err := s.CreateSession(ctx(), id, "bench"); err != nil {
		b.Fatal(err)
	}
	prompt := strings.Repeat("Please look at the build log and tell me why it fails. ", 4)
	result := `{"ok":true,"result":{"url":"https://example.com/log","markdown":` +
		fmt.Sprintf("%q", strings.Repeat("line of fetched page text, with some detail in it.\n", 40)) + `}}`
	var batch []providers.Message
	for i := range n {
		switch i % 3 {
		case 0:
			batch = append(batch, text(providers.RoleUser, prompt))
		case 1:
			batch = append(batch, providers.Message{Role: providers.RoleAssistant, Parts: []providers.Part{
				{Type: providers.PartText, Text: "Let me fetch it and check the failing step."},
				{Type: providers.PartToolCall, ToolCall: &providers.ToolCall{ID: fmt.Sprint("call_", i), Name: "tavo_web_fetch", Arguments: `{"url":"https://example.com/log"}`}},
			}})
		case 2:
			batch = append(batch, providers.Message{Role: providers.RoleTool, Parts: []providers.Part{
				{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: fmt.Sprint("call_", i-1), Name: "tavo_web_fetch", Content: result}},
			}})
		}
		if len(batch) == 300 || i == n-1 {
			if _, err := s.AppendMessages(ctx(), id, "run_seed", i/3+1, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

// BenchSessionSendSetup is what `tavo session send` does with the store
// before its first model request, on a 10,000-message session: open a
// handle, read the session and its compaction, load the history, begin the
// run. Reported as ms/setup.
func BenchSessionSendSetup(b *testing.B, open BenchOpener) {
	h := open(b)
	s := h()
	Seed(b, s, "ses_bench", BenchMessages)
	s.Close()
	i := 0
	b.ResetTimer()
	var spent time.Duration
	for b.Loop() {
		i++
		t0 := time.Now()
		s := h()
		if _, err := s.GetSession(ctx(), "ses_bench"); err != nil {
			b.Fatal(err)
		}
		from := int64(1)
		if c, err := s.LatestCompaction(ctx(), "ses_bench"); err == nil && c != nil {
			from = c.KeptFromSeq
		}
		hist, err := s.History(ctx(), "ses_bench", from)
		if err != nil || len(hist) != BenchMessages {
			b.Fatal(len(hist), err)
		}
		l, err := s.BeginRun(ctx(), fmt.Sprint("run_", i), "ses_bench", store.RunMeta{})
		if err != nil {
			b.Fatal(err)
		}
		spent += time.Since(t0)
		b.StopTimer()
		l.Finish(ctx(), "completed", 0, nil)
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(spent.Microseconds())/1000/float64(i), "ms/setup")
}

// BenchReadMessagesPage is `tavo session read`'s newest 100-message page of
// a 10,000-message session, as ms/page.
func BenchReadMessagesPage(b *testing.B, open BenchOpener) {
	s := open(b)()
	defer s.Close()
	Seed(b, s, "ses_bench", BenchMessages)
	n := 0
	t0 := time.Now()
	for b.Loop() {
		n++
		m, err := s.ReadMessages(ctx(), "ses_bench", 0, 100)
		if err != nil || len(m) != 100 {
			b.Fatal(len(m), err)
		}
	}
	b.ReportMetric(float64(time.Since(t0).Microseconds())/1000/float64(n), "ms/page")
}

// BenchFollowLatency is the delay from Lease.Journal in one handle to
// FollowEvents handing the line over in another (`tavo runs events RUN
// --follow` on another process or machine), as ms/event: the journal's
// batching plus the follower's wake-up.
func BenchFollowLatency(b *testing.B, open BenchOpener) {
	h := open(b)
	writer, reader := h(), h()
	defer writer.Close()
	defer reader.Close()
	if _, err := writer.CreateSession(ctx(), "ses_f", "f"); err != nil {
		b.Fatal(err)
	}
	l, err := writer.BeginRun(ctx(), "run_f", "ses_f", store.RunMeta{})
	if err != nil {
		b.Fatal(err)
	}
	got := make(chan int64, 1)
	done := make(chan error, 1)
	go func() {
		done <- reader.FollowEvents(ctx(), "run_f", 0, 0, func(e store.EventRow) error {
			got <- e.Seq
			return nil
		})
	}()
	var seq int64
	var spent time.Duration
	for b.Loop() {
		seq++
		t0 := time.Now()
		l.Journal(seq, "x", []byte(`{"type":"x"}`))
		if s := <-got; s != seq {
			b.Fatalf("followed seq %d, want %d", s, seq)
		}
		spent += time.Since(t0)
	}
	l.Journal(seq+1, "run.completed", []byte(`{}`))
	<-got
	l.Finish(ctx(), "completed", 0, nil)
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(spent.Microseconds())/1000/float64(seq), "ms/event")
}

// BenchFileList is `tavo file ls`'s first page of 100 over 10,000 files in
// one scope (stored by the caller), as ms/page.
func BenchFileList(b *testing.B, s *files.Store) {
	n := 0
	t0 := time.Now()
	for b.Loop() {
		n++
		page, err := s.List(ctx(), files.Global(), files.ListOptions{Limit: 100})
		if err != nil || len(page.Files) != 100 {
			b.Fatal(len(page.Files), err)
		}
	}
	b.ReportMetric(float64(time.Since(t0).Microseconds())/1000/float64(n), "ms/page")
}

// BenchCancelLatency is the delay from RequestCancel in one handle to the
// run's Cancelled channel closing in another (`tavo runs cancel` reaching a
// run on another process or machine), as ms/cancel.
func BenchCancelLatency(b *testing.B, open BenchOpener) {
	h := open(b)
	runner, canceller := h(), h()
	defer runner.Close()
	defer canceller.Close()
	if _, err := runner.CreateSession(ctx(), "ses_c", "c"); err != nil {
		b.Fatal(err)
	}
	n := 0
	var spent time.Duration
	for b.Loop() {
		n++
		id := fmt.Sprint("run_c", n)
		l, err := runner.BeginRun(ctx(), id, "ses_c", store.RunMeta{})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		if err := canceller.RequestCancel(ctx(), id); err != nil {
			b.Fatal(err)
		}
		<-l.Cancelled()
		spent += time.Since(t0)
		b.StopTimer()
		l.Finish(ctx(), "cancelled", 130, nil)
		b.StartTimer()
	}
	b.ReportMetric(float64(spent.Microseconds())/1000/float64(n), "ms/cancel")
}
