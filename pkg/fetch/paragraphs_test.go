package fetch

import (
	"strings"
	"testing"
)

// article wraps body in a page whose article readability will pick.
func article(body string) string {
	return `<html><head><title>The mill</title></head><body><article><h1>The mill</h1>` +
		para("BODY-ONE") + body + para("BODY-TWO") + para("BODY-THREE") + `</article></body></html>`
}

func TestCaptionsDropped(t *testing.T) {
	src := article(`<figure><img src="/m.jpg" alt=""><figcaption>FIG-CAPTION the mill in 1920</figcaption></figure>` +
		`<div class="wp-caption"><img src="/n.jpg" alt=""><p class="wp-caption-text">CLASS-CAPTION Photo: J. Doe</p></div>` +
		`<p class="image-credit">CREDIT-LINE Agency</p>`)
	for _, mode := range []Extract{ExtractAuto, ExtractMain} {
		out := convertMode(t, src, mode)
		wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE")
		wantLacks(t, out.Markdown, "FIG-CAPTION", "CLASS-CAPTION", "CREDIT-LINE")
	}
	// full keeps them.
	wantContains(t, convertMode(t, src, ExtractFull).Markdown, "FIG-CAPTION", "CLASS-CAPTION")
}

func TestLongCaptionClassKept(t *testing.T) {
	// A block named like a caption that holds paragraphs is text.
	src := article(`<div class="caption-wrap">` + para("WRAPPED-ONE") + para("WRAPPED-TWO") + para("WRAPPED-THREE") + `</div>`)
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "WRAPPED-ONE", "WRAPPED-THREE")
}

func TestBoilerplateLinesDropped(t *testing.T) {
	src := article(`<p><strong>Read more:</strong> <a href="/other">LINKED-TEASER the next story</a></p>` +
		`<p>Lesen Sie auch: VOCAB-GERMAN</p>` +
		`<p>Advertisement</p>` +
		`<p>Photo: PHOTO-CREDIT/Agency</p>` +
		`<p>Updated: 05.02.2020, 10:27</p>` +
		`<p>23.10.2018</p>` +
		`<p><a href="/next">NEXT-LINK</a></p>` +
		`<p>Zurück zur LISTENANSICHT</p>` +
		`<p>Rate this ARTICLE-RATING</p>` +
		`<p>Lesezeit: 3 Minuten READING-TIME</p>` +
		`<p>4 Min Read</p><p>3 Minuten Lesezeit</p>` +
		`<p>LE PUEDE INTERESAR: SPANISH-POINTER la ficha del alcalde en el tribunal</p>` +
		`<p>Auch lesen: GERMAN-POINTER</p>` +
		`<p>Permalien FRENCH-PERMALINK</p>` +
		`<p>Share this with your friends and READ-MORE-PROSE: a paragraph that opens with a verb of sharing but goes on
		for long enough to be the article's own text, and so stays where it is.</p>`)
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE", "READ-MORE-PROSE")
	wantLacks(t, out.Markdown, "LINKED-TEASER", "VOCAB-GERMAN", "Advertisement", "PHOTO-CREDIT", "10:27", "23.10.2018", "NEXT-LINK", "LISTENANSICHT", "ARTICLE-RATING", "READING-TIME", "4 Min Read", "Minuten Lesezeit",
		"SPANISH-POINTER", "GERMAN-POINTER", "FRENCH-PERMALINK")
}

func TestTrailingHeadingDropped(t *testing.T) {
	// The list under "Related stories" is pruned as a link list; its
	// heading must not end the article.
	src := `<html><body><article><h1>The mill</h1>` + para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") +
		`<h3>ORPHAN-HEADING</h3><ul><li><a href="/a">one story</a></li><li><a href="/b">two story</a></li><li><a href="/c">three story</a></li></ul>` +
		`</article></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-THREE")
	wantLacks(t, out.Markdown, "ORPHAN-HEADING")
	// A heading with text after it stays.
	src = `<html><body><article><h1>The mill</h1>` + para("BODY-ONE") + `<h2>KEPT-HEADING</h2>` + para("BODY-TWO") + para("BODY-THREE") + `</article></body></html>`
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "KEPT-HEADING")
}

func TestNarrowArticleWidened(t *testing.T) {
	// Readability scores paragraphs: it keeps the short introduction and
	// leaves the long list of facts that is most of the page's content.
	var b strings.Builder
	b.WriteString(`<html><body><div><div class="intro"><div>` + para("INTRO-ONE") + para("INTRO-TWO") + para("INTRO-THREE") + para("INTRO-FOUR") + `</div></div></div><div><div><div><ul>`)
	for range 40 {
		b.WriteString(`<li>FACT-ROW: the weight of the mill stone is two hundred and twenty kilograms</li>`)
	}
	b.WriteString(`</ul></div></div></div></body></html>`)
	for _, mode := range []Extract{ExtractAuto, ExtractMain} {
		out := convertMode(t, b.String(), mode)
		wantContains(t, out.Markdown, "INTRO-ONE", "FACT-ROW")
		if len(out.Warnings) != 0 || out.Extracted != ExtractMain {
			t.Fatalf("%s: %v %s", mode, out.Warnings, out.Extracted)
		}
	}
}

func TestPromoLinesDropped(t *testing.T) {
	// Longer than the short boilerplate lines, but still a pointer to
	// another story or a call to the reader; prose opening alike stays.
	src := `<html><body><article><h1>The mill</h1>` + para("BODY-ONE") +
		`<p>Read also: <a href="/other">PROMO-LINK how the bakery in the next village reopened its doors after twenty years</a></p>` +
		para("BODY-TWO") +
		`<p>If you enjoyed CALL-LINE this story about the mill, subscribe to our weekly letter for more of them.</p>` +
		`<p>Related KEEP-PROSE work on the dam upstream went on through the winter, as the river was low and the frost kept away.</p>` +
		para("BODY-THREE") + `</article></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE", "KEEP-PROSE")
	wantLacks(t, out.Markdown, "PROMO-LINK", "CALL-LINE")
}

