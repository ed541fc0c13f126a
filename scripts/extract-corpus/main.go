// Command extract-corpus scores tavo's main-content extraction on the
// extract-corpus test set (../shared/extract-corpus beside the repository):
// 990 real pages, each with snippets of main content an extractor must keep
// and snippets of boilerplate it must drop. The rules are the corpus
// README's (trafilatura's own): every page is served on 127.0.0.1 and
// fetched through the real engine (pkg/fetch) in each mode; the Markdown is
// stripped to its text, white space is normalised, and the first 6 snippets
// of each side are looked up as substrings. Counts are pooled over pages.
//
//	go run ./scripts/extract-corpus                     # summary per mode
//	go run ./scripts/extract-corpus -tsv out.tsv        # plus one line per page and mode
//	go run ./scripts/extract-corpus -rows               # tab-separated summary (scripts/bench.sh)
//	go run ./scripts/extract-corpus -corpus DIR -modes auto,main
//	go run ./scripts/extract-corpus -out /tmp/md -pages ID  # plus the Markdown, as out/ID.mode.md
//
// The per-page TSV (id, mode, tp, fn, fp, tn, ms) is sorted, so two runs can
// be compared with diff or join to find the pages a change moved.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	readability "codeberg.org/readeck/go-readability/v2"
	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html/charset"

	"github.com/tavo-cli/tavo/pkg/fetch"
)

// defaultCorpus is where CI and the lead's checkout keep the corpus: the
// project's shared folder beside the repository.
const defaultCorpus = "../shared/extract-corpus"

// maxSnippets is how many snippets of each side count per page.
const maxSnippets = 6

// baseline is the column for go-readability v2 + html-to-markdown v2, the
// reference the issue compares with; it is not a tavo mode.
const baseline = "readability"

func main() {
	dir := flag.String("corpus", defaultCorpus, "corpus directory (cases.json and pages/ID.html.gz); relative to the repository root")
	modes := flag.String("modes", "auto,main,full,"+baseline, "comma-separated columns: tavo modes and "+baseline+" (go-readability + html-to-markdown)")
	tsv := flag.String("tsv", "", "write one line per page and mode to this file")
	rows := flag.Bool("rows", false, "print the summary as tab-separated rows: mode, F1, precision, recall, ms/page")
	explain := flag.Bool("explain", false, "print, per page and mode, the snippets missed (FN) and the boilerplate kept (FP)")
	only := flag.String("pages", "", "comma-separated page IDs to score (default: all)")
	out := flag.String("out", "", "write each page's Markdown to this directory, as ID.mode.md")
	flag.Parse()
	o := options{dir: *dir, modes: strings.Split(*modes, ","), tsv: *tsv, out: *out, rows: *rows, explain: *explain}
	if *only != "" {
		o.pages = strings.Split(*only, ",")
	}
	if err := run(context.Background(), o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "extract-corpus:", err)
		os.Exit(1)
	}
}

// testCase is one page of cases.json.
type testCase struct {
	ID      string   `json:"id"`
	URL     string   `json:"url"`
	With    []string `json:"with"`
	Without []string `json:"without"`
}

// counts are the confusion counts of one page (or of many, pooled).
type counts struct{ tp, fn, fp, tn int }

func (c *counts) add(o counts) { c.tp += o.tp; c.fn += o.fn; c.fp += o.fp; c.tn += o.tn }

func (c counts) precision() float64 { return ratio(c.tp, c.tp+c.fp) }
func (c counts) recall() float64    { return ratio(c.tp, c.tp+c.fn) }
func (c counts) f1() float64        { return ratio(2*c.tp, 2*c.tp+c.fp+c.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func loadCases(dir string) ([]testCase, error) {
	b, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("the corpus is missing: no %s (put the project's shared folder beside the repository, or pass -corpus DIR)", filepath.Join(dir, "cases.json"))
		}
		return nil, fmt.Errorf("read the corpus: %w", err)
	}
	var cases []testCase
	if err := json.Unmarshal(b, &cases); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, "cases.json"), err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("the corpus at %s has no cases", dir)
	}
	return cases, nil
}

// score counts the snippets of c found in text, plain text already
// normalised; the snippets missed and the boilerplate kept are returned
// for -explain.
func score(c testCase, text string) (counts, []string) {
	var k counts
	var wrong []string
	for _, s := range c.With[:min(len(c.With), maxSnippets)] {
		if strings.Contains(text, normalize(s)) {
			k.tp++
		} else {
			k.fn++
			wrong = append(wrong, "FN "+s)
		}
	}
	for _, s := range c.Without[:min(len(c.Without), maxSnippets)] {
		if i := strings.Index(text, normalize(s)); i >= 0 {
			k.fp++
			// Where in the output it sits (0–100%): boilerplate kept at
			// the top or the end of an article calls for different rules.
			wrong = append(wrong, fmt.Sprintf("FP %3d%% %s", 100*i/max(len(text), 1), s))
		} else {
			k.tn++
		}
	}
	return k, wrong
}

// options are the command line.
type options struct {
	dir, tsv, out string
	modes, pages  []string
	rows, explain bool
}

// normalize collapses every run of white space (Unicode's, as Python's
// str.split does) to one space.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// server serves pages/ID.html.gz gzip-encoded at /ID, as a site would.
func server(dir string) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("listen on 127.0.0.1: %w", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strings.TrimPrefix(r.URL.Path, "/")
		if strings.ContainsAny(id, "/.") {
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile(filepath.Join(dir, "pages", id+".html.gz"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(b)
	})}
	go func() { _ = srv.Serve(ln) }()
	return srv, "http://" + ln.Addr().String(), nil
}

