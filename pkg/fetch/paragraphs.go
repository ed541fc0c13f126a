package fetch

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Paragraph filtering runs on the article readability chose. Pruning
// before readability removes the blocks a page marks as chrome; what it
// cannot see are the single lines of boilerplate written into the
// article's own flow: image captions and credits, "Read more:" and
// "Related:" lines, calls to subscribe, bylines and dates, and the
// heading of a link list pruned away. Like trafilatura, tavo judges such
// lines one block at a time, by their tag, their length, their links and
// their words; nothing in it knows a site.

// filterArticle removes the boilerplate lines from the article under n.
func filterArticle(n *html.Node) {
	var blocks []*html.Node
	collectLines(n, &blocks, true)
	for _, b := range blocks {
		if isBoilerLine(b) {
			remove(b)
		}
	}
	cutAtEnd(n, blocks)
	dropAboveTitle(n, blocks)
	dropClosingNotices(n, blocks)
	dropTrailingHeadings(n)
}

// noticeWords mark a copyright or licence notice: "© 2022 …", "This
// article is the copyrighted property of …", "Dieser Text wurde
// veröffentlicht unter der Lizenz CC-BY …", "Materiał chroniony prawem
// autorskim".
var noticeWords = []string{"©", "copyright", "all rights reserved", "alle rechte vorbehalten", "tous droits réservés",
	"todos los derechos", "derechos reservados", "tutti i diritti", "wszelkie prawa zastrzeżone", "prawem autorskim",
	"creative commons", "cc-by", "cc by", "lizenz", "licence", "license", "licencia", "licenza", "nachdruck",
	"reprint", "weiterverbreitung", "vervielfältigung"}

// maxNotice is the letters and digits of the longest line taken for a
// closing notice.
const maxNotice = 250

// closingLines is how many of the article's last lines are looked at
// for a notice.
const closingLines = 3

// dropClosingNotices removes, among the last closingLines lines of the
// article, those of up to maxNotice letters that state a copyright or a
// licence: pages close an article with the site's notice, which is not
// its text. Earlier in the article such a line is text.
func dropClosingNotices(n *html.Node, blocks []*html.Node) {
	var live []*html.Node
	for _, b := range blocks {
		if contains(n, b) && textLen(b) > 0 {
			live = append(live, b)
		}
	}
	for i := len(live) - 1; i >= 0 && i >= len(live)-closingLines; i-- {
		b := live[i]
		if textLen(b) > maxNotice {
			continue
		}
		low := strings.ToLower(textOf(b))
		for _, w := range noticeWords {
			if strings.Contains(low, w) {
				remove(b)
				break
			}
		}
	}
}

func remove(n *html.Node) {
	if n.Parent != nil {
		n.Parent.RemoveChild(n)
	}
}

// lineBlocks are the elements judged as one line of text.
var lineBlocks = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Section: true, atom.Header: true,
	atom.Span: true, atom.Time: true, atom.Small: true, atom.Dd: true, atom.Dt: true,
	atom.Li: true,
}

// isBlock reports the elements that break lines.
func isBlock(n *html.Node) bool {
	switch n.DataAtom {
	case atom.P, atom.Div, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Section, atom.Header, atom.Article, atom.Ul, atom.Ol, atom.Li, atom.Table,
		atom.Tr, atom.Td, atom.Th, atom.Blockquote, atom.Pre, atom.Dl, atom.Dd, atom.Dt,
		atom.Figure, atom.Hr, atom.Main, atom.Form, atom.Fieldset:
		return true
	}
	return false
}

// collectLeafBlocks appends the line blocks under n that hold no other
// block: the paragraphs, headings and lone lines of the article.
func collectLeafBlocks(n *html.Node, out *[]*html.Node) bool {
	return collectLines(n, out, false)
}

// collectLines is collectLeafBlocks; with spans, a <span> standing
// alone between blocks is a line too. Only the line filter judges
// those: a page's notices written as spans are not prose the article
// grows by.
func collectLines(n *html.Node, out *[]*html.Node, spans bool) bool {
	hasBlock := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.DataAtom == atom.Pre || c.DataAtom == atom.Table || c.DataAtom == atom.Code {
			hasBlock = true
			continue
		}
		inner := collectLines(c, out, spans)
		if isBlock(c) {
			hasBlock = true
			if !inner && lineBlocks[c.DataAtom] {
				*out = append(*out, c)
			}
		} else if inner {
			hasBlock = true
		} else if spans && aloneInline[c.DataAtom] && standsAlone(c) {
			// An inline element between blocks renders as a line
			// of its own: a section's heading written as a span
			// ("Mehr zum Thema" above a list), a bold "Von:".
			*out = append(*out, c)
		}
	}
	return hasBlock
}