func TestEndSectionCut(t *testing.T) {
	// "Latest news" late in the article opens a section that is not its
	// text: it goes with all that follows, teasers with prose included.
	page := func(body string) string {
		return `<html><body><article><h1>The mill</h1>` + body + `</article></body></html>`
	}
	src := page(para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + `<h2>Latest news</h2>` + para("TEASER-PROSE") +
		`<p><strong>3 Comments</strong></p>` + para("COMMENT-PROSE"))
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE")
	wantLacks(t, out.Markdown, "Latest news", "TEASER-PROSE", "COMMENT-PROSE")
	// In the first half the same heading is the article's own.
	src = page(para("BODY-ONE") + `<h2>Latest news from the mill</h2>` + para("BODY-TWO") + para("BODY-THREE") + para("BODY-FOUR"))
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "Latest news from the mill", "BODY-FOUR")
	// A heading that only starts like one stays ("Popular varieties").
	src = page(para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + `<h3>Popular varieties</h3>` + para("VARIETY-PROSE"))
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "Popular varieties", "VARIETY-PROSE")
}

func TestListItemLines(t *testing.T) {
	// A list item is judged as a line by its words; one that is a link
	// stays, an entry of a list the article gives.
	src := article(`<ul><li>Published: 2021-04-29 LIST-DATE</li><li>ITEM-KEPT the first step of the restoration</li>` +
		`<li><a href="/src">LINKED-SOURCE</a></li></ul>`)
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "ITEM-KEPT", "LINKED-SOURCE")
	wantLacks(t, out.Markdown, "LIST-DATE")
}

func TestCaptionEndingInACreditDropped(t *testing.T) {
	for _, line := range []string{
		"Marco Odermatt, ski star from Switzerland. © AFP / MARCO BERTORELLO",
		"Golf on TV: the broadcast times of the big tournaments. (Foto: Getty)",
		"The school year has three holidays. Foto: Andina",
		"Abbildung 8: Vorgehensweise für grosse Ereignisse",
	} {
		src := `<html><head><title>The mill</title></head><body><div class="story">` +
			para("BODY-ONE") + `<p>` + line + `</p>` + para("BODY-TWO") + para("BODY-THREE") + `</div></body></html>`
		out := convertMode(t, src, ExtractAuto)
		wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE")
		wantLacks(t, out.Markdown, line[:20])
	}
	// A source named inside a sentence is text.
	src := `<html><head><title>The mill</title></head><body><div class="story">` +
		para("BODY-ONE") + `<p>Primary Funding Source: National Institutes of Health</p>` + para("BODY-TWO") + para("BODY-THREE") + `</div></body></html>`
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "Primary Funding Source")
}

func TestClosingNoticeDropped(t *testing.T) {
	notice := "NOTICE-LINE This article is the copyrighted property of the Mill Times. Written permission must be obtained before reprint."
	src := `<html><head><title>The mill</title></head><body><div class="story">` +
		para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + `<p>` + notice + `</p></div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE")
	wantLacks(t, out.Markdown, "NOTICE-LINE")
	// The same line at the top of the article is its text.
	src = `<html><head><title>The mill</title></head><body><div class="story"><p>` + notice + `</p>` +
		para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + para("BODY-FOUR") + `</div></body></html>`
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "NOTICE-LINE")
}

func TestEndSectionLineAlone(t *testing.T) {
	// A plain line holding nothing but an end section's opening stands
	// as its heading: the author's bio after it goes.
	src := `<html><body><article><h1>The mill</h1>` + para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") +
		`<p>Über den Autor</p>` + para("AUTHOR-BIO") + `</article></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-THREE")
	wantLacks(t, out.Markdown, "Über den Autor", "AUTHOR-BIO")
	src = `<html><body><article><h1>The mill</h1>` + para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") +
		`<p>Weiterführende Links</p>` + para("LINKED-TEASER") + `</article></body></html>`
	out = convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-THREE")
	wantLacks(t, out.Markdown, "Weiterführende Links", "LINKED-TEASER")
	// A plain line that only opens with the words is text.
	src = `<html><body><article><h1>The mill</h1>` + para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") +
		`<p>Über den Autor des Mühlenbuchs MILL-LINE</p>` + para("BODY-FOUR") + `</article></body></html>`
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "MILL-LINE", "BODY-FOUR")
}

