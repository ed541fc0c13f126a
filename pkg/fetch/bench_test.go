package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"sync"
	"testing"

	"github.com/tavo-cli/tavo/pkg/fetch/fetchtest"
)

func BenchmarkConvert(b *testing.B) {
	page, _ := url.Parse("https://example.com/articles/bench")
	inputs := map[string][]byte{
		"synthetic-1MiB":  fetchtest.SyntheticPage(1 << 20),
		"synthetic-24MiB": fetchtest.SyntheticPage(24 << 20),
	}
	pages := fetchtest.CorpusPages(fetchtest.CorpusDir())
	for _, p := range pages[:min(4, len(pages))] {
		inputs["real-"+p.Name] = p.Source
	}
	if c := fetchtest.ConcatPages(pages, 24<<20); len(c) > 0 {
		inputs["real-concat-24MiB"] = c
	}
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	c := NewConverter()
	for _, mode := range []Extract{ExtractFull, ExtractAuto} {
		for _, name := range names {
			src := inputs[name]
			b.Run(string(mode)+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Convert(context.Background(), src, "text/html; charset=utf-8", page, mode); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// gzipBomb is 1 GiB of zeros, gzip-compressed once per process.
var gzipBomb = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = io.Copy(w, io.LimitReader(zeros{}, 1<<30))
	_ = w.Close()
	return buf.Bytes()
})

// BenchmarkGzipBomb measures how long the engine takes to refuse a 1 GiB
// gzip bomb served as HTML (stopped at the 40 MiB decompressed limit), and
// what it allocates doing so.
func BenchmarkGzipBomb(b *testing.B) {
	bomb := gzipBomb()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb)
	}))
	defer s.Close()
	e := &Engine{}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_, err := e.Fetch(context.Background(), Request{URL: s.URL})
		if fe, ok := err.(*Error); !ok || fe.Limit != LimitDecoded {
			b.Fatalf("err = %v, want the decompressed limit", err)
		}
	}
	b.ReportMetric(float64(len(bomb)), "wire-bytes")
}
