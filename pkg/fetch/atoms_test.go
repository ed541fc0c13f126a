package fetch

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestFixAtoms(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<div id="a"><div id="b">text</div></div>`))
	if err != nil {
		t.Fatal(err)
	}
	a := findElement(doc, atom.Div)
	b := a.FirstChild
	b.Data = "p" // as readability renames a <div> of phrasing
	made := &html.Node{Type: html.ElementNode, Data: "section"}
	a.AppendChild(made) // as readability creates elements by name
	fixAtoms(doc)
	if b.DataAtom != atom.P || made.DataAtom != atom.Section || a.DataAtom != atom.Div {
		t.Errorf("atoms: %v %v %v", b.DataAtom, made.DataAtom, a.DataAtom)
	}
}

func TestDateLineInRenamedBlockDropped(t *testing.T) {
	// Readability turns the meta <div> into a <p>; the line filter must
	// still see it as one line.
	src := `<html><head><title>The mill</title></head><body><div class="story"><h1>The mill</h1>` +
		`<div class="stamp"><time datetime="2020-10-07"><span>7. oktober 2020</span></time></div>` +
		para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + `</div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE")
	wantLacks(t, out.Markdown, "oktober")
}

func TestTitleNotPutBackOverPageHeading(t *testing.T) {
	// Readability keeps the page's <h1> (as an <h2>): the page has its
	// heading, and the <title> is not added above it.
	src := `<html><head><title>TITLE-TEXT</title></head><body><div class="story"><h1>Restoring the mill</h1>` +
		para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + `</div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "Restoring the mill", "BODY-ONE")
	wantLacks(t, out.Markdown, "TITLE-TEXT")
	// A page that shows no heading gets none: the title is the
	// Conversion's, not a line of the page.
	src = strings.Replace(src, `<h1>Restoring the mill</h1>`, ``, 1)
	out = convertMode(t, src, ExtractAuto)
	wantLacks(t, out.Markdown, "TITLE-TEXT")
	if out.Title != "TITLE-TEXT" {
		t.Errorf("title %q, want TITLE-TEXT", out.Title)
	}
}

func TestTitlePutBackWhereThePageShowsIt(t *testing.T) {
	// Readability drops the heading that repeats the title; the page
	// showed it (here without the site's name), so it is put back.
	src := `<html><head><title>The old mill | Village news</title></head><body><div class="story"><h2>The old mill</h2>` +
		para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + `</div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "# The old mill", "BODY-ONE")
}

func TestArticleOfFormLabelsIsNotProse(t *testing.T) {
	// A sign-up form's labels and fine print, chosen over an article
	// of real paragraphs elsewhere in the page.
	form, err := html.Parse(strings.NewReader(`<div><p>Your email address (required)</p><p>First name</p>` +
		`<p>Last name</p><p>Post code (required)</p><p>Country (required)</p><p>Mobile phone number</p>` +
		`<p>Receive our monthly letter and calls to action</p><p>Join the actions of your local group near you</p></div>`))
	if err != nil {
		t.Fatal(err)
	}
	n := textLen(form)
	if isArticleProse(form, n, 3000) {
		t.Errorf("form labels taken for prose beside 3000 letters of prose")
	}
	// The same block on a page with no prose elsewhere is all there is.
	if !isArticleProse(form, n, 300) {
		t.Errorf("form labels refused on a page without prose")
	}
	// An article of prose is prose.
	art, err := html.Parse(strings.NewReader(para("ONE") + para("TWO") + `<p>Short line</p>`))
	if err != nil {
		t.Fatal(err)
	}
	if !isArticleProse(art, textLen(art), 3000) {
		t.Errorf("an article of paragraphs is not prose")
	}
}

func TestArticleImagesLoseTheirText(t *testing.T) {
	src := `<html><head><title>The mill</title></head><body><div class="story"><h1>The mill</h1>` +
		para("BODY-ONE") + `<p><img src="/mill.jpg" alt="ALT-TEXT the mill in spring (Photo: J. Doe)"></p>` +
		para("BODY-TWO") + para("BODY-THREE") + `</div></body></html>`
	for _, mode := range []Extract{ExtractAuto, ExtractMain} {
		out := convertMode(t, src, mode)
		wantContains(t, out.Markdown, "BODY-ONE", "![](https://blog.example/mill.jpg)")
		wantLacks(t, out.Markdown, "ALT-TEXT")
	}
	// The whole page keeps what it says of its pictures.
	wantContains(t, convertMode(t, src, ExtractFull).Markdown, "![ALT-TEXT the mill in spring")
}
