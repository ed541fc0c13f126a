package fetch

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

func articlePage() string {
	var b strings.Builder
	b.WriteString(`<html><head><title>Deep Sea Vents | The Site</title></head><body>
<header><a href="/">The Site</a></header>
<div class="sidebar"><h3>Popular</h3><ul>`)
	for i := range 20 {
		b.WriteString(`<li><a href="/p` + string(rune('a'+i)) + `">SIDEBAR-LINK story</a></li>`)
	}
	b.WriteString(`</ul></div><article><h1>Deep Sea Vents</h1>`)
	for i := range 8 {
		b.WriteString(`<p>Paragraph ` + string(rune('A'+i)) + ` of the article about hydrothermal vents, the chimneys on the ocean floor where
 heated water rich in minerals feeds whole ecosystems, far from any sunlight, as researchers have found on many dives.</p>`)
	}
	b.WriteString(`</article><div class="comments"><p>COMMENT short</p></div><footer>FOOTER-TEXT copyright</footer></body></html>`)
	return b.String()
}

const linkListPage = `<html><head><title>Index</title></head><body><h1>All posts</h1><ul>
<li><a href="/1">First post</a></li><li><a href="/2">Second post</a></li><li><a href="/3">Third post</a></li>
</ul><p>Contact us.</p></body></html>`

func TestExtractModes(t *testing.T) {
	c := NewConverter()
	ctx := context.Background()
	page := mustParse(t, "https://example.com/news/vents")
	src := []byte(articlePage())

	main, err := c.HTML(ctx, src, page, ExtractMain)
	if err != nil {
		t.Fatal(err)
	}
	if main.Extracted != ExtractMain || !strings.Contains(main.Title, "Deep Sea Vents") {
		t.Errorf("main: extracted %q title %q", main.Extracted, main.Title)
	}
	wantContains(t, main.Markdown, "Paragraph A of the article", "Paragraph H of the article")
	wantLacks(t, main.Markdown, "SIDEBAR-LINK", "FOOTER-TEXT")

	full, err := c.HTML(ctx, src, page, ExtractFull)
	if err != nil {
		t.Fatal(err)
	}
	if full.Extracted != ExtractFull || full.Title != "Deep Sea Vents | The Site" {
		t.Errorf("full: extracted %q title %q", full.Extracted, full.Title)
	}
	wantContains(t, full.Markdown, "Paragraph A of the article", "SIDEBAR-LINK", "FOOTER-TEXT", "[The Site](https://example.com/)")

	auto, err := c.HTML(ctx, src, page, ExtractAuto)
	if err != nil {
		t.Fatal(err)
	}
	if auto.Extracted != ExtractMain || auto.Markdown != main.Markdown {
		t.Errorf("auto on an article kept %q", auto.Extracted)
	}
	if auto, _ = c.HTML(ctx, src, page, ""); auto.Extracted != ExtractMain {
		t.Errorf("the empty mode is not auto")
	}

	auto, err = c.HTML(ctx, []byte(linkListPage), page, ExtractAuto)
	if err != nil {
		t.Fatal(err)
	}
	// An index page is its links: auto keeps them all, whichever way.
	wantContains(t, auto.Markdown, "# All posts", "[Second post](https://example.com/2)", "Contact us.")
	if len(auto.Warnings) != 0 {
		t.Errorf("auto warned: %v", auto.Warnings)
	}
}

func TestExtractMainWithoutContentFallsBack(t *testing.T) {
	c := NewConverter()
	out, err := c.HTML(context.Background(), []byte(`<html><head><title>T</title></head><body><div><img src="/x.png" alt="pic"></div></body></html>`), mustParse(t, "http://h/"), ExtractMain)
	if err != nil {
		t.Fatal(err)
	}
	if out.Extracted != ExtractFull || len(out.Warnings) != 1 || out.Warnings[0].Code != WarnMainContentNotFound {
		t.Fatalf("extracted %q warnings %v", out.Extracted, out.Warnings)
	}
	wantContains(t, out.Markdown, "![pic](http://h/x.png)")
}

func TestParseExtract(t *testing.T) {
	for in, want := range map[string]Extract{"": ExtractAuto, "auto": ExtractAuto, " MAIN ": ExtractMain, "full": ExtractFull} {
		if got, err := ParseExtract(in); err != nil || got != want {
			t.Errorf("ParseExtract(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseExtract("readable"); err == nil {
		t.Error("ParseExtract accepted an unknown mode")
	}
}

func TestConvertSniffsAndRejects(t *testing.T) {
	c := NewConverter()
	out, err := c.Convert(context.Background(), []byte("<!DOCTYPE html><p>Hi <b>there</b></p>"), "", nil, ExtractFull)
	if err != nil || out.Markdown != "Hi **there**\n" {
		t.Fatalf("Convert = %+v, %v", out, err)
	}
	if _, err := c.Convert(context.Background(), []byte("%PDF-1.5"), "", nil, ExtractFull); err == nil {
		t.Fatal("Convert accepted a PDF")
	}
}

func TestHTMLOverTheMarkdownLimitFailsBeforeConverting(t *testing.T) {
	c := NewConverter()
	c.MaxMarkdownBytes = 100
	src := []byte(`<html><head><title>` + strings.Repeat("t", 500) + `</title></head><body><p>` + strings.Repeat("word ", 15) + `</p></body></html>`)
	if _, err := c.HTML(context.Background(), src, nil, ExtractFull); err != nil {
		t.Fatalf("a long title counted against the Markdown limit: %v", err)
	}
	src = []byte(`<html><body><p>` + strings.Repeat("word ", 30) + `</p></body></html>`)
	c.MaxMarkdownBytes = 100
	_, err := c.HTML(context.Background(), src, nil, ExtractFull)
	if fe, ok := err.(*Error); !ok || fe.Limit != LimitMarkdown {
		t.Fatalf("err = %v, want the Markdown limit", err)
	}
}

func TestHugePagesSkipExtraction(t *testing.T) {
	src := []byte("<html><body><p>" + strings.Repeat("<b>x</b> ", maxExtractElements) + "</p></body></html>")
	out, err := NewConverter().HTML(context.Background(), src, nil, ExtractMain)
	if err != nil {
		t.Fatal(err)
	}
	if out.Extracted != ExtractFull || len(out.Warnings) != 1 || out.Warnings[0].Code != WarnMainContentNotFound {
		t.Fatalf("extracted %q warnings %v", out.Extracted, out.Warnings)
	}
}

func TestLongTitlesAreCapped(t *testing.T) {
	src := []byte("<title>" + strings.Repeat("é", 1000) + "</title><p>x</p>")
	out, err := NewConverter().Convert(context.Background(), src, "text/html", nil, ExtractFull)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Title) > maxTitleBytes+len("…") || !strings.HasSuffix(out.Title, "…") || !utf8.ValidString(out.Title) {
		t.Fatalf("title of %d bytes: %q", len(out.Title), out.Title)
	}
}
