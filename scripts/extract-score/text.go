package main

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// blockElements break words apart; inline elements do not, as in a browser.
var blockElements = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Li: true, atom.Ul: true, atom.Ol: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Table: true, atom.Tr: true, atom.Td: true, atom.Th: true, atom.Br: true,
	atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true,
	atom.Blockquote: true, atom.Pre: true, atom.Figure: true, atom.Figcaption: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Hr: true, atom.Img: true,
	atom.Main: true, atom.Aside: true, atom.Nav: true, atom.Caption: true,
}

// htmlText is the text a reader sees in an HTML fragment.
func htmlText(src []byte) string {
	doc, err := html.Parse(strings.NewReader(string(src)))
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template:
				return
			}
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		block := n.Type == html.ElementNode && blockElements[n.DataAtom]
		if block {
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if block {
			b.WriteByte(' ')
		}
	}
	walk(doc)
	return b.String()
}

var (
	// images go entirely: their alt text is not page text.
	mdImage = regexp.MustCompile(`!\[(?:[^\]\\]|\\.)*\]\((?:[^()\s]|\([^()]*\))*(?:\s+"(?:[^"\\]|\\.)*")?\)`)
	// link targets and titles go; the link text stays.
	mdLinkTarget = regexp.MustCompile(`\]\((?:[^()\s]|\([^()]*\))*(?:\s+"(?:[^"\\]|\\.)*")?\)`)
	mdAutolink   = regexp.MustCompile(`<https?://[^>\s]*>`)
)

// markdownText strips Markdown down to the text a reader would see.
func markdownText(md string) string {
	md = mdImage.ReplaceAllString(md, " ")
	md = mdLinkTarget.ReplaceAllString(md, "] ")
	md = mdAutolink.ReplaceAllString(md, " ")
	return md
}

// words lower-cases text and splits it into runs of letters and digits;
// each Han, kana or Hangul character is a word of its own, since those
// scripts do not put spaces between words.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			cur.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}
