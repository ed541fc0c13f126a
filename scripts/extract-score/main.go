// Command extract-score measures how well tavo's HTML extraction keeps an
// article's text: for every page of a corpus (a directory of page
// directories, each with source.html and expected.html) it converts the
// source with --extract main, auto and full, strips the Markdown to words,
// and scores those words against the text of expected.html with token-level
// precision, recall and F1 (bags of words, macro-averaged over pages).
//
// The default corpus is the test-pages directory of the go-readability
// module in the Go module cache:
//
//	go run ./scripts/extract-score            # summary
//	go run ./scripts/extract-score -v         # plus one line per page
//	go run ./scripts/extract-score -pages DIR # another corpus, same layout
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/fetch/fetchtest"
)

// pageURL is the URL the corpus was made with.
const pageURL = "http://fakehost/test/page.html"

func main() {
	pages := flag.String("pages", "", "corpus directory (default: the go-readability test-pages in the module cache)")
	verbose := flag.Bool("v", false, "print one line per page")
	flag.Parse()
	if err := run(*pages, *verbose, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "extract-score:", err)
		os.Exit(1)
	}
}

// modes are the columns scored; "readability" is go-readability's own text
// output, the reference the corpus was made with.
var modes = []string{"main", "auto", "full", "readability"}

type score struct{ p, r, f float64 }

func run(dir string, verbose bool, w io.Writer) error {
	if dir == "" {
		var err error
		if dir, err = defaultCorpus(); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read the corpus: %w", err)
	}
	base, _ := url.Parse(pageURL)
	conv := fetch.NewConverter()
	ctx := context.Background()

	sums := map[string]score{}
	autoMain, n := 0, 0
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if verbose {
		fmt.Fprintln(tw, "page\tmain F1\tauto F1\tauto kept\tfull F1")
	}
	for _, e := range entries {
		src, err1 := os.ReadFile(filepath.Join(dir, e.Name(), "source.html"))
		want, err2 := os.ReadFile(filepath.Join(dir, e.Name(), "expected.html"))
		if !e.IsDir() || err1 != nil || err2 != nil {
			continue
		}
		gold := words(htmlText(want))
		row := map[string]score{}
		var kept fetch.Extract
		for _, m := range modes[:3] {
			c, err := conv.Convert(ctx, src, "text/html", base, fetch.Extract(m))
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name(), err)
			}
			if m == "auto" {
				kept = c.Extracted
			}
			row[m] = compare(words(markdownText(c.Markdown)), gold)
		}
		row["readability"] = compare(words(readabilityText(src, base)), gold)
		for m, s := range row {
			t := sums[m]
			sums[m] = score{t.p + s.p, t.r + s.r, t.f + s.f}
		}
		if kept == fetch.ExtractMain {
			autoMain++
		}
		n++
		if verbose {
			fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%s\t%.3f\n", e.Name(), row["main"].f, row["auto"].f, kept, row["full"].f)
		}
	}
	if n == 0 {
		return fmt.Errorf("no page directories with source.html and expected.html in %s", dir)
	}
	if verbose {
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(tw, "corpus\t%s (%d pages)\n", dir, n)
	fmt.Fprintf(tw, "auto kept main content on\t%d of %d pages\n\n", autoMain, n)
	fmt.Fprintln(tw, "mode\tprecision\trecall\tF1")
	for _, m := range modes {
		s := sums[m]
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\n", m, s.p/float64(n), s.r/float64(n), s.f/float64(n))
	}
	return tw.Flush()
}

func defaultCorpus() (string, error) {
	dir := fetchtest.CorpusDir()
	if dir == "" {
		return "", fmt.Errorf("the go-readability test pages are not in the module cache (go mod download %s)", strings.Split(fetchtest.CorpusModule, "@")[0])
	}
	return dir, nil
}

func readabilityText(src []byte, base *url.URL) string {
	a, err := readability.FromReader(bytes.NewReader(src), base)
	if err != nil || a.Node == nil {
		return ""
	}
	var b strings.Builder
	_ = a.RenderText(&b)
	return b.String()
}

// compare scores predicted words against gold words as bags: a word counts
// as often as it occurs in both.
func compare(pred, gold []string) score {
	if len(pred) == 0 && len(gold) == 0 {
		return score{1, 1, 1}
	}
	counts := map[string]int{}
	for _, t := range gold {
		counts[t]++
	}
	common := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			common++
		}
	}
	var s score
	if len(pred) > 0 {
		s.p = float64(common) / float64(len(pred))
	}
	if len(gold) > 0 {
		s.r = float64(common) / float64(len(gold))
	}
	if s.p+s.r > 0 {
		s.f = 2 * s.p * s.r / (s.p + s.r)
	}
	return s
}