// aloneInline are the inline elements judged as lines when they stand
// alone between blocks (links are not: a link of the article's own,
// to a report or a video, often stands so).
var aloneInline = map[atom.Atom]bool{atom.Span: true, atom.Strong: true, atom.B: true, atom.Em: true, atom.I: true, atom.Font: true, atom.Small: true, atom.Label: true, atom.Time: true}

// standsAlone reports an inline element whose siblings, up to the blocks
// around it, hold no text: it is a line of its own, between blocks.
func standsAlone(n *html.Node) bool {
	block := false
	for _, step := range []func(*html.Node) *html.Node{
		func(x *html.Node) *html.Node { return x.PrevSibling },
		func(x *html.Node) *html.Node { return x.NextSibling },
	} {
		for s := step(n); s != nil; s = step(s) {
			if s.Type == html.TextNode {
				if strings.TrimSpace(s.Data) != "" {
					return false
				}
				continue
			}
			if s.Type != html.ElementNode {
				continue
			}
			if isBlock(s) {
				block = true
				break
			}
			if textLen(s) > 0 {
				return false
			}
		}
	}
	return block
}

// maxBoilerLine is the letters and digits of the longest line judged by
// its words: boilerplate lines are short, and prose that happens to open
// with "Share" is not.
const maxBoilerLine = 60

// boilerOpenings open a short line of boilerplate, in the languages the
// web writes most: calls to read on, share, subscribe or comment, ads,
// image credits, "related" headings.
var boilerOpenings = []string{
	// reading on
	"read more", "read also", "also read", "see also", "related", "more on", "more from",
	"you might also", "you may also", "recommended", "further reading", "continue reading",
	"lesen sie auch", "lesen sie hier", "lies auch", "auch interessant", "mehr zum thema", "mehr zu",
	"weiterlesen", "weitere artikel", "verwandte", "ähnliche", "empfohlene", "das könnte",
	"das thema könnte", "à lire aussi", "lire aussi", "voir aussi", "leggi anche", "czytaj też",
	"czytaj także", "zobacz też", "zobacz także", "lee también", "leia também",
	// sharing, subscribing, commenting
	"share", "teilen", "tweet", "subscribe", "sign up", "newsletter", "abonnieren", "follow us",
	"comments", "kommentare", "kommentieren", "leave a comment", "leave a reply", "print", "drucken", "drukuj",
	// ads
	"advertisement", "anzeige", "werbung", "sponsored", "reklama", "publicité", "pubblicità",
	// credits
	"photo:", "photo by", "photograph", "foto:", "fotos:", "bild:", "bilder:", "image:", "images:",
	"credit", "crédit", "titelbild", "beitragsbild", "quelle:", "source:", "źródło",
	"©", "(c)", "copyright",
	// meta
	"posted in", "filed under", "tags:", "schlagwörter", "kategorie", "category:", "permalink", "permalien",
	"this entry was posted", "published", "updated", "aktualisiert", "publiziert", "veröffentlicht",
	"stand:", "opublikowano", "publikacja", "von:", "by:",
	"lesezeit", "lesedauer", "reading time", "temps de lecture", "tiempo de lectura", "tempo de leitura",
	"czas czytania", "ten tekst przeczytasz",
	// controls written as text
	"zurück", "back to", "bild anzeigen", "lade weitere", "load more", "show more", "mehr anzeigen",
	"ihr warenkorb", "your cart", "valora esta", "rate this", "wie bewerten sie", "bewerten sie",
	"nos siga", "siga-nos", "síguenos", "folgen sie uns", "pdf herunterladen", "als pdf", "download pdf",
	"externer inhalt", "inhaltsverzeichnis", "table of contents", "kontakt", "ansprechpartner",
}

