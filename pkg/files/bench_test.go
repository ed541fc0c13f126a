package files

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchStore returns a store whose global scope holds n small files named
// with ext (no extension makes every listed file be sniffed).
func benchStore(b *testing.B, n int, ext string) *Store {
	b.Helper()
	dir := b.TempDir()
	gdir := filepath.Join(dir, "files", "global")
	if err := os.MkdirAll(gdir, 0o700); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if err := os.WriteFile(filepath.Join(gdir, fmt.Sprintf("file-%05d%s", i, ext)), []byte("some text\n"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return Open(dir)
}

// BenchmarkList10k measures one page over 10,000 files (SPEC §10: file ls
// over 10,000 files < 50 ms a page): the first page, a page from the middle
// through a cursor, and pages of files without extension, whose MIME type
// is sniffed from their content.
func BenchmarkList10k(b *testing.B) {
	ctx := context.Background()
	for _, ext := range []string{".txt", ""} {
		s := benchStore(b, 10_000, ext)
		kind := "ext"
		if ext == "" {
			kind = "sniffed"
		}
		for _, limit := range []int{100, 200} {
			b.Run(fmt.Sprintf("%s/first/limit=%d", kind, limit), func(b *testing.B) {
				for b.Loop() {
					page, err := s.List(ctx, Global(), ListOptions{Limit: limit})
					if err != nil || len(page.Files) != limit {
						b.Fatalf("%d files, %v", len(page.Files), err)
					}
				}
				reportPage(b)
			})
			mid, err := s.makeCursor(Global(), fmt.Sprintf("file-%05d%s", 4999, ext))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/middle/limit=%d", kind, limit), func(b *testing.B) {
				for b.Loop() {
					page, err := s.List(ctx, Global(), ListOptions{Limit: limit, Cursor: mid})
					if err != nil || len(page.Files) != limit {
						b.Fatalf("%d files, %v", len(page.Files), err)
					}
				}
				reportPage(b)
			})
		}
	}
}

// reportPage adds ms/page, the unit of the SPEC §10 target, for
// scripts/bench.sh.
func reportPage(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/page")
}
