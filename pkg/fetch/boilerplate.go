package fetch

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Boilerplate pruning runs before readability in auto and main mode. It
// removes what a page says is not its content — comment threads, sidebars,
// share bars, related-article and link-list blocks, site footers — so that
// readability scores what is left and cannot pick a link list or a comment
// thread as the article. It works from what pages declare (landmark
// elements, ARIA roles, class and id words) and from link density; nothing
// in it knows a site.

// commentWords open a class or id token of a comment section: pruned
// whatever its size, since a long thread under a short post is the case
// that matters.
var commentWords = []string{"comment", "disqus", "respond", "reply", "replies", "trackback", "pingback"}

// boilerWords open a class or id token of page chrome. A token matches when
// it starts with one of them: "sidebar-left", "sharebar", "relatedposts".
var boilerWords = []string{
	"sidebar", "related", "share", "sharing", "social", "newsletter",
	"subscribe", "promo", "sponsor", "advert", "cookie", "consent", "gdpr",
	"breadcrumb", "footer", "menu", "navbar", "navigation", "popup", "modal",
	"pagination", "pager", "morefrom", "more-from", "recommend",
	"teaser", "taglist", "tagcloud", "tag-cloud", "skip-link", "skiplink",
	"masthead", "toolbar", "signup", "paywall",
	// Bylines, author boxes and the meta line of a post: who wrote it and
	// when, not what it says.
	"author", "byline", "meta", "rating",
}

// boilerTokens are whole class or id tokens of page chrome, too short or
// too common to match as prefixes.
var boilerTokens = map[string]bool{
	"ad": true, "ads": true, "nav": true, "tags": true,
	"print": true, "rss": true, "outbrain": true, "taboola": true,
	"most-popular": true, "mostpopular": true, "popular": true, "trending": true,
	"tag-links": true, "tags-links": true, "post-tags": true, "entry-tags": true,
}

// contentWords in an element's own class or id say it holds the article;
// such an element is never pruned for its words ("post-content
// has-comments", "entry-content-share").
var contentWords = []string{"article", "content", "entry", "post-body", "postbody", "story", "main", "text", "body"}

// boilerRoles are ARIA roles of page chrome.
var boilerRoles = map[string]bool{
	"navigation": true, "menubar": true, "menu": true, "search": true,
	"complementary": true, "contentinfo": true,
}

// maxLinkDensity is the share of a block's text in links above which the
// block is a link list (menus, "more from" blocks, publisher footers).
const maxLinkDensity = 0.6

// minLinkListLinks is how many links a link list has at least; a
// paragraph with one link as most of its text is content.
const minLinkListLinks = 3

// pruneBoilerplate removes page chrome from the tree under root and
// returns the letters and digits left in the page body.
func pruneBoilerplate(root *html.Node) int {
	body := findElement(root, atom.Body)
	if body == nil {
		body = root
	}
	p := pruner{total: textLen(body), prose: proseLen(body) >= minProse}
	return p.prune(body, false).text
}

// pruner holds what the walk needs to know of the whole page.
type pruner struct {
	// total is the letters and digits of the page body.
	total int
	// prose is whether the page holds paragraphs of prose: an article
	// page, where link lists are chrome whatever their size.
	prose bool
}

// maxChromeShare is the share of the page's text above which an element
// named like chrome ("share-zone", "content-sidebar-wrap") is taken to
// wrap the content after all; comment sections have no such bound.
const maxChromeShare = 0.3

// blockStats are the letters and digits under a node and those inside links.
type blockStats struct {
	text, link, links int
}

// prune walks n's children depth first, removing boilerplate, and returns
// the statistics of what is left; inLink is true inside a link. Children
// are pruned first, so a wrapper is judged on what is left of it.
func (p *pruner) prune(n *html.Node, inLink bool) blockStats {
	var s blockStats
	var next *html.Node
	for c := n.FirstChild; c != nil; c = next {
		next = c.NextSibling
		switch c.Type {
		case html.TextNode:
			k := countWordChars(c.Data)
			s.text += k
			if inLink {
				s.link += k
			}
			continue
		case html.ElementNode:
		default:
			continue
		}
		if isNoise(c) || p.isChrome(c) || isCaption(c) {
			n.RemoveChild(c)
			continue
		}
		cs := p.prune(c, inLink || c.DataAtom == atom.A)
		if c.DataAtom == atom.A {
			cs.links++
		}
		if isLinkList(c, cs) && (p.prose || 2*cs.text < p.total) {
			n.RemoveChild(c)
			continue
		}
		s.text += cs.text
		s.link += cs.link
		s.links += cs.links
	}
	return s
}

// linkListElements are the blocks judged by link density.
var linkListElements = map[atom.Atom]bool{
	atom.Div: true, atom.Ul: true, atom.Ol: true, atom.Section: true, atom.Aside: true,
	atom.Footer: true, atom.Header: true, atom.Table: true, atom.Dl: true, atom.Menu: true,
	atom.Center: true, atom.Font: true, atom.Td: true, atom.P: true,
}