// result is one page in one column.
type result struct {
	id, mode string
	k        counts
	ms       float64
}

func run(ctx context.Context, o options, w io.Writer) error {
	dir, modes := o.dir, o.modes
	cases, err := loadCases(dir)
	if err != nil {
		return err
	}
	if len(o.pages) > 0 {
		keep := map[string]bool{}
		for _, id := range o.pages {
			keep[id] = true
		}
		var sel []testCase
		for _, c := range cases {
			if keep[c.ID] {
				sel = append(sel, c)
			}
		}
		if len(sel) == 0 {
			return fmt.Errorf("none of the pages %s is in the corpus", strings.Join(o.pages, ","))
		}
		cases = sel
	}
	for _, m := range modes {
		if m == baseline {
			continue
		}
		if _, err := fetch.ParseExtract(m); err != nil || m == "" {
			return fmt.Errorf("unknown mode %q: use auto, main, full or %s", m, baseline)
		}
	}
	if o.out != "" {
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return fmt.Errorf("create the Markdown directory: %w", err)
		}
	}
	srv, base, err := server(dir)
	if err != nil {
		return err
	}
	defer srv.Close()

	engine := &fetch.Engine{}
	client := &http.Client{Timeout: 30 * time.Second}
	var results []result
	for _, c := range cases {
		u := base + "/" + c.ID
		for _, m := range modes {
			start := time.Now()
			var md string
			if m == baseline {
				md, err = readabilityMarkdown(ctx, client, u)
			} else {
				var doc *fetch.Document
				doc, err = engine.Fetch(ctx, fetch.Request{URL: u, Extract: fetch.Extract(m)})
				if doc != nil {
					md = doc.Markdown
				}
			}
			ms := float64(time.Since(start).Microseconds()) / 1000
			if err != nil {
				// A page the extractor fails on keeps nothing.
				fmt.Fprintf(os.Stderr, "extract-corpus: %s %s: %v\n", c.ID, m, err)
			}
			if o.out != "" {
				if err := os.WriteFile(filepath.Join(o.out, c.ID+"."+m+".md"), []byte(md), 0o644); err != nil {
					return fmt.Errorf("write the Markdown: %w", err)
				}
			}
			k, wrong := score(c, normalize(plainText(md)))
			if o.explain && len(wrong) > 0 {
				fmt.Fprintf(w, "%s %s (%s)\n", c.ID, m, c.URL)
				for _, s := range wrong {
					fmt.Fprintf(w, "\t%s\n", s)
				}
			}
			results = append(results, result{c.ID, m, k, ms})
		}
	}
	if o.tsv != "" {
		if err := writeTSV(o.tsv, results); err != nil {
			return err
		}
	}
	return summary(w, dir, len(cases), modes, results, o.rows)
}

// readabilityMarkdown is the baseline: the body decoded to UTF-8 by its
// labels, go-readability v2, then html-to-markdown v2's defaults.
func readabilityMarkdown(ctx context.Context, client *http.Client, u string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	r, err := charset.NewReader(bytes.NewReader(body), resp.Header.Get("Content-Type"))
	if err != nil {
		return "", err
	}
	article, err := readability.FromReader(r, resp.Request.URL)
	if err != nil || article.Node == nil {
		return "", err
	}
	md, err := htmltomarkdown.ConvertNode(article.Node, converter.WithDomain(u))
	return string(md), err
}

func writeTSV(path string, results []result) error {
	sorted := append([]result(nil), results...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].id != sorted[j].id {
			return sorted[i].id < sorted[j].id
		}
		return sorted[i].mode < sorted[j].mode
	})
	var b bytes.Buffer
	b.WriteString("id\tmode\ttp\tfn\tfp\ttn\tms\n")
	for _, r := range sorted {
		fmt.Fprintf(&b, "%s\t%s\t%d\t%d\t%d\t%d\t%.1f\n", r.id, r.mode, r.k.tp, r.k.fn, r.k.fp, r.k.tn, r.ms)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write the per-page scores: %w", err)
	}
	return nil
}

func summary(w io.Writer, dir string, pages int, modes []string, results []result, rows bool) error {
	pooled := map[string]*counts{}
	ms := map[string]float64{}
	for _, m := range modes {
		pooled[m] = &counts{}
	}
	for _, r := range results {
		pooled[r.mode].add(r.k)
		ms[r.mode] += r.ms
	}
	if rows {
		for _, m := range modes {
			k := pooled[m]
			fmt.Fprintf(w, "%s\t%.3f\t%.3f\t%.3f\t%.2f\n", m, k.f1(), k.precision(), k.recall(), ms[m]/float64(pages))
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "corpus\t%s (%d pages)\n\n", dir, pages)
	fmt.Fprintln(tw, "mode\tF1\tprecision\trecall\tms/page\tTP\tFN\tFP\tTN")
	for _, m := range modes {
		k := pooled[m]
		name := m
		if m == baseline {
			name = "go-readability + html-to-markdown"
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%.2f\t%d\t%d\t%d\t%d\n", name, k.f1(), k.precision(), k.recall(), ms[m]/float64(pages), k.tp, k.fn, k.fp, k.tn)
	}
	return tw.Flush()
}
