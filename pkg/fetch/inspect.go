package fetch

import (
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// pageInfo is what one read-only walk of the parsed page learns before any
// extraction changes the tree.
type pageInfo struct {
	titleText string
	ogTitle   string
	h1        string
	// headings are the first maxHeadings <h1>–<h3> of the body, as
	// letters and digits, lower-cased (headingKey).
	headings []string
	baseHref string

	elements       int
	scripts        int // <script> elements that run code
	srcScripts     int // of those, the ones loaded from a src URL
	inlineScript   int // bytes of inline code
	visibleText    int // letters and digits a reader would see in <body>
	mountEmpty     bool
	noscriptAsksJS bool
}

// mountIDs are the ids single-page-app frameworks render into.
var mountIDs = map[string]bool{
	"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true,
	"svelte": true, "main-app": true, "application": true, "react-root": true,
}

func inspect(doc *html.Node) *pageInfo {
	info := &pageInfo{}
	var walk func(n *html.Node, inBody, hidden bool)
	walk = func(n *html.Node, inBody, hidden bool) {
		switch n.Type {
		case html.TextNode:
			if inBody && !hidden {
				info.visibleText += countWordChars(n.Data)
			}
			return
		case html.ElementNode:
		default:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, inBody, hidden)
			}
			return
		}
		info.elements++
		switch n.DataAtom {
		case atom.Title:
			if info.titleText == "" {
				info.titleText = cleanSpace(textOf(n))
			}
			return
		case atom.Base:
			if info.baseHref == "" {
				info.baseHref = attr(n, "href")
			}
		case atom.Meta:
			if p := attr(n, "property"); (p == "og:title" || attr(n, "name") == "twitter:title") && info.ogTitle == "" {
				info.ogTitle = cleanSpace(attr(n, "content"))
			}
		case atom.Script:
			if isCodeScript(n) {
				info.scripts++
				if hasAttr(n, "src") {
					info.srcScripts++
				}
				if n.FirstChild != nil {
					info.inlineScript += len(n.FirstChild.Data)
				}
			}
			return
		case atom.Noscript:
			if strings.Contains(strings.ToLower(textOf(n)), "javascript") {
				info.noscriptAsksJS = true
			}
			return
		case atom.Style, atom.Template:
			return
		case atom.Body:
			inBody = true
		case atom.H1:
			if info.h1 == "" {
				info.h1 = cleanSpace(textOf(n))
			}
		}
		if inBody && !hidden && (n.DataAtom == atom.H1 || n.DataAtom == atom.H2 || n.DataAtom == atom.H3) && len(info.headings) < maxHeadings {
			if k := headingKey(textOf(n)); k != "" {
				info.headings = append(info.headings, k)
			}
		}
		if isHidden(n) {
			hidden = true
		}
		if inBody && (mountIDs[attr(n, "id")] || hasAttr(n, "data-reactroot") || hasAttr(n, "ng-app") || hasAttr(n, "ng-version")) {
			before := info.visibleText
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, inBody, hidden)
			}
			if info.visibleText-before < 50 {
				info.mountEmpty = true
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inBody, hidden)
		}
	}
	walk(doc, false, false)
	return info
}

// inlineBundleBytes is inline code large enough to be an application
// rather than a snippet (analytics, a theme switch).
const inlineBundleBytes = 4 << 10

// needsJavaScript guesses whether the page is a shell that scripts fill
// in: an empty app mount point or a <noscript> plea with little text, or
// next to no text with code that could render it: no text at all, a script
// loaded from elsewhere or an inline bundle. A short, complete page with a
// small inline script is static.
func (p *pageInfo) needsJavaScript() bool {
	if p.scripts == 0 {
		return false
	}
	if (p.mountEmpty || p.noscriptAsksJS) && p.visibleText < 1000 {
		return true
	}
	return p.visibleText < 200 && (p.visibleText == 0 || p.srcScripts > 0 || p.inlineScript >= inlineBundleBytes)
}

// maxHeadings is how many of a page's headings are kept to find its
// title among them.
const maxHeadings = 64

// headingKey is s as letters and digits, lower-cased: a heading and a
// title compare by their words, not their spacing and punctuation.
func headingKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// showsTitle reports whether the page shows the title t as one of its
// headings: a heading that holds it, or that it holds ("The mill |
// Village news" over a heading "The mill").
func (p *pageInfo) showsTitle(t string) bool {
	k := headingKey(t)
	if k == "" {
		return false
	}
	for _, h := range p.headings {
		if strings.Contains(k, h) || strings.Contains(h, k) {
			return true
		}
	}
	return false
}

func (p *pageInfo) title() string {
	switch {
	case p.titleText != "":
		return p.titleText
	case p.ogTitle != "":
		return p.ogTitle
	}
	return p.h1
}

// base is the URL links resolve against: <base href> over the page URL.
func (p *pageInfo) base(page *url.URL) *url.URL {
	if p.baseHref == "" {
		return page
	}
	ref, err := url.Parse(strings.TrimSpace(p.baseHref))
	if err != nil {
		return page
	}
	b := page.ResolveReference(ref)
	if b.Scheme != "http" && b.Scheme != "https" {
		return page
	}
	return b
}

// isCodeScript is a <script> the browser would run (not JSON data).
func isCodeScript(n *html.Node) bool {
	t := strings.ToLower(strings.TrimSpace(attr(n, "type")))
	switch t {
	case "", "text/javascript", "application/javascript", "module", "text/babel", "application/ecmascript":
		return true
	}
	return false
}

func countWordChars(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// textLen counts the letters and digits under n.
func textLen(n *html.Node) int {
	count := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			count += countWordChars(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return count
}

// renderedTextLen counts the letters and digits under n that the converter
// will write out: all of them but those of <head>.
func renderedTextLen(n *html.Node) int {
	count := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			count += countWordChars(n.Data)
		case n.Type == html.ElementNode && n.DataAtom == atom.Head:
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return count
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}