// isBoilerLine reports a leaf block that is a line of boilerplate.
func isBoilerLine(n *html.Node) bool {
	text := strings.TrimSpace(cleanSpace(textOf(n)))
	k := countWordChars(text)
	if k == 0 {
		return false
	}
	if k <= maxBoilerLine {
		low := strings.ToLower(strings.TrimLeftFunc(text, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '©' && r != '('
		}))
		for _, w := range boilerOpenings {
			if strings.HasPrefix(low, w) {
				return true
			}
		}
	}
	if k <= maxPromoLine && isPromoLine(n, text, k) {
		return true
	}
	if findElement(n, atom.Br) != nil {
		// Lines broken by <br> (an address, a date above a place)
		// are judged by their openings only.
		return false
	}
	if isDateLine(text, k) || k <= 30 && readingTime().MatchString(text) {
		return true
	}
	if k <= maxCaption && (creditTail().MatchString(text) || figureLabel().MatchString(text)) {
		// A caption left in the article's flow: a picture's
		// description ending in its credit, or a figure's label.
		return true
	}

	// A list item that is a link is an entry of a list the article
	// gives (sources, further reading it chose): pruning judged the list.
	if n.DataAtom != atom.Li && isLinkLine(n, k) {
		return true
	}
	return false
}

// maxPromoLine is the letters and digits of the longest line judged a
// promotion by its opening: "Read also: <the title of another story>" and
// calls to subscribe or download run longer than other boilerplate lines,
// and a paragraph of prose is longer still.
const maxPromoLine = 200

// readOnOpenings open a pointer to another story; on a longer line they
// count when a colon or a link follows.
var readOnOpenings = []string{
	"read more", "read also", "also read", "see also", "related", "more on", "more from",
	"lesen sie auch", "lesen sie hier", "lies auch", "auch interessant", "mehr zum thema", "weiterlesen",
	"à lire aussi", "lire aussi", "voir aussi", "a lire aussi", "leggi anche", "czytaj też", "czytaj także",
	"zobacz też", "zobacz także", "lee también", "lea también", "lea más", "lea:", "vea también", "ver también",
	"mira también", "leia também", "leia mais", "veja também",
	"le puede interesar", "te puede interesar", "puede interesarte", "también te puede interesar", "auch lesen",
}

// callOpenings open a call to the reader rather than text of the article:
// to subscribe, to download the app, to share what they liked.
var callOpenings = []string{
	"if you enjoyed", "if you liked", "if you like this", "enjoyed this", "did you enjoy", "like this article",
	"for the latest", "download our app", "download the app", "to view the full", "to continue reading",
	"to read the full", "subscribe to", "sign up for", "never miss", "don't miss", "do you want to be informed",
	"artikel gefallen", "hat dir der artikel", "hat ihnen der artikel", "gefällt dir", "gefällt ihnen",
	"um weiterzulesen", "jetzt abonnieren", "pour lire la suite", "abonnez-vous", "inscrivez-vous",
	"suscríbete", "suscribete",
}

// isPromoLine reports a line of up to maxPromoLine letters that points to
// another story ("Read also: …", with a colon or a link) or calls the
// reader to subscribe, download or share.
func isPromoLine(n *html.Node, text string, k int) bool {
	low := strings.ToLower(strings.TrimLeftFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}))
	for _, w := range callOpenings {
		if strings.HasPrefix(low, w) {
			return true
		}
	}
	for _, w := range readOnOpenings {
		if !strings.HasPrefix(low, w) {
			continue
		}
		rest := strings.TrimSpace(low[len(w):])
		return strings.HasPrefix(rest, ":") || strings.HasSuffix(w, ":") || linkText(n) > k/2
	}
	return false
}

// linkText counts the letters and digits inside links under n.
func linkText(n *html.Node) int {
	link := 0
	var walk func(*html.Node, bool)
	walk = func(c *html.Node, in bool) {
		if c.Type == html.TextNode && in {
			link += countWordChars(c.Data)
		}
		for d := c.FirstChild; d != nil; d = d.NextSibling {
			walk(d, in || d.DataAtom == atom.A && d.Type == html.ElementNode)
		}
	}
	walk(n, false)
	return link
}

// isDateLine reports a short line that is only a date or time, maybe with
// a word or two ("Stand: 05. Februar 2020", "3:59 PM").
func isDateLine(text string, k int) bool {
	if k > 30 {
		return false
	}
	digits, words := 0, 0
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		isNum := true
		for _, r := range f {
			if !unicode.IsDigit(r) {
				isNum = false
				break
			}
		}
		if isNum {
			digits += len(f)
		} else {
			words++
		}
	}
	return digits >= 4 && words <= 3
}

