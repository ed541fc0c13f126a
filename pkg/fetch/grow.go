package fetch

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Readability keeps one block of the page: its best-scored container and
// the siblings of it that score. An article split across containers —
// the lead above the article's wrapper, sections in sibling wrappers, the
// paragraphs beside a table readability scored highest — loses the
// rest. Readability works on a copy of the page, so the elements of the
// pruned page are numbered first; the numbers readability's article
// carries tell where in the page it came from, and the container is
// grown from there while what it gains is prose.

// originAttr numbers the elements of the pruned page, to find where in
// it readability's article came from.
const originAttr = "data-tavo-origin"

// markOrigins numbers the elements under root.
func markOrigins(root *html.Node) {
	i := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			c.Attr = append(c.Attr, html.Attribute{Key: originAttr, Val: strconv.Itoa(i)})
			i++
			walk(c)
		}
	}
	walk(root)
}

// originNumber returns the number markOrigins gave n, or -1.
func originNumber(n *html.Node) int {
	for _, a := range n.Attr {
		if a.Key == originAttr {
			if k, err := strconv.Atoi(a.Val); err == nil {
				return k
			}
		}
	}
	return -1
}

// unmarkOrigins removes the numbers from the elements under root.
func unmarkOrigins(root *html.Node) {
	if root.Type == html.ElementNode {
		for i, a := range root.Attr {
			if a.Key == originAttr {
				root.Attr = append(root.Attr[:i], root.Attr[i+1:]...)
				break
			}
		}
	}
	for c := root.FirstChild; c != nil; c = c.NextSibling {
		unmarkOrigins(c)
	}
}

// growArticle returns the article grown within the page doc (as
// readability left it: pruned and prepared, never cut up), or nil when
// it stays as it is. The container the article came from is the lowest
// common ancestor of its numbered elements. The paragraphs of prose that
// open the container before anything the article holds go back on top of
// it (keepLeadOf). The container then grows to its parent while the
// parent adds at least minParagraph letters of prose and at least as
// much prose as other text, headings aside (the title above the article
// is not weighed against it), or adds no prose and under 1.5 ×
// minParagraph letters of other text (a wrapper adding a date, a
// byline). The article then takes
// the container's place in the grown element, so what readability
// cleaned inside it stays clean.
func growArticle(doc, article *html.Node) *html.Node {
	byNumber := map[int]*html.Node{}
	var index func(*html.Node)
	index = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if k := originNumber(c); k >= 0 {
				byNumber[k] = c
			}
			index(c)
		}
	}
	var tops []*html.Node
	var collect func(*html.Node)
	collect = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if k := originNumber(c); k >= 0 {
				tops = append(tops, c)
				continue
			}
			collect(c)
		}
	}
	collect(article)
	if len(tops) == 0 {
		return nil
	}
	index(doc)
	var from *html.Node
	for _, t := range tops {
		n := byNumber[originNumber(t)]
		if n == nil {
			return nil
		}
		if from == nil {
			from = n
		} else {
			from = commonAncestor(from, n)
		}
	}
	if from == nil || from.Type != html.ElementNode || from.DataAtom == atom.Body || from.DataAtom == atom.Html {
		return nil
	}
	keepLeadOf(from, article)
	grown := from
	prose, text := proseText(grown), textLessHeadings(grown)
	for p := grown.Parent; p != nil && p.Type == html.ElementNode && p.DataAtom != atom.Html; p = p.Parent {
		pp, pt := proseText(p), textLessHeadings(p)
		extra, other := pp-prose, (pt-text)-(pp-prose)
		if pt > text && (extra < minParagraph || extra < other) {
			if extra == 0 && other < 3*minParagraph/2 {
				// A wrapper adding short lines (a date, a
				// byline): climb through it, what it adds is
				// not kept.
				grown, prose, text = p, pp, pt
				continue
			}
			break
		}
		grown, prose, text = p, pp, pt
		if p.DataAtom == atom.Body {
			break
		}
	}
	if grown == from || prose == proseText(from) {
		return nil
	}
	remove(article)
	from.Parent.InsertBefore(article, from)
	remove(from)
	keepProseAround(grown, article)
	return grown
}

// commonAncestor returns the lowest element holding both a and b.
func commonAncestor(a, b *html.Node) *html.Node {
	seen := map[*html.Node]bool{}
	for n := a; n != nil; n = n.Parent {
		seen[n] = true
	}
	for n := b; n != nil; n = n.Parent {
		if seen[n] {
			return n
		}
	}
	return nil
}

// maxProseLinks is the share of link text above which a paragraph, or
// a block beside the article, is not prose.
const maxProseLinks = 0.25

// isProseBlock reports a block with less than maxProseLinks of its text
// in links.
func isProseBlock(n *html.Node) bool {
	all := textLen(n)
	return float64(all-plainTextLen(n)) < maxProseLinks*float64(all)
}

