package fetch

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Pages rendered by JavaScript often serve an empty shell and their
// article only as schema.org metadata: a <script type="application/ld+json">
// whose articleBody is the whole text. When that text is much longer than
// what extraction found in the page's markup, the metadata is the better
// witness of the article and replaces it.

// ldArticleBody returns the longest schema.org articleBody in the page's
// JSON-LD scripts, or "".
func ldArticleBody(doc *html.Node) string {
	best := ""
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == atom.Script {
				if strings.EqualFold(strings.TrimSpace(attr(c, "type")), "application/ld+json") && c.FirstChild != nil &&
					strings.Contains(c.FirstChild.Data, "articleBody") {
					if b := findArticleBody(c.FirstChild.Data); len(b) > len(best) {
						best = b
					}
				}
				continue
			}
			walk(c)
		}
	}
	walk(doc)
	return best
}

// findArticleBody decodes one JSON-LD script and returns the longest
// articleBody string anywhere in it (objects, arrays, @graph).
func findArticleBody(src string) string {
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		return ""
	}
	best := ""
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == "articleBody" && len(s) > len(best) {
					best = s
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return best
}

// ldArticleNode builds the article from an articleBody: HTML when it
// holds markup, else one paragraph per line.
func ldArticleNode(body string) *html.Node {
	div := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	if strings.Contains(body, "</") {
		if nodes, err := html.ParseFragment(strings.NewReader(body), div); err == nil {
			for _, n := range nodes {
				div.AppendChild(n)
			}
			return div
		}
	}
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		p := &html.Node{Type: html.ElementNode, Data: "p", DataAtom: atom.P}
		p.AppendChild(&html.Node{Type: html.TextNode, Data: line})
		div.AppendChild(p)
	}
	return div
}

// keepLead puts the first paragraph of prose of the extracted article at
// the top of ld when the articleBody lacks it: the lead a paywalled page
// shows above its wall, which its metadata leaves out.
func keepLead(ld, article *html.Node, body string) {
	lead := firstProse(article)
	if lead == nil {
		return
	}
	if strings.Contains(cleanSpace(body), cleanSpace(textOf(lead))) {
		return
	}
	lead.Parent.RemoveChild(lead)
	ld.InsertBefore(lead, ld.FirstChild)
}

// firstProse returns the first paragraph under n long enough to be prose.
func firstProse(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.DataAtom == atom.P {
			if plainTextLen(c) >= minParagraph {
				return c
			}
			continue
		}
		if f := firstProse(c); f != nil {
			return f
		}
	}
	return nil
}
