package fetch

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
)

// Converter turns decoded bodies into Markdown. It is safe for concurrent
// use; an Engine holds one.
type Converter struct {
	// MaxMarkdownBytes, when above zero, fails an HTML page whose text
	// alone would pass it, before the costly conversion is run.
	MaxMarkdownBytes int64

	md *converter.Converter
}

// NewConverter returns a Converter with GitHub-flavoured output: tables,
// strikethrough, fenced code.
func NewConverter() *Converter {
	md := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(
			table.WithSkipEmptyRows(true),
			table.WithHeaderPromotion(true),
			table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal),
			// A line break inside a cell (<br>, a second paragraph) stays
			// a <br> in the cell; the default drops the whole table to
			// plain text and runs its cells together.
			table.WithNewlineBehavior(table.NewlineBehaviorPreserve),
		),
		strikethrough.NewStrikethroughPlugin(),
	))
	// Text keeps its < and > as characters: the base plugin writes them as
	// &lt; and &gt; so a Markdown renderer cannot mistake them for HTML, but
	// the Markdown is read by models and people, for whom "a &lt;b&gt; tag"
	// is noise. They are hidden from that escaping behind noncharacters
	// and put back once the Markdown is written.
	md.Register.TextTransformer(hideAngles, converter.PriorityStandard-1)
	md.Register.PostRenderer(restoreAngles, converter.PriorityLate)
	return &Converter{md: md}
}

// Noncharacters stand in for < and > in text during conversion; Unicode
// reserves them for a program's internal use, so a page has no business
// holding them and any it does hold are dropped.
const (
	ltMark = "\uFDD0"
	gtMark = "\uFDD1"
)

// The replacers are built on first use (lazy start-up, docs/architecture.md)
// and are safe for concurrent use.
var (
	hideAnglesReplacer = sync.OnceValue(func() *strings.Replacer {
		return strings.NewReplacer(ltMark, "", gtMark, "", "<", ltMark, ">", gtMark)
	})
	restoreAnglesReplacer = sync.OnceValue(func() *strings.Replacer {
		// A hard line break in a table cell arrives as "  <br />": the
		// two spaces only matter at a line's end.
		return strings.NewReplacer(ltMark, "<", gtMark, ">", "  <br />", "<br />")
	})
)

func hideAngles(_ converter.Context, text string) string {
	if !strings.ContainsAny(text, "<>"+ltMark+gtMark) {
		return text
	}
	return hideAnglesReplacer().Replace(text)
}

func restoreAngles(_ converter.Context, md []byte) []byte {
	if !bytes.Contains(md, []byte(ltMark)) && !bytes.Contains(md, []byte(gtMark)) && !bytes.Contains(md, []byte("  <br />")) {
		return md
	}
	return []byte(restoreAnglesReplacer().Replace(string(md)))
}

// Conversion is the Markdown made of one body.
type Conversion struct {
	Title    string
	Markdown string
	Warnings []Warning
	// Extracted is ExtractMain when the main content was kept and
	// ExtractFull when the whole page was; empty for formats other than HTML.
	Extracted Extract
}

// Convert converts a whole body held in memory, as the engine would after
// downloading it: contentType is the Content-Type header ("" to sniff),
// page the URL it came from. Binary bodies are unsupported_media_type. No
// size limit is applied here.
func (c *Converter) Convert(ctx context.Context, body []byte, contentType string, page *url.URL, mode Extract) (*Conversion, error) {
	head := body[:min(len(body), sniffBytes)]
	k, mime := classify(mediaType(contentType), head)
	if k == kindBinary {
		return nil, unsupported(mime, mediaType(contentType))
	}
	return c.convert(ctx, body, k, contentType, page, mode)
}

// convert dispatches on the kind of body.
func (c *Converter) convert(ctx context.Context, body []byte, k kind, contentType string, page *url.URL, mode Extract) (*Conversion, error) {
	text, warnings := toUTF8(body, contentType, k)
	var out *Conversion
	switch k {
	case kindHTML:
		var err error
		out, err = c.HTML(ctx, text, page, mode)
		if err != nil {
			return nil, err
		}
	case kindMarkdown:
		out = markdownDoc(text)
	case kindJSON:
		out = jsonDoc(text)
	case kindXML:
		out = xmlDoc(text)
	default:
		out = &Conversion{Markdown: normalizeText(string(text))}
	}
	out.Warnings = append(warnings, out.Warnings...)
	out.Title = capTitle(out.Title)
	return out, nil
}

// maxTitleBytes bounds a title: a page may stuff its <title>, and every
// page of a paged result repeats it.
const maxTitleBytes = 512

func capTitle(t string) string {
	if len(t) <= maxTitleBytes {
		return t
	}
	cut := maxTitleBytes
	for cut > 0 && !utf8.RuneStart(t[cut]) {
		cut--
	}
	return t[:cut] + "…"
}
