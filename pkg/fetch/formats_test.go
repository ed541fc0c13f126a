package fetch

import (
	"net/http"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

func encode(t *testing.T, e encoding.Encoding, s string) string {
	t.Helper()
	b, err := e.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	japaneseText = "日本語のテキストです。文字コードの判定を確かめるための段落であり、十分な長さが必要です。"
	latinText    = "Café naïve façade — “quoted” déjà vu, señor."
)

func TestCharsets(t *testing.T) {
	sjis := func(meta string) string {
		return encode(t, japanese.ShiftJIS, `<html><head>`+meta+`<title>題名</title></head><body><p>`+japaneseText+`</p></body></html>`)
	}
	latin := func(meta string) string {
		return encode(t, charmap.Windows1252, `<html><head>`+meta+`</head><body><p>`+latinText+`</p></body></html>`)
	}
	cases := []struct {
		name, contentType, body, want string
		warn                          bool
	}{
		{"meta charset only", "text/html", sjis(`<meta charset="shift_jis">`), japaneseText, false},
		{"meta http-equiv", "text/html", sjis(`<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`), japaneseText, false},
		{"header only", "text/html; charset=shift_jis", sjis(""), japaneseText, false},
		{"header wins over meta", "text/html; charset=windows-1252", latin(`<meta charset="shift_jis">`), latinText, false},
		{"header and meta disagree, bytes decide", "text/html; charset=windows-1252", sjis(`<meta charset="shift_jis">`), japaneseText, true},
		{"declared utf-8 but windows-1252 bytes", "text/html; charset=utf-8", latin(`<meta charset="windows-1252">`), latinText, true},
		{"declared utf-8, undeclared legacy bytes", "text/html; charset=utf-8", sjis(""), japaneseText, true},
		{"latin-1 label but utf-8 bytes", "text/html; charset=iso-8859-1", `<html><body><p>` + latinText + `</p></body></html>`, latinText, true},
		{"nothing declared, utf-8", "text/html", `<p>` + latinText + `</p>`, latinText, false},
		{"nothing declared, shift_jis", "text/html", sjis(""), japaneseText, false},
		// One character cut in half (a truncated teaser) leaves the page UTF-8.
		{"nothing declared, utf-8 with a broken byte", "text/html", `<p>` + strings.Repeat(latinText+" ", 3) + "</p><p>papieros\xc3...</p>", latinText, false},
		{"declared utf-8 with a broken byte", "text/html; charset=utf-8", `<p>` + strings.Repeat(latinText+" ", 3) + "</p><p>papieros\xc3...</p>", latinText, false},
		{"utf-8 BOM beats header", "text/html; charset=windows-1252", "\xEF\xBB\xBF<p>" + latinText + "</p>", latinText, false},
		{"utf-16le BOM", "text/html", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "<p>"+japaneseText+"</p>"), japaneseText, false},
		{"utf-16be BOM plain text", "text/plain", encode(t, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), latinText), latinText, false},
		{"plain text windows-1252 header", "text/plain; charset=windows-1252", encode(t, charmap.Windows1252, latinText), latinText, false},
		{"xml declaration", "application/xml", encode(t, japanese.ShiftJIS, `<?xml version="1.0" encoding="Shift_JIS"?><doc>`+japaneseText+`</doc>`), japaneseText, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := serve(t, page(c.contentType, c.body))
			doc := mustFetch(t, &Engine{}, Request{URL: s.URL, Extract: ExtractFull})
			wantContains(t, doc.Markdown, c.want)
			if got := hasWarning(doc, WarnCharsetMismatch); got != c.warn {
				t.Errorf("charset_mismatch warning %v, want %v: %v", got, c.warn, doc.Warnings)
			}
			if strings.Contains(doc.Markdown, "\uFFFD") && !strings.Contains(c.body, "papieros") {
				t.Errorf("replacement characters in %q", doc.Markdown)
			}
		})
	}
}

func TestJSONIsPrettyAndFenced(t *testing.T) {
	s := serve(t, page("application/json; charset=utf-8", `{"b":[1,2],"a":{"c":"x<y"}}`))
	doc := mustFetch(t, &Engine{}, Request{URL: s.URL})
	want := "```json\n{\n  \"b\": [\n    1,\n    2\n  ],\n  \"a\": {\n    \"c\": \"x<y\"\n  }\n}\n```\n"
	if doc.Markdown != want || doc.MIME != "application/json" {
		t.Fatalf("got %s %q", doc.MIME, doc.Markdown)
	}

	s = serve(t, page("application/vnd.api+json", `{"code":"`+"```"+`"}`))
	doc = mustFetch(t, &Engine{}, Request{URL: s.URL})
	if !strings.HasPrefix(doc.Markdown, "````json\n") || !strings.HasSuffix(doc.Markdown, "\n````\n") {
		t.Fatalf("fence not longer than the backticks inside: %q", doc.Markdown)
	}

	s = serve(t, page("application/json", `{"broken": `))
	doc = mustFetch(t, &Engine{}, Request{URL: s.URL})
	if !hasWarning(doc, WarnInvalidJSON) || !strings.Contains(doc.Markdown, `{"broken":`) {
		t.Fatalf("invalid JSON: %q %v", doc.Markdown, doc.Warnings)
	}

	// Undeclared JSON is recognised by its first byte.
	s = serve(t, page("", `[{"k":1}]`))
	doc = mustFetch(t, &Engine{}, Request{URL: s.URL})
	if doc.MIME != "application/json" || !strings.HasPrefix(doc.Markdown, "```json\n[\n  {") {
		t.Fatalf("sniffed JSON: %s %q", doc.MIME, doc.Markdown)
	}
}

