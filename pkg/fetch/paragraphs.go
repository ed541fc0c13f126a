package fetch

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Paragraph filtering runs on the article readability chose. Pruning
// before readability removes the blocks a page marks as chrome; what it
// cannot see are the single lines of boilerplate written into the
// article's own flow: image captions and credits, "Read more:" and
// "Related:" lines, calls to subscribe, bylines and dates. Like
// trafilatura, tavo judges such lines one block at a time, by their tag,
// their length and their words; nothing in it knows a site.

// filterArticle removes the boilerplate lines from the article under n.
func filterArticle(n *html.Node) {
	var next *html.Node
	for c := n.FirstChild; c != nil; c = next {
		next = c.NextSibling
		if c.Type != html.ElementNode {
			continue
		}
		if isCaption(c) {
			n.RemoveChild(c)
			continue
		}
		filterArticle(c)
	}
}

// maxCaption is the letters and digits of the longest block named like a
// caption that is still taken for one: a longer one is text.
const maxCaption = 300

// captionWords in a class name mark an image's caption or credit.
var captionWords = []string{"caption", "credit", "copyright"}

// isCaption reports a figure's caption or an image credit: it describes or
// credits an image, which the Markdown does not show.
func isCaption(n *html.Node) bool {
	if n.DataAtom == atom.Figcaption {
		return true
	}
	cls := attr(n, "class")
	if cls == "" {
		return false
	}
	cls = strings.ToLower(cls)
	for _, w := range captionWords {
		if strings.Contains(cls, w) {
			return textLen(n) <= maxCaption
		}
	}
	return false
}