// isLinkLine reports a short line that is mostly link text: a teaser, a
// "next story" link (trafilatura's link density test on paragraphs).
func isLinkLine(n *html.Node, k int) bool {
	limit := 30
	if n.DataAtom != atom.P {
		limit = 100
	}
	if k >= limit {
		return false
	}
	return float64(linkText(n)) > 0.8*float64(k)
}

// dropTrailingHeadings removes the headings left at the end of the
// article: the title of a block that pruning removed ("Related stories").
// A heading that is all the article holds stays.
func dropTrailingHeadings(n *html.Node) {
	total := textLen(n)
	for {
		last := lastTextBlock(n)
		if last == nil || last == n || !isHeading(last) {
			return
		}
		k := textLen(last)
		if k >= total {
			return
		}
		total -= k
		remove(last)
	}
}

func isHeading(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// lastTextBlock returns the last element under n holding text that is a
// heading or a leaf block.
func lastTextBlock(n *html.Node) *html.Node {
	for c := n.LastChild; c != nil; c = c.PrevSibling {
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return n
		}
		if c.Type != html.ElementNode || textLen(c) == 0 {
			continue
		}
		if isHeading(c) {
			return c
		}
		if f := lastTextBlock(c); f != nil {
			return f
		}
		return c
	}
	return nil
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

// Where an article ends. Pages close an article with sections that are
// not its text: the comment thread, "Related articles", "More from",
// "About the author". Pruning removes the ones the page names as such;
// the others open with a heading (or a bold label standing as one) in
// the words every site uses, and all that follows it is that section or
// more of the page's chrome. The cut is made only in the second half of
// the article, so a heading near the top ("Related work" in a paper, a
// "Comments" section that is the topic) cannot empty it.

// endOpenings open the heading of a section that ends the article.
var endOpenings = []string{
	// related and further reading
	"related", "read more", "read also", "more from", "more on", "more stories", "more articles", "see also",
	"you may also", "you might also", "recommended for you", "further reading", "latest news", "latest articles",
	"latest posts", "latest stories", "most popular", "most read", "top stories", "other articles", "other stories",
	"mehr zum thema", "mehr themen", "mehr zu", "mehr aus", "mehr von", "weitere artikel", "weitere beiträge",
	"weitere themen", "weitere nachrichten", "weiterführend", "ähnliche", "verwandte", "neueste", "neuste",
	"aktuelle artikel", "auch lesen", "lesen sie auch", "lies auch", "das könnte", "diese artikel", "zum weiterlesen",
	"meistgelesen", "meist-diskutiert", "meistdiskutiert", "beliebteste", "schon gelesen", "vous aimerez",
	"más sobre", "mas sobre",
	"à lire aussi", "a lire aussi", "lire aussi", "sur le même sujet", "articles similaires", "dans la même rubrique",
	"leggi anche", "articoli correlati", "potrebbe interessarti", "lee también", "te puede interesar",
	"le puede interesar", "noticias relacionadas", "más noticias", "leia também", "veja também",
	"czytaj też", "czytaj także", "zobacz też", "zobacz także", "podobne", "lue aiheesta", "lue myös",
	// comments
	"comments", "leave a reply", "leave a comment", "responses", "kommentare",
	"commentaires", "commenti", "comentarios", "komentarze",
	// the author
	"about the author", "über den autor", "über die autorin", "zum autor", "zur autorin", "autor:innen",
	"à propos de l'auteur", "sobre el autor",
	// sharing
	"share this", "share on", "teilen", "diesen artikel teilen", "artikel teilen", "partager", "compartir",
}

// maxEndHeading is the letters and digits of the longest heading taken
// for the opening of an end section.
const maxEndHeading = 60

// cutAtEnd removes, from the article under n, the first end-section
// heading in its second half, or followed by no prose, and everything
// after it.
func cutAtEnd(n *html.Node, blocks []*html.Node) {
	total := textLen(n)
	seen := 0
	for i, b := range blocks {
		if b.Parent == nil {
			continue
		}
		k := textLen(b)
		if isEndHeading(b, k) && (2*seen >= total || !proseAfter(blocks[i+1:])) {
			removeFrom(n, b)
			return
		}
		seen += k
	}
}

// proseAfter reports whether any of the blocks still in the tree is a
// paragraph of prose.
func proseAfter(blocks []*html.Node) bool {
	for _, b := range blocks {
		if b.Parent != nil && b.DataAtom == atom.P && plainTextLen(b) >= minParagraph {
			return true
		}
	}
	return false
}

// isEndHeading reports a heading, or a short line standing as one (all
// bold, ending in a colon, or bare: the opening alone, "Über den
// Autor" above a bio, or two words, "Weiterführende Links"), that
// opens an end section.
func isEndHeading(b *html.Node, k int) bool {
	if k == 0 || k > maxEndHeading {
		return false
	}
	text := strings.TrimSpace(cleanSpace(textOf(b)))
	standing := isHeading(b) || strings.HasSuffix(text, ":") || allBold(b)
	low := strings.ToLower(strings.TrimLeftFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && r != 'à' // "12 Comments", "» Related"
	}))
	// A plain line of one or two words, no sentence: "Über den
	// Autor", "Weiterführende Links".
	whole := strings.TrimRightFunc(low, func(r rune) bool { return !unicode.IsLetter(r) })
	bare := len(strings.Fields(whole)) <= 2 && !strings.ContainsAny(whole, ".,!?") || slices.Contains(endOpenings, whole)
	for _, w := range endOpenings {
		if strings.HasPrefix(low, w) && (standing || bare) {
			return true
		}
	}
	return false
}

