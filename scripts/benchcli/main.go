// Command benchcli times whole tavo processes for scripts/bench.sh: startup
// of `tavo version` and `tavo tools list`, the time from process start to the
// first model request, and a 2-round, 1-tool-call run against a zero-latency
// fake provider (its wall time and peak RSS). It prints one tab-separated
// line per measurement: name, median value, unit, runs.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers/fake"
)

func main() {
	tavo := flag.String("tavo", "./tavo", "tavo binary to time")
	n := flag.Int("n", 30, "runs per measurement")
	flag.Parse()
	if err := run(*tavo, *n); err != nil {
		fmt.Fprintf(os.Stderr, "benchcli: %v\n", err)
		os.Exit(1)
	}
}

func run(tavo string, n int) error {
	dir, err := os.MkdirTemp("", "tavo-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env := append(os.Environ(), "TAVO_CONFIG="+dir+"/config.toml", "TAVO_DATA_DIR="+dir+"/data")

	for _, m := range []struct {
		name string
		args []string
	}{
		{"tavo version", []string{"version"}},
		{"tavo tools list", []string{"tools", "list"}},
	} {
		med, err := median(n, func() (float64, error) { return timed(tavo, env, m.args...) })
		if err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
		fmt.Printf("%s\t%.2f\tms\t%d\n", m.name, med, n)
	}

	srv := fake.NewServer(nil)
	defer srv.Close()
	// The fake writes each request to its recorder as it arrives; the first
	// write of a process is its first model request.
	first := &arrival{}
	srv.RecordTo(first)

	runEnv := append(env, "OPENAI_API_KEY=sk-bench", "OPENAI_BASE_URL="+srv.URL)
	args := []string{"run", "-T", "-m", "gpt-4.1", "find files"}
	var toFirst, rss []float64
	med, err := median(n, func() (float64, error) {
		srv.Enqueue(
			fake.Reply{ToolCalls: []fake.ToolCall{{ID: "c1", Name: "tavo_tool_search", Arguments: `{"query":"files"}`}}},
			fake.Reply{Text: "done", Usage: &fake.Usage{InputTokens: 50, OutputTokens: 2}},
		)
		first.reset()
		c := exec.Command(tavo, args...)
		c.Env = runEnv
		t0 := time.Now()
		out, err := c.CombinedOutput()
		total := time.Since(t0)
		if err != nil {
			return 0, fmt.Errorf("%w: %s", err, out)
		}
		toFirst = append(toFirst, ms(first.at().Sub(t0)))
		if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = append(rss, float64(ru.Maxrss)/1024) // KiB → MiB
		}
		return ms(total), nil
	})
	if err != nil {
		return fmt.Errorf("2-round run: %w", err)
	}
	fmt.Printf("first model request\t%.2f\tms\t%d\n", mid(toFirst[1:]), n)
	fmt.Printf("2-round 1-tool run\t%.2f\tms\t%d\n", med, n)
	if len(rss) > 1 {
		fmt.Printf("2-round 1-tool run peak RSS\t%.1f\tMiB\t%d\n", mid(rss[1:]), n)
	}
	return nil
}

// arrival is an io.Writer that remembers when it was first written to.
type arrival struct {
	mu    sync.Mutex
	first time.Time
}

func (a *arrival) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.first.IsZero() {
		a.first = time.Now()
	}
	return len(p), nil
}

func (a *arrival) reset() {
	a.mu.Lock()
	a.first = time.Time{}
	a.mu.Unlock()
}

func (a *arrival) at() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.first
}

func timed(bin string, env []string, args ...string) (float64, error) {
	c := exec.Command(bin, args...)
	c.Env = env
	t0 := time.Now()
	if out, err := c.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("%w: %s", err, out)
	}
	return ms(time.Since(t0)), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// median runs f n times after one warm-up and returns the median of the
// values f measured.
func median(n int, f func() (float64, error)) (float64, error) {
	if _, err := f(); err != nil {
		return 0, err
	}
	vs := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		v, err := f()
		if err != nil {
			return 0, err
		}
		vs = append(vs, v)
	}
	return mid(vs), nil
}

func mid(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
