package fetch

import (
	"encoding/json"
	"strings"
	"testing"
)

// ldScript is a JSON-LD NewsArticle whose articleBody is body.
func ldScript(body string) string {
	b, _ := json.Marshal(map[string]any{
		"@context": "https://schema.org",
		"@graph":   []any{map[string]any{"@type": "NewsArticle", "headline": "The mill", "articleBody": body}},
	})
	return `<script type="application/ld+json">` + string(b) + `</script>`
}

// longBody is an articleBody of several lines of prose, each tagged.
func longBody(tags ...string) string {
	var lines []string
	for _, tag := range tags {
		lines = append(lines, tag+" of the story, on how the old mill by the river was restored by its village over three summers, stone by stone.")
	}
	return strings.Join(lines, "\n")
}

func TestJSONLDArticleBodyFillsAShell(t *testing.T) {
	// A page rendered by JavaScript: its markup holds a menu and a lead,
	// its metadata the article.
	src := `<html><head><title>The mill</title>` + ldScript(longBody("LD-ONE", "LD-TWO", "LD-THREE", "LD-FOUR", "LD-FIVE", "LD-SIX")) +
		`</head><body><ul><li><a href="/a">Home</a></li><li><a href="/b">World</a></li><li><a href="/c">Sport</a></li></ul>` +
		`<div id="app"><p>SHELL-LEAD: the village restored its mill, and this is how it went, told by those who were there.</p></div></body></html>`
	for _, mode := range []Extract{ExtractAuto, ExtractMain} {
		out := convertMode(t, src, mode)
		wantContains(t, out.Markdown, "LD-ONE", "LD-SIX")
		wantLacks(t, out.Markdown, "World")
		if out.Extracted != ExtractMain {
			t.Errorf("%s: extracted %q", mode, out.Extracted)
		}
	}
	// full keeps the markup only.
	wantLacks(t, convertMode(t, src, ExtractFull).Markdown, "LD-ONE")
}

func TestJSONLDKeepsThePaywallLead(t *testing.T) {
	// A paywalled page shows a lead its metadata leaves out: the lead
	// stays on top of the metadata's article.
	src := `<html><head>` + ldScript(longBody("LD-ONE", "LD-TWO", "LD-THREE", "LD-FOUR", "LD-FIVE", "LD-SIX", "LD-SEVEN", "LD-EIGHT")) +
		`</head><body><article><h1>The mill</h1>` + para("PAYWALL-LEAD") + `</article></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "PAYWALL-LEAD", "LD-ONE", "LD-EIGHT")
	if strings.Index(out.Markdown, "PAYWALL-LEAD") > strings.Index(out.Markdown, "LD-ONE") {
		t.Errorf("the lead is not on top:\n%s", out.Markdown)
	}
}

func TestJSONLDSummaryDoesNotReplaceTheArticle(t *testing.T) {
	// Metadata that is shorter than the article in the markup is no
	// better witness: the markup stays.
	src := `<html><head>` + ldScript(longBody("LD-SUMMARY", "LD-SUMMARY-TWO", "LD-SUMMARY-THREE", "LD-SUMMARY-FOUR")) + `</head><body><article><h1>The mill</h1>` +
		para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + para("BODY-FOUR") + para("BODY-FIVE") + `</article></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-FIVE")
	wantLacks(t, out.Markdown, "LD-SUMMARY")
}

func TestJSONLDMalformedIgnored(t *testing.T) {
	src := `<html><head><script type="application/ld+json">{"articleBody": "unterminated</script></head><body><article><h1>The mill</h1>` +
		para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + `</article></body></html>`
	wantContains(t, convertMode(t, src, ExtractAuto).Markdown, "BODY-ONE", "BODY-THREE")
}
