package runner

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/builtin"
)

// BenchmarkRunnerRound measures the runner's own work per round (SPEC §10:
// < 5 ms): building the request, events, the tool dispatch and its envelope,
// against an in-memory provider that answers at once.
func BenchmarkRunnerRound(b *testing.B) {
	const rounds = 5
	cat, err := tools.NewCatalog(tools.NewToolSearch(), echoTool{name: "echo", resident: true})
	if err != nil {
		b.Fatal(err)
	}
	call := calls(providers.ToolCall{ID: "c", Name: "echo", Arguments: `{"x":1}`})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &scripted{}
		for r := 1; r < rounds; r++ {
			p.replies = append(p.replies, call)
		}
		p.replies = append(p.replies, text("done"))
		em := events.NewEmitter("run_b", "ses_b", nil, events.NewNDJSONWriter(discard{}))
		res := Run(context.Background(), Options{
			Provider: p, Model: "m", Prompt: user("hi"), Catalog: cat, ToolsEnabled: true, DynamicTools: true,
			// One round to spare: the last allowed round is sent with tool
			// calls off, which is not what this measures.
			Stream: true, Emitter: em, RunID: "run_b", SessionID: "ses_b", MaxRounds: rounds + 1,
			MaxToolCalls: config.DefaultMaxToolCalls, ToolTimeout: config.DefaultToolTimeout,
		})
		if res.Status != events.StatusCompleted {
			b.Fatalf("status %s", res.Status)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rounds)/1e6, "ms/round")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkFirstRequestBytes reports the size of the first request body with
// tools on and dynamic loading (SPEC §10: ≤ 5 KB).
func BenchmarkFirstRequestBytes(b *testing.B) {
	// The tools a default install offers: tool search, ask-user, tavo_read
	// and fetch resident, the rest behind tool search.
	fe, fs := &fetch.Engine{}, files.Open(b.TempDir())
	centre, err := resources.NewStandard(resources.Engines{Fetch: fe, Files: fs})
	if err != nil {
		b.Fatal(err)
	}
	cat, err := builtin.Catalog(builtin.Deps{Fetch: fe, Files: fs, Resources: centre}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var size int
	for i := 0; i < b.N; i++ {
		srv := fake.NewServer(b)
		srv.Enqueue(fake.Reply{Text: "ok"})
		em := events.NewEmitter("run_b", "ses_b", nil)
		Run(context.Background(), Options{
			Provider: openai.New(providers.Config{BaseURL: srv.URL, APIKey: "k"}), Model: "gpt-4.1",
			Prompt: user("What is on https://example.com today?"), Catalog: cat, ToolsEnabled: true, DynamicTools: true,
			Stream: true, Emitter: em, RunID: "run_b", SessionID: "ses_b",
			MaxRounds: config.DefaultMaxRounds, MaxToolCalls: config.DefaultMaxToolCalls, ToolTimeout: config.DefaultToolTimeout,
		})
		size = len(srv.Requests()[0].Body)
		srv.Close()
	}
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkDeltaToStdout measures the delay from an SSE chunk leaving the
// server to its text.delta line being readable on the other end of a pipe
// standing in for stdout (SPEC §10: < 1 ms).
func BenchmarkDeltaToStdout(b *testing.B) {
	next := make(chan struct{})
	sent := make(chan time.Time, 1)
	chunk := func(s string) string {
		return fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%q},"finish_reason":null}]}`+"\n\n", s)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for range next {
			sent <- time.Now()
			fmt.Fprint(w, chunk("x"))
			fl.Flush()
		}
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
		fl.Flush()
	}))
	defer srv.Close()

	pr, pw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer pr.Close()
	lines := bufio.NewReader(pr)
	em := events.NewEmitter("run_b", "ses_b", nil, events.NewNDJSONWriter(pw))
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(context.Background(), Options{
			Provider: openai.New(providers.Config{BaseURL: srv.URL, APIKey: "k"}), Model: "m",
			Prompt: user("hi"), Stream: true, Emitter: em, RunID: "run_b", SessionID: "ses_b",
			MaxRounds: config.DefaultMaxRounds, MaxToolCalls: config.DefaultMaxToolCalls, ToolTimeout: config.DefaultToolTimeout,
		})
		pw.Close()
	}()
	readDelta := func() {
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				b.Fatalf("stdout ended: %v", err)
			}
			if strings.Contains(line, `"type":"text.delta"`) {
				return
			}
		}
	}
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next <- struct{}{}
		t0 := <-sent
		readDelta()
		total += time.Since(t0)
	}
	b.StopTimer()
	close(next)
	go func() { _, _ = lines.WriteTo(discard{}) }()
	<-done
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/delta")
}
