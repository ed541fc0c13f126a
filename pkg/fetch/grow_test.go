package fetch

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// grownPage holds an article whose lead sits in a wrapper above the
// article's container, cards of other stories (a picture link beside a
// teaser) above it, and a ticker of other stories after it.
func grownPage(lead string) string {
	return `<html><head><title>The mill</title></head><body><div id="site">` +
		`<div class="cards"><div><a href="/a"><img src="/a.jpg" alt=""></a>` + `<p>CARD-ONE the baker on the square has opened again after a long and cold winter and sells rye bread and apple cake</p>` + `</div>` +
		`<div><a href="/b"><img src="/b.jpg" alt=""></a>` + `<p>CARD-TWO the choir of the village sings in the old church of the next town on Sunday evening after the service/p>` + `</div></div>` +
		`<div class="intro"><div class="wrap">` + lead + `</div></div>` +
		`<div class="story"><div class="text">` + para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") +
		para("BODY-FOUR") + para("BODY-FIVE") + `</div></div>` +
		`<div class="ticker"><h3>Ticker</h3><p>TICKER-ONE the village council met on Monday night to vote on the new bridge</p>` +
		`<p>TICKER-TWO the harvest fair opens on Saturday with a market and a parade</p></div>` +
		`</div></body></html>`
}

func TestArticleGrowsToItsLead(t *testing.T) {
	// The lead has no commas: readability scores it below its
	// siblings' floor and leaves it out.
	src := grownPage(`<p>LEAD-PARA the old mill by the river stands again after three summers of hard work by the people of its village and their friends</p>`)
	for _, mode := range []Extract{ExtractAuto, ExtractMain} {
		out := convertMode(t, src, mode)
		wantContains(t, out.Markdown, "LEAD-PARA", "BODY-ONE", "BODY-FIVE")
		wantLacks(t, out.Markdown, "CARD-ONE", "CARD-TWO", "TICKER-ONE", originAttr)
	}
}

func TestArticleGrowsOnlyByProse(t *testing.T) {
	// A wrapper above the article holding short lines and links only
	// (a byline, a menu readability did not take) adds nothing.
	src := grownPage(`<p>SHORT-LINE by J. Doe</p><ul><li><a href="/x">MENU-ONE</a></li><li><a href="/y">MENU-TWO</a></li></ul>`)
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-FIVE")
	wantLacks(t, out.Markdown, "SHORT-LINE", "MENU-ONE", "CARD-ONE", "TICKER-ONE")
}

func TestArticleKeepsTheLeadOfItsContainer(t *testing.T) {
	// The lead (standfirst) opens the article's own container, in a
	// header beside the title, which readability leaves out.
	src := `<html><head><title>The mill</title></head><body><div class="page"><div class="story">` +
		`<header class="entry-header"><h2 class="entry-title">The mill</h2><div class="lead"><p>LEAD-PARA the old mill by the river stands again after three summers of hard work by its village and its friends</p></div></header>` +
		`<div class="text">` + para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + para("BODY-FOUR") + `</div>` +
		`</div></div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "LEAD-PARA", "BODY-ONE", "BODY-FOUR")
	if strings.Count(out.Markdown, "LEAD-PARA") != 1 || strings.Count(out.Markdown, "BODY-ONE") != 1 {
		t.Errorf("a paragraph is repeated:\n%s", out.Markdown)
	}
}

func TestArticleGrowsThroughAWrapperWithADate(t *testing.T) {
	// The lead sits above a wrapper that adds only short lines (a
	// date, a byline, under 120 letters): the climb goes through the
	// wrapper to reach it; the lines stay out.
	src := `<html><head><title>The mill</title></head><body><div id="site">` +
		`<div class="intro"><p>LEAD-PARA the old mill by the river stands again after three summers of hard work by the people of its village and their friends</p></div>` +
		`<div class="wrap"><div class="when">DATE-LINE 3 May</div><div class="who">By Jane Doe and John Roe, village correspondents</div>` +
		`<div class="where">Filed from the river valley office</div><div class="story"><div class="text">` +
		para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + para("BODY-FOUR") + para("BODY-FIVE") +
		`</div></div></div></div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "LEAD-PARA", "BODY-ONE", "BODY-FIVE")
	wantLacks(t, out.Markdown, "DATE-LINE", "correspondents")
}

func TestGrowthWeighsTextLessHeadings(t *testing.T) {
	// The title above an article is not other text its lead is
	// weighed against.
	doc, err := html.Parse(strings.NewReader(`<header><h1>A long title of many words</h1><p>Lead text</p></header>`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := textLessHeadings(doc), countWordChars("Lead text"); got != want {
		t.Errorf("textLessHeadings = %d, want %d", got, want)
	}
}

func TestTeaserNamedDescriptionIsTheLead(t *testing.T) {
	// The lead is named "teaser" by the page's style but declared the
	// item's description by its markup: it is not pruned as a teaser.
	src := `<html><head><title>The mill</title></head><body><div class="page"><div class="story">` +
		`<header class="entry-header"><h2 class="entry-title">The mill</h2><div class="news-teaser" itemprop="description"><p>LEAD-PARA the old mill by the river stands again after three summers of hard work by its village and its friends</p></div></header>` +
		`<div class="text">` + para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + para("BODY-FOUR") + `</div>` +
		`</div><div class="teaser"><p>OTHER-TEASER the baker on the square has opened again after a long and cold winter and sells rye bread</p></div></div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "LEAD-PARA", "BODY-ONE", "BODY-FOUR")
	wantLacks(t, out.Markdown, "OTHER-TEASER")
}