// isProse reports a paragraph of prose: minParagraph letters or more
// outside links, and little link text.
func isProse(b *html.Node) bool {
	return plainTextLen(b) >= minParagraph && isProseBlock(b)
}

// proseText counts the letters and digits outside links of the
// paragraphs of prose under n.
func proseText(n *html.Node) int {
	var blocks []*html.Node
	collectLeafBlocks(n, &blocks)
	total := 0
	for _, b := range blocks {
		if isProse(b) {
			total += plainTextLen(b)
		}
	}
	return total
}

// keepProseAround removes from n all that follows the article in the
// page, and all before it but the paragraphs of prose: what the article
// gains is its lead and the sections above its container, not the
// page's chrome, nor what follows it (a news ticker, other stories,
// comments' fine print), which readability already judged.
func keepProseAround(n, article *html.Node) {
	var next *html.Node
	after := false
	for c := n.FirstChild; c != nil; c = next {
		next = c.NextSibling
		switch {
		case c == article:
			after = true
		case c.Type == html.TextNode:
			if countWordChars(c.Data) > 0 {
				n.RemoveChild(c)
			}
		case c.Type != html.ElementNode:
		case contains(c, article):
			keepProseAround(c, article)
			after = true
		case after || !isProseBlock(c):
			// A list of other stories with their teasers, an
			// author's links: prose among links is not the article's.
			n.RemoveChild(c)
		default:
			keepProse(c)
			if c.FirstChild == nil || textLen(c) == 0 {
				n.RemoveChild(c)
			}
		}
	}
}

// keepProse removes from n all but its paragraphs of prose, or all of it
// when it holds teasers: a link (a headline, a picture) beside each
// paragraph.
func keepProse(n *html.Node) {
	var blocks []*html.Node
	collectLeafBlocks(n, &blocks)
	kept, inline := 0, 0
	for _, b := range blocks {
		if isProse(b) {
			kept++
			inline += countLinks(b)
		} else {
			remove(b)
		}
	}
	if kept == 0 || countLinks(n)-inline >= kept {
		for n.FirstChild != nil {
			n.RemoveChild(n.FirstChild)
		}
	}
}

// contains reports whether d is n or under it.
func contains(n, d *html.Node) bool {
	for ; d != nil; d = d.Parent {
		if d == n {
			return true
		}
	}
	return false
}

// countLinks counts the links under n.
func countLinks(n *html.Node) int {
	k := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.DataAtom == atom.A && hasAttr(c, "href") {
			k++
		}
		k += countLinks(c)
	}
	return k
}

// keepLeadOf puts back at the top of the article the paragraphs of prose
// that open its container in the page, before the first block the
// article holds, and that readability left out: the lead (standfirst)
// of a news page sits in the article's header, which readability drops
// with the title.
func keepLeadOf(from, article *html.Node) {
	held := map[int]bool{}
	var mark func(*html.Node)
	mark = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if k := originNumber(c); k >= 0 {
				held[k] = true
			}
			mark(c)
		}
	}
	mark(article)
	var blocks []*html.Node
	collectLeafBlocks(from, &blocks)
	var lead []*html.Node
	found := false
	for _, b := range blocks {
		if held[originNumber(b)] {
			found = true
			break
		}
		if isProse(b) {
			lead = append(lead, b)
		}
	}
	if !found || len(lead) == 0 {
		// Without a block of the article to stand before (readability
		// rebuilt them all), the container's opening cannot be told
		// from the article's own.
		return
	}
	// Nor may the lead repeat what the article says.
	text := cleanSpace(textOf(article))
	kept := lead[:0]
	for _, b := range lead {
		if !strings.Contains(text, cleanSpace(textOf(b))) {
			kept = append(kept, b)
		}
	}
	lead = kept
	if len(lead) == 0 {
		return
	}
	top := article
	if c := firstElement(article); c != nil && c.DataAtom == atom.Div && originNumber(c) < 0 {
		top = c // readability's page wrapper
	}
	first := top.FirstChild
	for _, b := range lead {
		top.InsertBefore(cloneTree(b), first)
	}
}

// firstElement returns n's first child element, or nil.
func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

// textLessHeadings counts the letters and digits under n outside
// headings: the title above an article is not what its growth is
// weighed against.
func textLessHeadings(n *html.Node) int {
	k := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			k += countWordChars(c.Data)
		case c.Type == html.ElementNode && !isHeading(c):
			k += textLessHeadings(c)
		}
	}
	return k
}

// cloneTree returns a deep copy of the tree under n.
func cloneTree(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace, Attr: append([]html.Attribute(nil), n.Attr...)}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.AppendChild(cloneTree(k))
	}
	return c
}
