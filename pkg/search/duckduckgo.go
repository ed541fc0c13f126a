package search

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// DuckDuckGoUserAgent is sent to DuckDuckGo's HTML endpoint: it says what
// is asking and where to read about it, instead of posing as a browser.
const DuckDuckGoUserAgent = "tavo/1 (command-line web search; one request per search; +https://github.com/tavo-cli/tavo)"

// duckduckgo searches DuckDuckGo's keyless HTML endpoint: POST
// {base}/html/ with the form fields q and df, the answer an HTML page whose
// results are div.result blocks holding a.result__a (title, and a
// //duckduckgo.com/l/?uddg=… redirect to the target) and .result__snippet.
// It is polite by construction: one request per search, never a second
// page, a descriptive User-Agent, and a rate_limited error (no retry) when
// DuckDuckGo answers with its anomaly (bot check) page.
type duckduckgo struct {
	api API
	c   *caller
}

func (d *duckduckgo) Name() string { return d.api.Name }

// ddgTimeRanges maps time ranges onto the df form field.
var ddgTimeRanges = map[string]string{"day": "d", "week": "w", "month": "m", "year": "y"}

func (d *duckduckgo) Search(ctx context.Context, q Query) (*Response, error) {
	q, err := prepare(q)
	if err != nil {
		return nil, err
	}
	q, warns := clampResults(q, EngineDuckDuckGo, "DuckDuckGo")
	form, mw := d.mapQuery(q)
	warns = append(warns, mw...)
	req, err := http.NewRequest(http.MethodPost, endpoint(d.api.BaseURL, DuckDuckGoBaseURL, "/html/"), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, d.c.fail(CodeNotConfigured, 0, "base_url cannot be used for a request")
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	a, err := d.c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	if isDDGAnomaly(a) {
		e := d.c.fail(CodeRateLimited, a.status,
			"DuckDuckGo answered with its bot-check page: it is limiting this address; wait a few minutes, or configure an API with a key")
		e.RetryAfter = retryAfter(a.header)
		return nil, e
	}
	if a.status != http.StatusOK {
		return nil, d.c.httpError(a, "", "")
	}
	rs, dw, err := decodeDuckDuckGo(a.body)
	if err != nil {
		return nil, d.c.fail(CodeUpstream, a.status, "the answer is not DuckDuckGo's HTML result page; the page may have changed or base_url is wrong")
	}
	return finish(rs, append(warns, dw...), q, "DuckDuckGo"), nil
}

// mapQuery writes q as the HTML form's fields and says what was
// approximated or left out.
func (d *duckduckgo) mapQuery(q Query) (url.Values, []Warning) {
	v := url.Values{}
	text, dw := siteOperators(q, "DuckDuckGo")
	v.Set("q", text)
	warns := dw
	if df := ddgTimeRanges[q.TimeRange]; df != "" {
		v.Set("df", df)
	}
	switch q.Topic {
	case TopicNews, TopicFinance:
		warns = append(warns, Warning{Code: WarnUnsupported, Message: "DuckDuckGo's HTML endpoint has no " + q.Topic + " topic; ran a general web search"})
	}
	warns = append(warns, ignoredTavilyOptions(q, "DuckDuckGo")...)
	return v, warns
}

// siteOperators adds the domain filters to the query text as site: and
// -site: operators (one included domain only: "site:a OR site:b" is not
// understood reliably) and says so; finish filters the results locally too.
func siteOperators(q Query, display string) (string, []Warning) {
	text := q.Text
	if len(q.IncludeDomains) == 1 {
		text += " site:" + q.IncludeDomains[0]
	}
	for _, dom := range q.ExcludeDomains {
		text += " -site:" + dom
	}
	if len(q.IncludeDomains)+len(q.ExcludeDomains) == 0 {
		return text, nil
	}
	how := "site: operators were added to the query"
	if len(q.IncludeDomains) > 1 {
		how = "several included domains have no reliable operator, so only exclusions were added to the query as -site:"
	}
	return text, []Warning{{Code: WarnApproximated,
		Message: display + " has no domain filter: " + how + " and the results were filtered locally; fewer results may be returned"}}
}

// isDDGAnomaly recognises DuckDuckGo's rate-limit answer: HTTP 202, or a
// page carrying its anomaly modal or challenge form, in place of results.
func isDDGAnomaly(a *answer) bool {
	if a.status == http.StatusAccepted || a.status == http.StatusTooManyRequests {
		return true
	}
	return bytes.Contains(a.body, []byte("anomaly-modal")) || bytes.Contains(a.body, []byte("anomaly.js"))
}

// decodeDuckDuckGo walks the result page with an HTML parser. It reads the
// div.result blocks (skipping ads, result--ad), each one's a.result__a for
// title and link and .result__snippet for the snippet. A page with neither
// results nor DuckDuckGo's no-results marker is not a result page.
func decodeDuckDuckGo(body []byte) ([]Result, []Warning, error) {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, nil, errUnreadable
	}
	var c collector
	recognised := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			cls := classes(n)
			switch {
			case n.DataAtom == atom.Div && cls["no-results"], cls["result--no-result"]:
				recognised = true
				return
			case n.DataAtom == atom.Div && cls["result"]:
				recognised = true
				if !cls["result--ad"] {
					ddgResult(n, &c)
				}
				return
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(doc)
	if !recognised {
		return nil, nil, errUnreadable
	}
	return c.results, c.warnings(), nil
}

// ddgResult reads one result block into c.
func ddgResult(block *html.Node, c *collector) {
	var title, href, snippet, date string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			cls := classes(n)
			switch {
			case cls["result__a"] && title == "" && href == "":
				title, href = textOf(n), attr(n, "href")
				return
			case cls["result__snippet"]:
				snippet = textOf(n)
				return
			case cls["result__extras__url"]:
				// The date, when DuckDuckGo shows one, is the span after the
				// displayed URL: "2024-05-01T00:00:00.0000000".
				for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
					if ch.DataAtom == atom.Span && !classes(ch)["result__icon"] {
						date = strings.TrimSpace(strings.ReplaceAll(textOf(ch), "\u00a0", " "))
					}
				}
				return
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(block)
	c.add(title, ddgTarget(href), snippet, nil, date)
}

// ddgTarget turns a result link into the page it leads to: DuckDuckGo's
// //duckduckgo.com/l/?uddg=<escaped URL>&rut=… redirect is unwrapped; a
// direct link is kept; an ad's y.js link gives "" (dropped).
func ddgTarget(href string) string {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return ""
	}
	if strings.HasSuffix(u.Host, "duckduckgo.com") || u.Host == "" {
		if strings.HasPrefix(u.Path, "/l/") {
			return u.Query().Get("uddg")
		}
		return ""
	}
	return u.String()
}

// classes returns n's class names as a set.
func classes(n *html.Node) map[string]bool {
	set := map[string]bool{}
	for _, f := range strings.Fields(attr(n, "class")) {
		set[f] = true
	}
	return set
}

// attr returns n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// textOf is the text inside n, tags dropped (DuckDuckGo bolds matches).
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(n)
	return b.String()
}
