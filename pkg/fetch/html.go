package fetch

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/unicode/norm"
)

// minArticleChars is the text an extracted article needs before it is
// trusted over the pruned page (readability's own threshold).
const minArticleChars = 500

// ldWitness is how many times longer than the extracted article a
// JSON-LD articleBody must be to replace it: metadata that merely repeats
// the article, or a summary of it, must not.
const ldWitness = 2

// maxExtractElements bounds the pages readability is run on: its cost grows
// faster than the page, and real pages stay far below this (about 10,000
// elements per MB of HTML); above it the whole page is converted.
const maxExtractElements = 200_000

// HTML converts a UTF-8 HTML page to Markdown. page is the URL the page was
// served from; links and images are resolved against it (or against the
// page's <base href>).
func (c *Converter) HTML(ctx context.Context, src []byte, page *url.URL, mode Extract) (*Conversion, error) {
	mode, err := ParseExtract(string(mode))
	if err != nil {
		return nil, err
	}
	if page == nil {
		page = &url.URL{}
	}
	doc, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return nil, wrapf(CodeUpstreamError, err, "the HTML could not be parsed: %v", err)
	}
	info := inspect(doc)
	base := info.base(page)
	out := &Conversion{Title: info.title()}
	var ldBody string
	if mode != ExtractFull {
		// Read before readability, which drops scripts.
		ldBody = ldArticleBody(doc)
	}

	var node *html.Node
	if mode == ExtractMain && info.elements > maxExtractElements {
		out.Warnings = append(out.Warnings, Warning{Code: WarnMainContentNotFound,
			Message: fmt.Sprintf("the page has %d elements, more than the %d main-content extraction handles; the whole page is returned", info.elements, maxExtractElements)})
	} else if mode != ExtractFull && info.elements <= maxExtractElements {
		article, ok := extractMain(doc, base)
		if ok && article.narrow {
			// Readability kept a sliver of a page that holds much more
			// text once pruned: it settled on one block of a longer
			// article (sections, a table, several bodies). The page's own
			// landmark, or else the pruned page, reads better.
			if doc, err = html.Parse(bytes.NewReader(src)); err != nil {
				return nil, wrapf(CodeUpstreamError, err, "the HTML could not be parsed: %v", err)
			}
			article.Node = widen(doc, textLen(article.Node))
			article.keptH1 = false
		}
		if k := countWordChars(ldBody); k >= minArticleChars && (!ok || k > ldWitness*textLen(article.Node)) {
			// The page's metadata holds far more of the article than
			// its markup gave: a page rendered by JavaScript.
			ld := ldArticleNode(ldBody)
			filterArticle(ld)
			if ok {
				keepLead(ld, article.Node, ldBody)
			}
			article.Node, ok = ld, true
			article.keptH1 = false
		}
		switch {
		case ok:
			node = article.Node
			out.Extracted = ExtractMain
			if t := cleanSpace(article.Title()); t != "" && !article.keptH1 {
				out.Title = t
				if info.showsTitle(t) {
					keepHeading(node, t)
				}
			}
		case mode == ExtractMain:
			out.Warnings = append(out.Warnings, Warning{Code: WarnMainContentNotFound, Message: "no main content was found; the whole page, less what it marks as navigation, sidebars, comments and footers, is returned"})
		}
		if node == nil && article.mutated {
			// Readability rewrote the tree; start again from the source.
			if doc, err = html.Parse(bytes.NewReader(src)); err != nil {
				return nil, wrapf(CodeUpstreamError, err, "the HTML could not be parsed: %v", err)
			}
			// What the page itself marks as chrome still goes.
			pruneBoilerplate(doc)
		}
		if node == nil {
			// The pruned page stands for the article: its lines of
			// boilerplate go as an article's would.
			filterArticle(doc)
		}
	}
	if node == nil {
		node = doc
		out.Extracted = ExtractFull
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if mode != ExtractFull {
		unmarkOrigins(node)
	}
	if out.Extracted == ExtractMain {
		dropImageText(node)
	}
	clean(node)
	if c.MaxMarkdownBytes > 0 && int64(renderedTextLen(node)) > c.MaxMarkdownBytes {
		// Every letter and digit left will be in the Markdown: it is bound
		// to pass the limit, so spare the conversion and its memory.
		return nil, limitError(LimitMarkdown, c.MaxMarkdownBytes)
	}
	md, err := c.md.ConvertNode(node, converter.WithDomain(base.String()), converter.WithContext(ctx))
	if err != nil {
		return nil, wrapf(CodeInternalError, err, "the page could not be converted to Markdown: %v", err)
	}
	out.Markdown = finishMarkdown(md)
	out.Title = capTitle(out.Title)
	if info.needsJavaScript() {
		out.Warnings = append(out.Warnings, Warning{
			Code:    WarnJavaScriptRequired,
			Message: "the page looks rendered by JavaScript, which tavo does not run; this is what its static HTML holds",
		})
	}
	return out, nil
}

// mainArticle is readability's result and whether it changed the tree.
type mainArticle struct {
	readability.Article
	mutated bool
	// narrow is whether the article holds less than half the pruned
	// page's text, or is not prose (isArticleProse).
	narrow bool
	// keptH1 is whether the article holds the page's own <h1>, which
	// readability renames <h2>: the page's heading is there, so the
	// title is not put back above it.
	keptH1 bool
}