func TestXMLIsFenced(t *testing.T) {
	feed := `<?xml version="1.0"?><rss><channel><title>My Feed</title><item><title>One</title></item></channel></rss>`
	s := serve(t, page("application/rss+xml", feed))
	doc := mustFetch(t, &Engine{}, Request{URL: s.URL})
	if doc.Title != "My Feed" || doc.Markdown != "```xml\n"+feed+"\n```\n" || doc.MIME != "application/rss+xml" {
		t.Fatalf("got %q %s %q", doc.Title, doc.MIME, doc.Markdown)
	}
	// XHTML served as generic XML reads as a page.
	s = serve(t, page("text/xml", `<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><h1>Hi</h1></body></html>`))
	doc = mustFetch(t, &Engine{}, Request{URL: s.URL})
	if !strings.Contains(doc.Markdown, "# Hi") || strings.Contains(doc.Markdown, "```") {
		t.Fatalf("XHTML: %q", doc.Markdown)
	}
}

func TestMarkdownAndTextPassThrough(t *testing.T) {
	md := "---\nx: 1\n---\n```\n# not the title\n```\n# The Title #\r\n\r\nBody *text*.\r\n"
	s := serve(t, page("text/markdown; charset=utf-8", md))
	doc := mustFetch(t, &Engine{}, Request{URL: s.URL})
	if doc.Title != "The Title" || doc.Markdown != strings.ReplaceAll(md, "\r\n", "\n") || doc.MIME != "text/markdown" {
		t.Fatalf("markdown: %q %q", doc.Title, doc.Markdown)
	}
	s = serve(t, page("text/plain", "line one\nline <two>\n\n\n"))
	doc = mustFetch(t, &Engine{}, Request{URL: s.URL})
	if doc.Markdown != "line one\nline <two>\n" || doc.Title != "" {
		t.Fatalf("text: %q", doc.Markdown)
	}
	s = serve(t, page("text/csv", "a,b\n1,2\n"))
	if doc = mustFetch(t, &Engine{}, Request{URL: s.URL}); doc.Markdown != "a,b\n1,2\n" {
		t.Fatalf("csv: %q", doc.Markdown)
	}
}

func TestBinaryIsUnsupported(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"
	cases := []struct{ contentType, body, mime string }{
		{"application/pdf", "%PDF-1.7\n%âãÏÓ\n1 0 obj", "application/pdf"},
		{"image/png", png, "image/png"},
		{"text/html", png, "image/png"},
		{"", "%PDF-1.4 binary", "application/pdf"},
		{"application/octet-stream", "\x00\x01\x02\x03binary\x00", "application/octet-stream"},
		{"application/zip", "PK\x03\x04", "application/zip"},
		{"video/mp4", "....ftypmp42", "video/mp4"},
	}
	for _, c := range cases {
		var hits int
		s := serve(t, func(w http.ResponseWriter, r *http.Request) {
			hits++
			if c.contentType != "" {
				w.Header().Set("Content-Type", c.contentType)
			}
			_, _ = w.Write([]byte(c.body))
		})
		fe := fetchErr(t, &Engine{}, Request{URL: s.URL})
		wantCode(t, fe, CodeUnsupportedMediaType)
		wantContains(t, fe.Message, c.mime)
	}
	// Text served as octet-stream is still read.
	s := serve(t, page("application/octet-stream", "just text\n"))
	if doc := mustFetch(t, &Engine{}, Request{URL: s.URL}); doc.Markdown != "just text\n" || doc.MIME != "text/plain" {
		t.Fatalf("octet-stream text: %s %q", doc.MIME, doc.Markdown)
	}
}

