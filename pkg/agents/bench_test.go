package agents_test

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/agents"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/fake"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
	"github.com/tavo-cli/tavo/pkg/runner"
	"github.com/tavo-cli/tavo/pkg/session"
	"github.com/tavo-cli/tavo/pkg/store"
)

// runTree runs one root run over p and st, as `tavo run` does.
func runTree(b testing.TB, st *store.Store, p providers.Provider, limits agents.Limits, prompt string) *runner.Result {
	ctx := context.Background()
	bd, err := session.Bind(ctx, st, session.BindOptions{Prompt: prompt})
	if err != nil {
		b.Fatal(err)
	}
	o := runner.Options{
		Provider: p, Model: "gpt-4.1", Prompt: providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: prompt}}},
		Catalog: catalog(b), ToolsEnabled: true, MaxRounds: 16, MaxToolCalls: 32, ToolTimeout: time.Minute, Stream: true,
	}
	bd.Configure(&o)
	o.Emitter = events.NewEmitter(o.RunID, o.SessionID, nil, bd)
	res := runner.Run(agents.Root(ctx, &o, agents.RootOptions{Store: st, Limits: limits}), o)
	if err := bd.Finish(ctx, res); err != nil {
		b.Fatal(err)
	}
	return res
}

// BenchmarkAsyncChildren is SPEC §10's sub-agent line: a root run that
// starts n async children at once and waits for them, against the
// zero-latency fake over HTTP. 4 children should take at most 1.5× the
// time of one. The latency=20ms cases answer every request 20 ms late, as
// a model does (far later): they show the children's requests overlap
// whatever the cores, where the zero-latency cases measure tavo's own CPU.
func BenchmarkAsyncChildren(b *testing.B) {
	for _, c := range []struct {
		n       int
		latency time.Duration
	}{{1, 0}, {4, 0}, {1, 20 * time.Millisecond}, {4, 20 * time.Millisecond}} {
		n := c.n
		name := fmt.Sprintf("children=%d", n)
		if c.latency > 0 {
			name = fmt.Sprintf("latency=%v/children=%d", c.latency, n)
		}
		b.Run(name, func(b *testing.B) {
			st, err := store.Open(context.Background(), b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			spawn := fake.Reply{}
			for i := 0; i < n; i++ {
				spawn.ToolCalls = append(spawn.ToolCalls, fake.ToolCall{ID: fmt.Sprintf("c%d", i), Name: agents.SpawnName,
					Arguments: fmt.Sprintf(`{"title":"Part %d","instruction":"Summarise part %d of the report"}`, i, i)})
			}
			var walls []time.Duration
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				srv := fake.NewServer(nil)
				// Zero latency means the fake costs nothing: its schema
				// check of each request (the conformance tests' job) would
				// run on this process's cores, beside the tree it times.
				srv.Lax()
				first := spawn
				first.Delay = fake.Duration(c.latency)
				srv.Enqueue(first)
				for j := 0; j < n+3; j++ {
					srv.Enqueue(fake.Reply{Text: "Done: the part says what it should.", Delay: fake.Duration(c.latency)})
				}
				p := openai.New(providers.Config{BaseURL: srv.URL, APIKey: "k"})
				b.StartTimer()
				t0 := time.Now()
				res := runTree(b, st, p, agents.Limits{MaxDepth: 2, MaxRunning: 4, MaxPerRun: 16}, "Summarise the report in parts")
				walls = append(walls, time.Since(t0))
				b.StopTimer()
				if res.Status != events.StatusCompleted {
					b.Fatalf("run %s: %+v", res.Status, res.Err)
				}
				srv.Close()
				b.StartTimer()
			}
			// The median and 90th percentile of a tree's wall time (the
			// mean, ns/op, carries the machine's hiccups: a WAL
			// checkpoint's fsync, a GC cycle).
			// The CPU the whole process spent (the fake server's included):
			// on a busy machine the ratio of this, not of the wall time,
			// says what a tree costs.
			slices.Sort(walls)
			b.ReportMetric(float64(walls[len(walls)/2])/1e6, "p50-ms")
			b.ReportMetric(float64(walls[len(walls)*9/10])/1e6, "p90-ms")
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTreeRSS runs a root that starts 16 async children, four at a
// time (the most per root run, [subagents] max_per_run), or one child, and
// reports the process's peak RSS. Run each alone (-bench
// 'TreeRSS/children=16$'): the peak is the whole process's.
func BenchmarkTreeRSS(b *testing.B) {
	b.Run("children=1", func(b *testing.B) { treeRSS(b, 1, 1) })
	b.Run("children=16", func(b *testing.B) { treeRSS(b, 4, 4) })
}

func treeRSS(b *testing.B, batches, size int) {
	st, err := store.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for i := 0; i < b.N; i++ {
		r := newRouter()
		var steps []step
		for batch := 0; batch < batches; batch++ {
			gate := make(chan struct{})
			var calls [][2]string
			for k := 0; k < size; k++ {
				task := fmt.Sprintf("task %d.%d", batch, k)
				calls = append(calls, spawnArgs(fmt.Sprintf("Part %d.%d", batch, k), task, "async"))
				r.on(task, after(gate, say("Part done.")))
			}
			steps = append(steps, call(calls...), func(ctx context.Context, req *providers.Request) (*providers.Response, error) {
				close(gate)
				return say("waiting")(ctx, req)
			})
		}
		r.on(fmt.Sprintf("root %d", i), append(steps, say("all done"))...)
		res := runTree(b, st, r, agents.Limits{MaxDepth: 2, MaxRunning: 4, MaxPerRun: 16}, fmt.Sprintf("root %d", i))
		if res.Status != events.StatusCompleted || len(res.Messages) == 0 {
			b.Fatalf("run %s: %+v", res.Status, res.Err)
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
	}
}
