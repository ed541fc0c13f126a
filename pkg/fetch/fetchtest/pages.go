// Package fetchtest provides pages for tests and benchmarks of the fetch
// engine: a generated article of any size, the real-world pages of the
// go-readability test corpus when the module cache holds them, and a large
// page made by joining those.
package fetchtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// CorpusModule is the module whose test-pages directory is the corpus.
const CorpusModule = "codeberg.org/readeck/go-readability/v2@v2.1.3"

// SyntheticPage builds a realistic article page of about size bytes, dense
// in markup: site chrome, inline scripts and styles, then headings,
// paragraphs with links and emphasis, lists, tables, code and figures.
func SyntheticPage(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 4096)
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>Synthetic article</title>
<style>.nav{display:flex}.card{margin:0 auto;padding:1em}</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}</script></head><body>
<nav class="nav"><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav><main><article>`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<h2 id="s%d">Section %d: measuring converters</h2>`, i, i)
		for j := range 4 {
			fmt.Fprintf(&b, `<p>Paragraph %d.%d discusses <a href="/wiki/Topic_%d">topic %d</a> with <em>emphasis</em>, `+
				`<strong>strong words</strong> and <code>inline_code()</code>; naïve café text, 日本語の文, and a footnote`+
				`<sup><a href="#fn%d">[%d]</a></sup>. The quick brown fox jumps over the lazy dog again and again.</p>`, i, j, i*4+j, j, i, i)
		}
		if i%3 == 0 {
			b.WriteString(`<ul><li>First point with a <a href="https://example.com/x?a=1&amp;b=2">link</a></li><li>Second point<ul><li>nested item</li></ul></li><li>Third point</li></ul>`)
		}
		if i%4 == 1 {
			b.WriteString(`<table><thead><tr><th>Name</th><th>Value</th><th>Note</th></tr></thead><tbody>`)
			for r := range 6 {
				fmt.Fprintf(&b, `<tr><td>row %d</td><td>%d.%d</td><td>note with <b>bold</b></td></tr>`, r, r*7, r)
			}
			b.WriteString(`</tbody></table>`)
		}
		if i%5 == 2 {
			b.WriteString("<pre><code class=\"language-go\">func add(a, b int) int {\n\treturn a + b // sums\n}</code></pre>")
		}
		if i%6 == 3 {
			b.WriteString(`<figure><img src="/img/figure.png" alt="A figure"><figcaption>Figure caption</figcaption></figure>`)
			b.WriteString(`<div class="ad" style="display:none">advert</div><script>track(1)</script>`)
		}
	}
	b.WriteString(`</article></main><footer>© Synthetic</footer></body></html>`)
	return b.Bytes()
}

// CorpusDir is the corpus directory: $FETCH_BENCH_CORPUS, else the
// go-readability test pages in the module cache; "" when neither exists.
func CorpusDir() string {
	if dir := os.Getenv("FETCH_BENCH_CORPUS"); dir != "" {
		return dir
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return ""
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), CorpusModule, "test-pages")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// Page is one corpus page.
type Page struct {
	Name   string
	Source []byte
}

// CorpusPages returns the source.html of every page in dir, biggest first.
func CorpusPages(dir string) []Page {
	if dir == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "source.html"))
	var pages []Page
	for _, f := range files {
		if src, err := os.ReadFile(f); err == nil {
			pages = append(pages, Page{filepath.Base(filepath.Dir(f)), src})
		}
	}
	sort.SliceStable(pages, func(i, j int) bool { return len(pages[i].Source) > len(pages[j].Source) })
	return pages
}

// ConcatPages joins corpus pages, in name order and round after round,
// into one document of at most size bytes; nil when there are none.
func ConcatPages(pages []Page, size int) []byte {
	sorted := append([]Page{}, pages...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var b bytes.Buffer
	for added := true; added; {
		added = false
		for _, p := range sorted {
			if len(p.Source) > 0 && b.Len()+len(p.Source) <= size {
				b.Write(p.Source)
				added = true
			}
		}
	}
	if b.Len() == 0 {
		return nil
	}
	return b.Bytes()
}