// allBold reports a block whose text is all inside <strong> or <b>.
func allBold(n *html.Node) bool {
	plain := 0
	var walk func(*html.Node, bool)
	walk = func(c *html.Node, bold bool) {
		if c.Type == html.TextNode && !bold {
			plain += countWordChars(c.Data)
		}
		for d := c.FirstChild; d != nil; d = d.NextSibling {
			walk(d, bold || d.Type == html.ElementNode && (d.DataAtom == atom.Strong || d.DataAtom == atom.B))
		}
	}
	walk(n, false)
	return plain == 0
}

// removeFrom removes b and everything after it in document order, up to
// the end of root.
func removeFrom(root, b *html.Node) {
	for x := b; x != nil && x != root; x = x.Parent {
		for next := x.NextSibling; next != nil; next = x.NextSibling {
			x.Parent.RemoveChild(next)
		}
	}
	remove(b)
}

// creditTail ends a caption with the picture's credit: "… © AFP / MARCO
// BERTORELLO", "… (Foto: Getty)", "… Foto: Andina", "… /domena
// publiczna". The credit word stands at the line's start or after
// punctuation ("Primary funding source: …" is no credit), and at most
// 60 characters without a full stop follow it. Compiled on first use,
// so starting tavo pays nothing for it.
var creditTail = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(©|\(c\)\s|(^|[.,;|/(–—-]\s*)(fotos?|photos?|bild|bilder|credits?|crédit|quelle|source|image|images)\s*:|\bphoto by\b|/\s*domena publiczna)[^.!?]{0,60}\)?\s*$`)
})

// figureLabel opens the caption of a figure or table: "Abbildung 4:",
// "Fig. 2.", "Table 1:".
var figureLabel = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\W*(abbildung|abb\.|figure|fig\.|grafik|grafico|gráfico|graphique|tabelle|table|tabla|wykres|ryc\.|rycina)\s*\d*[a-z]?\s*[:.]`)
})

// readingTime matches a reading time written number first: "4 Min
// Read", "3 Minuten Lesezeit", "5 min de lecture" (post metadata, like
// the "Lesezeit: 3 Minuten" the openings catch).
var readingTime = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\W*\d+\s*(min\.?|mins|minutes?|minuten|minutos|minuti|minut)\s*(read|reading|lesezeit|lesedauer|de lecture|de lectura|di lettura|de leitura|czytania)\W*$`)
})

// dropAboveTitle removes the short lines (up to maxBoilerLine letters)
// that stand above the article's <h1> when no paragraph of prose does:
// a shop's cart message, a site's name, a back link, a kicker of
// chrome. A page that opens with prose above its title keeps all.
func dropAboveTitle(n *html.Node, blocks []*html.Node) {
	h := findElement(n, atom.H1)
	if h == nil {
		return
	}
	var above []*html.Node
	for _, b := range blocks {
		if contains(b, h) || contains(h, b) {
			break
		}
		if b.Parent == nil {
			continue
		}
		if isProse(b) {
			return
		}
		above = append(above, b)
	}
	for _, b := range above {
		if textLen(b) <= maxBoilerLine {
			remove(b)
		}
	}
}
