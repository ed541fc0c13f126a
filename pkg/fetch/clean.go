package fetch

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// noiseElements never carry text a reader of the page would see, or carry
// only navigation and form controls.
var noiseElements = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Iframe: true, atom.Frame: true, atom.Frameset: true, atom.Object: true,
	atom.Embed: true, atom.Applet: true, atom.Svg: true, atom.Canvas: true,
	atom.Audio: true, atom.Video: true, atom.Source: true, atom.Track: true,
	atom.Map: true, atom.Input: true, atom.Select: true, atom.Option: true,
	atom.Textarea: true, atom.Button: true, atom.Nav: true, atom.Link: true,
	atom.Meta: true,
	// Ruby annotations: the reading of the characters they sit beside
	// (furigana), which inline Markdown would splice into the text.
	atom.Rt: true, atom.Rp: true,
}

// noiseRoles are ARIA roles of navigation chrome.
var noiseRoles = map[string]bool{
	"navigation": true, "menubar": true, "menu": true, "search": true,
}

// clean removes noise from the tree under root before conversion: scripts,
// styles, navigation, form controls and hidden elements. It also drops
// javascript: links (keeping their text) and inline data: images, which
// would only spend the reader's budget on base64.
func clean(root *html.Node) {
	var next *html.Node
	for n := root.FirstChild; n != nil; n = next {
		next = n.NextSibling
		if n.Type != html.ElementNode {
			continue
		}
		if isNoise(n) {
			root.RemoveChild(n)
			continue
		}
		switch n.DataAtom {
		case atom.A:
			if href := strings.TrimSpace(strings.ToLower(attr(n, "href"))); strings.HasPrefix(href, "javascript:") {
				removeAttr(n, "href")
			}
			// Tooltips repeat the link text and cost the reader bytes.
			removeAttr(n, "title")
		case atom.Td, atom.Th:
			clampSpan(n, "rowspan")
			clampSpan(n, "colspan")
		case atom.Img:
			if !fixImage(n) {
				if alt := strings.TrimSpace(attr(n, "alt")); alt != "" {
					root.InsertBefore(&html.Node{Type: html.TextNode, Data: alt}, n)
				}
				root.RemoveChild(n)
				continue
			}
			removeAttr(n, "title")
		}
		clean(n)
		switch {
		case n.DataAtom == atom.A && !hasContent(n):
			// An empty link renders as "[](…)", which says nothing.
			root.RemoveChild(n)
		case unwrapElements[n.DataAtom]:
			// Inline wrappers mean nothing in Markdown; lifting their
			// children saves the converter a render call per wrapper,
			// and pages nest them deeply.
			for c := n.FirstChild; c != nil; c = n.FirstChild {
				n.RemoveChild(c)
				root.InsertBefore(c, n)
			}
			root.RemoveChild(n)
		}
	}
}

// unwrapElements are inline elements with no Markdown form.
var unwrapElements = map[atom.Atom]bool{atom.Span: true, atom.Font: true}

// hasContent reports text or an image under n.
func hasContent(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return true
		case c.Type == html.ElementNode && c.DataAtom == atom.Img:
			return true
		case c.Type == html.ElementNode && hasContent(c):
			return true
		}
	}
	return false
}

func isNoise(n *html.Node) bool {
	if noiseElements[n.DataAtom] {
		return true
	}
	if n.DataAtom == atom.Dialog && !hasAttr(n, "open") {
		return true
	}
	if noiseRoles[strings.ToLower(attr(n, "role"))] {
		return true
	}
	return isHidden(n)
}

// isHidden reports an element the page hides from every reader.
func isHidden(n *html.Node) bool {
	if hasAttr(n, "hidden") || strings.EqualFold(attr(n, "aria-hidden"), "true") {
		return true
	}
	style := attr(n, "style")
	if style == "" {
		return false
	}
	for _, decl := range strings.Split(strings.ToLower(style), ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		prop, val = strings.TrimSpace(prop), strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), "!important"))
		if prop == "display" && val == "none" || prop == "visibility" && val == "hidden" {
			return true
		}
	}
	return false
}

// lazySrcAttrs hold the real image URL on lazy-loading pages.
var lazySrcAttrs = []string{"data-src", "data-original", "data-lazy-src", "data-url"}

// fixImage points an image at a real URL when the page lazy-loads it; it
// reports false when the image has no URL worth keeping.
func fixImage(n *html.Node) bool {
	src := strings.TrimSpace(attr(n, "src"))
	if src != "" && !strings.HasPrefix(strings.ToLower(src), "data:") {
		return true
	}
	for _, k := range lazySrcAttrs {
		if v := strings.TrimSpace(attr(n, k)); v != "" && !strings.HasPrefix(strings.ToLower(v), "data:") {
			setAttr(n, "src", v)
			return true
		}
	}
	if first, _, _ := strings.Cut(strings.TrimSpace(attr(n, "srcset")), " "); first != "" && !strings.HasPrefix(strings.ToLower(first), "data:") {
		setAttr(n, "src", strings.TrimSuffix(first, ","))
		return true
	}
	return false
}

// maxSpan bounds rowspan and colspan: the table converter fills every
// spanned cell, so rowspan=9999999 would make millions of them.
const maxSpan = 100

func clampSpan(n *html.Node, key string) {
	v := strings.TrimSpace(attr(n, key))
	if v == "" {
		return
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 1 {
		removeAttr(n, key)
		return
	}
	if i > maxSpan {
		setAttr(n, key, strconv.Itoa(maxSpan))
	}
}

func removeAttr(n *html.Node, key string) {
	out := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != key {
			out = append(out, a)
		}
	}
	n.Attr = out
}

func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}