// extractMain prunes the page's boilerplate and runs readability on what
// is left. What readability keeps must be a real article: 500 letters and
// digits (readability's own threshold), or at least half of the pruned
// page's text when the page is short; a one-line candidate ("Skip to
// content", a date) on a longer page is no article. An article of less
// than half the pruned page, or one that is not prose where the page
// holds prose elsewhere, is marked narrow, for the caller to widen;
// any other first grows in the page to the prose above its container
// (growArticle), then is filtered line by line (filterArticle). auto and main decide
// alike; they differ in the warning main gives when nothing is found.
func extractMain(doc *html.Node, base *url.URL) (mainArticle, bool) {
	parser := readability.NewParser()
	pageText := pruneBoilerplate(doc)
	// Counted before readability rewrites the page.
	pageProse := proseText(doc)
	markOrigins(doc)
	article, err := parser.ParseAndMutate(doc, base)
	res := mainArticle{Article: article, mutated: true}
	if err != nil || article.Node == nil {
		return res, false
	}
	// The atoms are still the page's: an <h1> here is the page's own.
	res.keptH1 = findElement(article.Node, atom.H1) != nil
	fixAtoms(doc)
	fixAtoms(article.Node)
	n := textLen(article.Node)
	if 2*n >= pageText {
		// An article of one block of a longer content grows in the
		// page towards the prose above it; a narrow one is widened
		// by the caller instead.
		if g := growArticle(doc, article.Node); g != nil {
			res.Node = g
			article.Node = g
			n = textLen(g)
		}
	}
	if n == 0 || n < minArticleChars && 2*n < pageText {
		return res, false
	}
	res.narrow = 2*n < pageText || !isArticleProse(article.Node, n, pageProse)
	if !res.narrow {
		filterArticle(article.Node)
	}
	return res, true
}

// isArticleProse reports whether an article of n letters and digits
// reads as prose, on a page holding pageProse letters of it: under a
// quarter of its text in paragraphs of prose, on a page with at least
// minArticleChars more prose elsewhere and more than twice its own,
// readability chose a block of another kind (a newsletter form's
// labels and fine print, a table of addresses, a login form's
// messages) over the article, and it is widened like a narrow one.
func isArticleProse(article *html.Node, n, pageProse int) bool {
	ap := proseText(article)
	return 4*ap >= n || pageProse-ap < minArticleChars || pageProse <= 2*ap
}

// keepHeading puts the article's title back at its top as an <h1>:
// readability drops the heading that repeats the title, and a reader of
// the Markdown wants it.
func keepHeading(article *html.Node, title string) {
	if findElement(article, atom.H1) != nil {
		return
	}
	h := &html.Node{Type: html.ElementNode, Data: "h1", DataAtom: atom.H1}
	h.AppendChild(&html.Node{Type: html.TextNode, Data: title})
	article.InsertBefore(h, article.FirstChild)
}

// finishMarkdown trims the converter output, composes its characters
// (Unicode NFC) and ends it with one newline. Pages written on some
// systems spell "é" as "e" and a combining accent, and Bengali's "ড়" as
// two code points: the same word in two spellings defeats every search
// and splits a model's tokens.
func finishMarkdown(md []byte) string {
	md = bytes.TrimSpace(md)
	if len(md) == 0 {
		return ""
	}
	if !norm.NFC.IsNormal(md) {
		md = norm.NFC.Bytes(md)
	}
	var b strings.Builder
	b.Grow(len(md) + 1)
	b.Write(md)
	b.WriteByte('\n')
	return b.String()
}

// cleanSpace collapses runs of white space, as a browser shows a title.
func cleanSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// widen returns what replaces a narrow article of n letters and digits:
// in the page doc, pruned, the landmark with the most text if it holds
// more than the article, else the pruned page's body; filtered line by
// line either way.
func widen(doc *html.Node, n int) *html.Node {
	pruneBoilerplate(doc)
	node := landmark(doc)
	if node == nil || textLen(node) <= n {
		if node = findElement(doc, atom.Body); node == nil {
			node = doc
		}
	}
	filterArticle(node)
	return node
}

// landmark returns the element the page marks as its main content: the
// one with the most text of <main>, role=main, itemprop=articleBody and
// <article>.
func landmark(doc *html.Node) *html.Node {
	var best *html.Node
	bestLen := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if isLandmark(c) {
				if k := textLen(c); k > bestLen {
					best, bestLen = c, k
				}
			}
			walk(c)
		}
	}
	walk(doc)
	return best
}

// isLandmark reports an element that declares itself the page's content.
func isLandmark(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Main, atom.Article:
		return true
	}
	if r := strings.ToLower(attr(n, "role")); r == "main" || r == "article" {
		return true
	}
	return strings.EqualFold(attr(n, "itemprop"), "articleBody")
}

// fixAtoms sets the atom of every element under n from its tag name.
// Readability renames elements (a <div> of phrasing becomes a <p>) and
// creates others by name only, so their atoms say <div> or nothing; the
// rules that follow read atoms.
func fixAtoms(n *html.Node) {
	if n.Type == html.ElementNode {
		n.DataAtom = atom.Lookup([]byte(n.Data))
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		fixAtoms(c)
	}
}

// dropImageText removes the alt text of the images under n. In an
// article it is a picture's description or credit ("Dmitry Muratov,
// Nobel Peace Prize laureate (REUTERS/…)"), the text of its caption,
// which goes as chrome; the image itself stays, with its URL.
func dropImageText(n *html.Node) {
	if n.Type == html.ElementNode && n.DataAtom == atom.Img {
		removeAttr(n, "alt")
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		dropImageText(c)
	}
}
