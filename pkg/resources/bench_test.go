package resources

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkWorkspacePages reads a 100 MiB workspace file page by page
// through continue URLs, as a model would (SPEC §11, issue 15: each page
// < 5 ms, peak RSS < 50 MiB). One iteration is one page; ms/page and the
// process's peak RSS are reported for scripts/bench.sh.
func BenchmarkWorkspacePages(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "big.txt")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	line := []byte("the quick brown fox jumps over the lazy dog — 漢字 😀\n")
	chunk := bytes.Repeat(line, (1<<20)/len(line))
	for written := 0; written < 100<<20; written += len(chunk) {
		if _, err := f.Write(chunk); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	ws, err := Workspace(dir)
	if err != nil {
		b.Fatal(err)
	}
	c := New(nil)
	c.Set(ws)
	ctx := context.Background()
	url := "workspace://big.txt"
	pages := 0
	b.ResetTimer()
	for b.Loop() {
		r, err := c.Read(ctx, Request{URL: url})
		if err != nil {
			b.Fatal(err)
		}
		pages++
		url = r.(*Text).Continue
		if url == "" {
			url = "workspace://big.txt"
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/page")
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "MiB-peak-rss")
	}
}