func TestPrunedPageFiltered(t *testing.T) {
	// The pruned page, returned when readability found no article, is
	// filtered line by line as an article is; full keeps the lines.
	for _, c := range []struct{ src, boiler string }{
		// a short post on a page with more text beside it: the section
		// of comments at the page's end goes with its heading
		{`<html><body><div id="content"><div class="post"><h2>Number two</h2><div class="postentry"><p>PAGE-LINE: a short post, on the second cat, who came home a few days ago.</p>` +
			`<p>This is how it looked when the first one met the newcomer.</p></div></div></div>` +
			`<div id="sidebar"><ul><li><h2>Neueste Kommentare</h2><ul>` + strings.Repeat(`<br><b>Warning</b>: use of undefined constant comments, assumed in the plugin`, 8) + `</ul></li></ul></div></body></html>`,
			"Neueste Kommentare"},
	} {
		for _, mode := range []Extract{ExtractAuto, ExtractMain} {
			out := convertMode(t, c.src, mode)
			wantContains(t, out.Markdown, "PAGE-LINE")
			wantLacks(t, out.Markdown, c.boiler)
		}
		wantContains(t, convertMode(t, c.src, ExtractFull).Markdown, c.boiler)
	}
}

func TestLinesAboveTitleDropped(t *testing.T) {
	// Short lines above the page's <h1>, with no prose above it, are
	// chrome (a shop's cart message, the site's name); here on the
	// pruned page returned when no article is found.
	src := `<html><body><div><p>The wine CART-MESSAGE was added.</p><div><h1>A rosé</h1>` +
		`<p>PAGE-LINE: a short page, on a sweet wine from a cellar in the valley.</p></div></div>` +
		`<div id="sidebar"><ul><li><h2>Neueste Kommentare</h2><ul>` + strings.Repeat(`<br><b>Warning</b>: use of undefined constant comments, assumed in the plugin`, 8) + `</ul></li></ul></div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "PAGE-LINE", "# A rosé")
	wantLacks(t, out.Markdown, "CART-MESSAGE")
	// A paragraph of prose above the title keeps what stands there.
	src = strings.Replace(src, `<p>The wine CART-MESSAGE was added.</p>`, `<p>The wine CART-MESSAGE was added.</p>`+para("PROSE-ABOVE"), 1)
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "CART-MESSAGE", "PROSE-ABOVE")
}

func TestLinesBrokenByBr(t *testing.T) {
	// A paragraph whose lines are broken by <br> is one line of the
	// article, judged by its openings: a call to subscribe goes, an
	// address or a date above a place stays.
	src := article(`<p>Pour lire la suite et accéder à trois articles par mois, créez votre compte<br>Ou connectez-vous ici SUBSCRIBE-CALL</p>` +
		`<p>Ottostraße 14<br>26899 Rhede ADDRESS-LINE</p>` +
		`<p><strong>Termin: 29.02.2020, 19 Uhr</strong><br>EVENT-PLACE</p>`)
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-THREE", "ADDRESS-LINE", "Termin: 29.02.2020", "EVENT-PLACE")
	wantLacks(t, out.Markdown, "SUBSCRIBE-CALL")
}

func TestInlineLineBetweenBlocks(t *testing.T) {
	// A span or a bold label standing alone between blocks is a line of
	// its own; inside a paragraph's text it is not.
	src := article(`<section><span>Advertisement</span>` + para("BODY-MID") + `<strong>Published: 12.03.2020</strong>` + para("BODY-END") + `</section>` +
		`<p>The mill's <span>Advertisement</span> INLINE-KEPT painted on its wall in 1920 still shows, faded, under the new roof's eaves.</p>`)
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-MID", "BODY-END", "INLINE-KEPT", "mill's Advertisement")
	if strings.Count(out.Markdown, "Advertisement") != 1 {
		t.Errorf("the span standing alone is kept:\n%s", out.Markdown)
	}
	wantLacks(t, out.Markdown, "12.03.2020")
}
