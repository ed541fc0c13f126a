// Command fetch-bench measures the fetch engine for scripts/bench-fetch.sh,
// one measurement per process so peak memory is the measurement's own:
//
//	fetch-bench page -kind concat|synthetic -size N -o FILE   write a test page
//	fetch-bench convert [-extract full] FILE...               conversion MB/s per file
//	fetch-bench rss [-extract auto] FILE                      fetch FILE (served gzipped) and report peak RSS
//	fetch-bench bomb                                          time to refuse a 1 GiB gzip bomb
//
// Every page is served from a local server; nothing leaves the machine.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"syscall"
	"time"

	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/fetch/fetchtest"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fetch-bench page|convert|rss|bomb [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "page":
		err = pageCmd(os.Args[2:])
	case "convert":
		err = convertCmd(os.Args[2:])
	case "rss":
		err = rssCmd(os.Args[2:])
	case "bomb":
		err = bombCmd()
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fetch-bench:", err)
		os.Exit(1)
	}
}

func pageCmd(args []string) error {
	fs := flag.NewFlagSet("page", flag.ExitOnError)
	kind := fs.String("kind", "concat", "concat (real-world corpus pages joined) or synthetic")
	size := fs.Int("size", fetch.DefaultHTMLBytes, "bytes at most")
	out := fs.String("o", "", "output file")
	_ = fs.Parse(args)
	var src []byte
	switch *kind {
	case "concat":
		src = fetchtest.ConcatPages(fetchtest.CorpusPages(fetchtest.CorpusDir()), *size)
		if src == nil {
			return errors.New("the go-readability test pages are not in the module cache")
		}
	case "synthetic":
		src = fetchtest.SyntheticPage(*size - 4096)
	default:
		return fmt.Errorf("unknown kind %q", *kind)
	}
	return os.WriteFile(*out, src, 0o644)
}

func convertCmd(args []string) error {
	fs := flag.NewFlagSet("convert", flag.ExitOnError)
	extract := fs.String("extract", "full", "auto, main or full")
	runs := fs.Int("n", 3, "runs per file; the fastest counts")
	_ = fs.Parse(args)
	conv := fetch.NewConverter()
	page, _ := url.Parse("https://example.com/bench")
	for _, f := range fs.Args() {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		best := time.Duration(1<<63 - 1)
		var md int
		for range *runs {
			start := time.Now()
			c, err := conv.Convert(context.Background(), src, "text/html; charset=utf-8", page, fetch.Extract(*extract))
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			best = min(best, time.Since(start))
			md = len(c.Markdown)
		}
		fmt.Printf("%s\t%d\t%d\t%.3f\t%.1f\n", f, len(src), md, best.Seconds(), float64(len(src))/best.Seconds()/1e6)
	}
	return nil
}

func rssCmd(args []string) error {
	fs := flag.NewFlagSet("rss", flag.ExitOnError)
	extract := fs.String("extract", "auto", "auto, main or full")
	_ = fs.Parse(args)
	src, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(src)
	_ = zw.Close()
	size := len(src)
	src = nil
	s := serveBytes("text/html; charset=utf-8", gz.Bytes())
	defer s.Close()
	start := time.Now()
	doc, err := (&fetch.Engine{}).Fetch(context.Background(), fetch.Request{URL: s.URL, Extract: fetch.Extract(*extract)})
	fmt.Printf("page\t%d bytes (%d gzipped)\n", size, gz.Len())
	if err != nil {
		// A refusal is a result too: its memory is measured all the same.
		fmt.Printf("error\t%v\n", err)
	} else {
		fmt.Printf("markdown\t%d bytes\n", len(doc.Markdown))
	}
	fmt.Printf("seconds\t%.2f\npeak_rss_mb\t%.1f\n", time.Since(start).Seconds(), peakRSSMB())
	return nil
}

func bombCmd() error {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range 1024 {
		_, _ = zw.Write(zero)
	}
	_ = zw.Close()
	s := serveBytes("text/html", gz.Bytes())
	defer s.Close()
	start := time.Now()
	_, err := (&fetch.Engine{}).Fetch(context.Background(), fetch.Request{URL: s.URL})
	elapsed := time.Since(start)
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Code != fetch.CodeLimitExceeded {
		return fmt.Errorf("the bomb was not refused with limit_exceeded: %v", err)
	}
	fmt.Printf("bomb\t1 GiB of zeros, %d bytes gzipped\nerror\t%s\nseconds\t%.3f\npeak_rss_mb\t%.1f\n", gz.Len(), fe.Message, elapsed.Seconds(), peakRSSMB())
	return nil
}

func serveBytes(contentType string, gz []byte) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = io.Copy(w, bytes.NewReader(gz))
	}))
}

// peakRSSMB is the process's peak resident set size (Linux reports KiB).
func peakRSSMB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return float64(ru.Maxrss) / 1024
}
