package fetch

import (
	"context"
	"strings"
	"testing"
)

// para is a paragraph of prose long enough to count as article text.
func para(tag string) string {
	return `<p>` + tag + ` of the post, on how the old mill by the river was restored by its village over three summers,
 stone by stone, with the help of volunteers who had never laid a wall before they came.</p>`
}

func convertMode(t *testing.T, src string, mode Extract) *Conversion {
	t.Helper()
	out, err := NewConverter().HTML(context.Background(), []byte(src), mustParse(t, "https://blog.example/post"), mode)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCommentThreadDropped(t *testing.T) {
	// A short post under a long thread: by text alone the thread wins.
	var b strings.Builder
	b.WriteString(`<html><body><div class="post"><h1>The mill</h1>` + para("BODY-ONE") + para("BODY-TWO") + `</div>`)
	b.WriteString(`<div id="comments"><h3>42 Responses</h3><ol class="commentlist">`)
	for range 12 {
		b.WriteString(`<li>` + para("COMMENT-TEXT") + `</li>`)
	}
	b.WriteString(`</ol></div></body></html>`)
	for _, mode := range []Extract{ExtractAuto, ExtractMain} {
		out := convertMode(t, b.String(), mode)
		wantContains(t, out.Markdown, "BODY-ONE", "BODY-TWO")
		wantLacks(t, out.Markdown, "COMMENT-TEXT", "Responses")
	}
}

func TestLinkListFooterDropped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body><article><h1>The mill</h1>` + para("BODY-ONE") + para("BODY-TWO") + para("BODY-THREE") + `</article>`)
	// A publisher network's footer, in plain divs with no telling names.
	b.WriteString(`<div><div><b>More from the network</b><ul>`)
	for i := range 15 {
		b.WriteString(`<li><a href="/n` + string(rune('a'+i)) + `">NETWORK-LINK to another site of the group</a></li>`)
	}
	b.WriteString(`</ul></div></div></body></html>`)
	for _, mode := range []Extract{ExtractAuto, ExtractMain} {
		out := convertMode(t, b.String(), mode)
		wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE")
		wantLacks(t, out.Markdown, "NETWORK-LINK")
	}
	// full keeps it: only extraction prunes.
	wantContains(t, convertMode(t, b.String(), ExtractFull).Markdown, "NETWORK-LINK")
}

func TestChromeNamesPruned(t *testing.T) {
	src := `<html><body><main><h1>The mill</h1>` + para("BODY-ONE") + para("BODY-TWO") +
		`<div class="share-buttons"><a href="/s1">SHARE-ON Facebook</a></div>` +
		`<div class="related-posts"><h3>RELATED-HEAD</h3><p>Teaser</p></div></main>` +
		`<aside><p>ASIDE-TEXT about the author</p></aside>` +
		`<div role="contentinfo">ROLE-FOOTER</div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-TWO")
	wantLacks(t, out.Markdown, "SHARE-ON", "RELATED-HEAD", "ASIDE-TEXT", "ROLE-FOOTER")
}

func TestChromeNamedWrapperOfProseKept(t *testing.T) {
	// Page builders name wrappers of the article after sidebars and share
	// bars; the prose inside says what they are.
	src := `<html><body><div class="content-sidebar-wrap"><div class="share-zone">` + para("BODY-ONE") + para("BODY-TWO") +
		para("BODY-THREE") + `</div><div class="sidebar"><p>SIDEBAR-BLURB</p></div></div>` +
		strings.Repeat(`<ul>`+strings.Repeat(`<li><a href="/x">Footer link of the site to elsewhere</a></li>`, 20)+`</ul>`, 4) + `</body></html>`
	out := convertMode(t, src, ExtractMain)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-THREE")
	wantLacks(t, out.Markdown, "SIDEBAR-BLURB")
}

func TestArticleTableCodeListKept(t *testing.T) {
	src := `<html><body><article><h1>Release notes</h1>` + para("BODY-ONE") +
		`<h2>Versions</h2><table><tr><th>Version</th><th>Date</th></tr><tr><td>1.2</td><td>2024-05-01</td></tr><tr><td>1.3</td><td>2024-06-01</td></tr></table>` +
		para("BODY-TWO") + `<pre><code>go install example.com/tool@latest</code></pre>` +
		`<ul><li>faster start-up</li><li>fewer allocations</li></ul>` + para("BODY-THREE") +
		`</article><div class="sidebar"><a href="/1">a</a><a href="/2">b</a><a href="/3">c</a></div></body></html>`
	for _, mode := range []Extract{ExtractAuto, ExtractMain} {
		out := convertMode(t, src, mode)
		wantContains(t, out.Markdown, "# Release notes", "| Version | Date |", "| 1.3 | 2024-06-01 |", "## Versions",
			"go install example.com/tool@latest", "- faster start-up", "BODY-THREE")
	}
}

func TestShortArticleCandidateRejected(t *testing.T) {
	// readability can settle on a one-line block ("Skip to content"); on a
	// page with more text than that, the pruned page is returned instead.
	src := `<html><body><a href="#content">Skip to content</a><div id="content"><table><tr><td>` +
		strings.Repeat(`<font>BODY-CELL words of a page laid out in tables, as old sites are. </font><br>`, 30) +
		`</td></tr></table></div></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-CELL")
}

func TestNameVerdict(t *testing.T) {
	for v, want := range map[string]verdict{
		"":                          content,
		"comments-area":             comments,
		"commentlist":               comments,
		"post-content has-comments": content,
		"sidebar-left":              chrome,
		"site-footer":               chrome,
		"ad":                        chrome,
		"shareholder-letter":        chrome,
		"headline":                  content,
		"entry-content":             content,
		"widget Blog":               content,
		"author-box":                chrome,
		"author-info":               chrome,
		"byline":                    chrome,
		"post-meta":                 chrome,
		"post-ratings":              chrome,
		"tag-links":                 chrome,
		"tag-berlin":                content,
	} {
		if got := nameVerdict(v); got != want {
			t.Errorf("nameVerdict(%q) = %d, want %d", v, got, want)
		}
	}
}

func TestAuthorBoxBylineTagsDropped(t *testing.T) {
	// Inside the article's own block: who wrote it, the meta line and the
	// tags are not what it says.
	src := `<html><body><article><h1>The mill</h1><span class="byline">BYLINE-NAME</span>` +
		para("BODY-ONE") + para("BODY-TWO") +
		`<div class="post-meta">META-POSTED in News</div><span class="tag-links"><a href="/t/1">TAG-ONE</a></span>` +
		`<div class="author-box"><p>AUTHOR-BIO writes about villages and mills.</p></div></article></body></html>`
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "BODY-ONE", "BODY-TWO")
	wantLacks(t, out.Markdown, "BYLINE-NAME", "META-POSTED", "TAG-ONE", "AUTHOR-BIO")
}

func TestHeadingAnchorIDIsNoName(t *testing.T) {
	// The heading's id is an anchor made of its words; "nav" in it does
	// not make the heading navigation. Its class still counts.
	src := article(`<h3 class="subheading" id="nav_the_wheel__1">ANCHORED-HEADING the wheel</h3>` + para("BODY-WHEEL") +
		`<h3 class="sidebar-title">CHROME-HEADING</h3>` + para("BODY-GEARS"))
	out := convertMode(t, src, ExtractAuto)
	wantContains(t, out.Markdown, "ANCHORED-HEADING", "BODY-WHEEL", "BODY-GEARS")
	wantLacks(t, out.Markdown, "CHROME-HEADING")
}