// isLinkList reports a block that is mostly links: a menu, a list of other
// articles, a site footer. On a page without prose, one that holds half
// the page's text is what the page is (an index, a table of contents) and
// stays.
func isLinkList(n *html.Node, s blockStats) bool {
	if !linkListElements[n.DataAtom] || s.links < minLinkListLinks || s.text == 0 {
		return false
	}
	return float64(s.link) > maxLinkDensity*float64(s.text)
}

// isChrome reports an element that declares itself page chrome by its tag,
// ARIA role or class and id words, unless it holds what marks the article
// or, for all but comment sections, a large share of the page's text.
func (p *pruner) isChrome(n *html.Node) bool {
	var v verdict
	switch n.DataAtom {
	case atom.Aside, atom.Footer:
		v = chrome
	case atom.Article, atom.Main, atom.Body, atom.Html, atom.H1:
		return false
	}
	if role := strings.ToLower(strings.TrimSpace(attr(n, "role"))); role != "" {
		if role == "main" || role == "article" {
			return false
		}
		if boilerRoles[role] {
			v = chrome
		}
	}
	if v == content {
		if strings.EqualFold(strings.TrimSpace(attr(n, "itemprop")), "description") {
			// schema.org's description of the page's item: the
			// lead of the article, whatever its class says ("teaser").
			return false
		}
		v = nameVerdict(attr(n, "class"))
		if !isHeading(n) {
			// A heading's id is an anchor made of its words
			// ("nav_nur_die_folie"), not a name of its role.
			v = max(v, nameVerdict(attr(n, "id")))
		}
	}
	switch v {
	case content:
		return false
	case chrome:
		if float64(textLen(n)) > maxChromeShare*float64(p.total) || proseLen(n) >= minProse {
			return false
		}
	}
	return !holdsArticle(n)
}

// minProse is the prose an element named like chrome may hold before it is
// taken for the content's wrapper: a few real paragraphs. Sidebars and
// share bars hold links and short blurbs.
const minProse = 400

// minParagraph is the text a paragraph needs to count as prose.
const minParagraph = 80

// proseLen counts the letters and digits outside links in the paragraphs
// under n that are long enough to be prose, stopping once it has enough.
func proseLen(n *html.Node) int {
	total := 0
	var walk func(*html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == atom.P {
				if k := plainTextLen(c); k >= minParagraph {
					total += k
				}
			} else if walk(c) {
				return true
			}
			if total >= minProse {
				return true
			}
		}
		return false
	}
	walk(n)
	return total
}

// plainTextLen counts the letters and digits under n outside links.
func plainTextLen(n *html.Node) int {
	k := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			k += countWordChars(c.Data)
		case c.Type == html.ElementNode && c.DataAtom != atom.A:
			k += plainTextLen(c)
		}
	}
	return k
}

// verdict is what an element's names say it is.
type verdict int

const (
	content  verdict = iota // nothing against it
	chrome                  // page chrome: sidebars, share bars, footers
	comments                // a comment section
)

// nameVerdict reads a class or id value. Words of content in it win: an
// element named "post-content has-comments" is the post.
func nameVerdict(v string) verdict {
	if v == "" {
		return content
	}
	v = strings.ToLower(v)
	found := content
	for _, tok := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '_' }) {
		for _, w := range contentWords {
			if strings.Contains(tok, w) {
				return content
			}
		}
		found = max(found, tokenVerdict(tok))
	}
	return found
}

func tokenVerdict(tok string) verdict {
	for _, w := range commentWords {
		if strings.HasPrefix(tok, w) || strings.Contains(tok, "-"+w) {
			return comments
		}
	}
	if on, ok := boilerTokens[tok]; ok {
		if on {
			return chrome
		}
		return content
	}
	for _, w := range boilerWords {
		if strings.HasPrefix(tok, w) || strings.Contains(tok, "-"+w) {
			return chrome
		}
	}
	return content
}

// holdsArticle reports an element that holds the article's marks: <main>,
// role=main, an <h1> or schema.org's articleBody (not <article>: lists of
// related stories are made of them). A
// wrapper named for its sidebar ("content-sidebar-wrap") is not chrome.
func holdsArticle(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.Main, atom.H1:
			return true
		}
		if r := strings.ToLower(attr(c, "role")); r == "main" || r == "article" {
			return true
		}
		if strings.EqualFold(attr(c, "itemprop"), "articleBody") {
			return true
		}
		if holdsArticle(c) {
			return true
		}
	}
	return false
}

// findElement returns the first element a under n, depth first.
func findElement(n *html.Node, a atom.Atom) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == a {
			return c
		}
		if f := findElement(c, a); f != nil {
			return f
		}
	}
	return nil
}