func TestJavaScriptShellWarns(t *testing.T) {
	shells := map[string]string{
		"empty root":    `<!doctype html><html><head><title>App</title><script type="module" src="/assets/index-3f2a.js"></script></head><body><div id="root"></div></body></html>`,
		"noscript plea": `<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="__next"><header>Acme</header></div><script src="/_next/static/chunks/main.js"></script></body></html>`,
		"loading text":  `<html><body><div id="app">Loading…</div><script>window.__STATE__={}</script><script src="/bundle.js"></script></body></html>`,
	}
	for name, body := range shells {
		t.Run(name, func(t *testing.T) {
			s := serve(t, page("text/html", body))
			doc := mustFetch(t, &Engine{}, Request{URL: s.URL})
			if !hasWarning(doc, WarnJavaScriptRequired) {
				t.Fatalf("no javascript_required warning: %v (%q)", doc.Warnings, doc.Markdown)
			}
		})
	}
	static := `<html><head><script src="/analytics.js"></script></head><body><div id="root"><h1>Server rendered</h1><p>` +
		strings.Repeat("Plenty of server-rendered text. ", 40) + `</p></div></body></html>`
	s := serve(t, page("text/html", static))
	if doc := mustFetch(t, &Engine{}, Request{URL: s.URL}); hasWarning(doc, WarnJavaScriptRequired) {
		t.Fatalf("static page warned: %v", doc.Warnings)
	}
	noScript := `<html><body><p>Short page.</p></body></html>`
	s = serve(t, page("text/html", noScript))
	if doc := mustFetch(t, &Engine{}, Request{URL: s.URL}); hasWarning(doc, WarnJavaScriptRequired) {
		t.Fatalf("script-free page warned: %v", doc.Warnings)
	}
}

func TestStaticPageWithInlineScriptDoesNotWarn(t *testing.T) {
	static := `<!doctype html><html><head><title>Hello</title></head><body><h1>Hello</h1><p>A short static page.</p>` +
		`<script>document.documentElement.classList.add("js")</script></body></html>`
	s := serve(t, page("text/html", static))
	if doc := mustFetch(t, &Engine{}, Request{URL: s.URL}); hasWarning(doc, WarnJavaScriptRequired) {
		t.Fatalf("static page with one inline script warned: %v", doc.Warnings)
	}
	for name, shell := range map[string]string{
		"empty body, inline renderer": `<html><body><div id="content"></div><script>fetch("/api").then(r => r.json()).then(render)</script></body></html>`,
		"inline bundle":               `<html><body><p>Loading the app</p><script>` + strings.Repeat("var x=1;", 1000) + `</script></body></html>`,
	} {
		s := serve(t, page("text/html", shell))
		if doc := mustFetch(t, &Engine{}, Request{URL: s.URL}); !hasWarning(doc, WarnJavaScriptRequired) {
			t.Errorf("%s: no javascript_required warning", name)
		}
	}
}

func TestTableCellWithLineBreakKeepsCells(t *testing.T) {
	src := `<html><body><table><tr><th>Name</th><th>Notes</th></tr>` +
		`<tr><td>alpha<br>beta</td><td>gamma</td></tr><tr><td>delta</td><td>one<br/>two<br>three</td></tr></table></body></html>`
	s := serve(t, page("text/html", src))
	doc := mustFetch(t, &Engine{}, Request{URL: s.URL, Extract: ExtractFull})
	for _, want := range []string{"| Name | Notes |", "| alpha<br />beta | gamma |", "| delta | one<br />two<br />three |"} {
		wantContains(t, doc.Markdown, want)
	}
}

func TestTextKeepsAngleBracketsAsCharacters(t *testing.T) {
	src := `<html><body><p>Use a &lt;b&gt; tag when 1 &lt; 2 &amp;&amp; x &gt; y.</p>` +
		"<p>Stray \uFDD0 noncharacter.</p><pre>if a &lt; b {}</pre><table><tr><th>op</th></tr><tr><td>&lt;=</td></tr></table></body></html>"
	s := serve(t, page("text/html", src))
	doc := mustFetch(t, &Engine{}, Request{URL: s.URL, Extract: ExtractFull})
	for _, want := range []string{"Use a <b> tag when 1 < 2 && x > y.", "if a < b {}", "| <= |", "Stray  noncharacter."} {
		wantContains(t, doc.Markdown, want)
	}
	wantLacks(t, doc.Markdown, "&lt;", "&gt;", "\uFDD0")
}

func TestRubyAnnotationsDropped(t *testing.T) {
	// Furigana in <rt> would be spliced into the text it annotates:
	// 虐待ぎゃくたい for 虐待.
	src := `<html><body><p><ruby>虐待<rp>(</rp><rt>ぎゃくたい</rt><rp>)</rp></ruby>をなくすための<ruby>法律<rt>ほうりつ</rt></ruby>ができて</p></body></html>`
	for _, mode := range []Extract{ExtractAuto, ExtractMain, ExtractFull} {
		out := convertMode(t, src, mode)
		wantContains(t, out.Markdown, "虐待をなくすための法律ができて")
		wantLacks(t, out.Markdown, "ぎゃくたい", "ほうりつ", "(")
	}
}

func TestDecomposedCharactersComposed(t *testing.T) {
	// "é" written as "e" and a combining acute accent comes out as one
	// character (NFC), as every other page writes it.
	src := "<html><body><p>Cafe\u0301 and Jane\u0301 Koos</p></body></html>"
	for _, mode := range []Extract{ExtractAuto, ExtractFull} {
		out := convertMode(t, src, mode)
		wantContains(t, out.Markdown, "Caf\u00e9 and Jan\u00e9 Koos")
	}
}
