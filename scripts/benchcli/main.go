// Command benchcli times whole tavo processes for scripts/bench.sh: startup
// of `tavo version` and `tavo tools list`, and a 2-round, 1-tool-call run
// against a zero-latency fake provider. It prints one tab-separated line per
// measurement: name, median milliseconds, runs.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
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
		med, err := median(n, func() error { return quiet(tavo, env, m.args...) })
		if err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
		fmt.Printf("%s\t%.2f\t%d\n", m.name, med, n)
	}

	srv := fake.NewServer(nil)
	defer srv.Close()
	for i := 0; i <= n; i++ { // n runs plus the warm-up
		srv.Enqueue(
			fake.Reply{ToolCalls: []fake.ToolCall{{ID: "c1", Name: "tavo_tool_search", Arguments: `{"query":"files"}`}}},
			fake.Reply{Text: "done", Usage: &fake.Usage{InputTokens: 50, OutputTokens: 2}},
		)
	}
	runEnv := append(env, "OPENAI_API_KEY=sk-bench", "OPENAI_BASE_URL="+srv.URL)
	med, err := median(n, func() error { return quiet(tavo, runEnv, "run", "-T", "-m", "gpt-4.1", "find files") })
	if err != nil {
		return fmt.Errorf("2-round run: %w", err)
	}
	fmt.Printf("2-round 1-tool run\t%.2f\t%d\n", med, n)
	return nil
}

func quiet(bin string, env []string, args ...string) error {
	c := exec.Command(bin, args...)
	c.Env = env
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}

// median runs f n times (after one warm-up) and returns the median in ms.
func median(n int, f func() error) (float64, error) {
	if err := f(); err != nil {
		return 0, err
	}
	ds := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		ds = append(ds, float64(time.Since(t0).Microseconds())/1000)
	}
	sort.Float64s(ds)
	return ds[len(ds)/2], nil
}
