package fake

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// DuckDuckGo imitates DuckDuckGo's keyless HTML endpoint,
// https://html.duckduckgo.com/html/ (GET with a query string, or POST with
// a form, as its own search box sends). The answer is built with the
// structure of a saved result page: div#links holding div.result blocks,
// each with h2.result__title > a.result__a (the title, linking through
// //duckduckgo.com/l/?uddg=<escaped URL>&rut=…), div.result__extras__url
// (the displayed URL and, when known, the date) and a.result__snippet (the
// snippet with the matched word in <b>); an ad block (result--ad, linking
// to y.js) comes first; no results give div.no-results. The fake serves at
// most 30 results, one page, whatever was asked.
//
// Like the real endpoint it wants a User-Agent and q; unlike it, a form
// field the page's own form does not send is refused (400), so a misspelt
// field fails a test.
type DuckDuckGo struct {
	*server
}

// ddgFields are the fields of the HTML page's search form.
var ddgFields = []string{"q", "kl", "df", "s", "dc", "v", "o", "api", "b", "nextParams", "vqd"}

// NewDuckDuckGo starts a DuckDuckGo fake.
func NewDuckDuckGo() *DuckDuckGo {
	d := &DuckDuckGo{}
	d.server = newServer(d.check, d.answer)
	return d
}

// DuckDuckGoAnomaly is the page DuckDuckGo answers with when it limits an
// address: HTTP 202 and a bot-check ("anomaly") modal instead of results.
func DuckDuckGoAnomaly() Reply {
	body := `<!DOCTYPE html><html><head><title>DuckDuckGo</title></head><body>
<div class="anomaly-modal__mask"><div class="anomaly-modal__modal" data-testid="anomaly-modal">
<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
<div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div>
<form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=botnet&amp;ti=1" method="POST"></form>
</div></div></body></html>`
	return Reply{Status: http.StatusAccepted, Header: http.Header{"Content-Type": {"text/html; charset=UTF-8"}}, Body: body}
}

func (d *DuckDuckGo) check(r *Request) *Reply {
	bad := func(status int, msg string) *Reply {
		return &Reply{Status: status, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<html><body>" + msg + "</body></html>"}
	}
	if r.Path != "/html/" && r.Path != "/html" {
		return bad(http.StatusNotFound, "Not Found")
	}
	form := r.Query
	switch r.Method {
	case http.MethodGet:
	case http.MethodPost:
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
			return bad(http.StatusBadRequest, "Bad Request: form expected")
		}
		f, err := url.ParseQuery(string(r.Body))
		if err != nil {
			return bad(http.StatusBadRequest, "Bad Request")
		}
		form = f
	default:
		return bad(http.StatusMethodNotAllowed, "Method Not Allowed")
	}
	if r.Header.Get("User-Agent") == "" {
		return bad(http.StatusForbidden, "Forbidden")
	}
	for k := range form {
		if !slices.Contains(ddgFields, k) {
			return bad(http.StatusBadRequest, "Bad Request: unknown field "+html.EscapeString(k))
		}
	}
	if strings.TrimSpace(form.Get("q")) == "" {
		// The real endpoint shows its empty home page without q.
		return &Reply{Status: http.StatusOK, Header: http.Header{"Content-Type": {"text/html"}}, Body: `<html><body><form id="search_form_homepage" action="/html/" method="post"><input name="q"></form></body></html>`}
	}
	if df := form.Get("df"); df != "" && !slices.Contains([]string{"d", "w", "m", "y"}, df) {
		return bad(http.StatusBadRequest, "Bad Request: df")
	}
	// answer reads a POST form the way it reads a query string.
	r.Query = form
	return nil
}

// ddgQuery splits "words site:a -site:b" into the words and the filters.
func ddgQuery(q string) (include, exclude []string) {
	for _, f := range strings.Fields(q) {
		switch {
		case strings.HasPrefix(f, "site:"):
			include = append(include, strings.TrimPrefix(f, "site:"))
		case strings.HasPrefix(f, "-site:"):
			exclude = append(exclude, strings.TrimPrefix(f, "-site:"))
		}
	}
	return include, exclude
}

func (d *DuckDuckGo) answer(r *Request, hits []Hit) Reply {
	q := r.Query.Get("q")
	include, exclude := ddgQuery(q)
	hits = filterHits(hits, include, exclude)
	if len(hits) > 30 {
		hits = hits[:30]
	}
	var b strings.Builder
	esc := html.EscapeString
	fmt.Fprintf(&b, `<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<html><head><meta http-equiv="content-type" content="text/html; charset=UTF-8"><title>%s at DuckDuckGo</title></head>
<body><div id="header"><form id="search_form" action="/html/" method="post"><input class="search__input" type="text" name="q" value="%s"></form></div>
<div id="links" class="results">
`, esc(q), esc(q))
	if len(hits) == 0 {
		b.WriteString(`<div class="no-results">No  results.</div>` + "\n")
	} else {
		b.WriteString(`<div class="result results_links results_links_deep result--ad ">
<div class="links_main links_deep result__body"><h2 class="result__title"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;ad_provider=bingv7aa">Sponsored result</a></h2>
<a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Buy now.</a></div></div>
`)
	}
	for _, h := range hits {
		link := "//duckduckgo.com/l/?uddg=" + url.QueryEscape(h.URL) + "&rut=0f1e2d3c4b5a"
		snippet := esc(h.Content)
		if i := strings.IndexByte(snippet, ' '); i > 0 {
			snippet = "<b>" + snippet[:i] + "</b>" + snippet[i:]
		}
		date := ""
		if !h.Published.IsZero() {
			date = "<span>&nbsp; &nbsp; " + h.Published.Format("2006-01-02T15:04:05") + ".0000000</span>"
		}
		fmt.Fprintf(&b, `<div class="result results_links results_links_deep web-result ">
<div class="links_main links_deep result__body">
<h2 class="result__title"><a rel="nofollow" class="result__a" href="%s">%s</a></h2>
<div class="result__extras"><div class="result__extras__url"><span class="result__icon"><a rel="nofollow" href="%s"><img class="result__icon__img" width="16" height="16" alt="" src="//external-content.duckduckgo.com/ip3/%s.ico" name="i15"></a></span>
<a class="result__url" href="%s">%s</a>%s</div></div>
<a class="result__snippet" href="%s">%s</a>
<div class="clear"></div>
</div></div>
`, esc(link), esc(h.Title), esc(link), esc(hostOf(h.URL)), esc(link), esc(hostOf(h.URL)), date, esc(link), snippet)
	}
	b.WriteString(`</div>
<div class="nav-link"><form action="/html/" method="post"><input type="submit" class="btn btn--alt" value="Next"><input type="hidden" name="q" value="` + esc(q) + `"><input type="hidden" name="s" value="30"><input type="hidden" name="dc" value="31"><input type="hidden" name="v" value="l"><input type="hidden" name="o" value="json"><input type="hidden" name="api" value="d.js"></form></div>
</body></html>
`)
	return Reply{Status: http.StatusOK, Header: http.Header{"Content-Type": {"text/html; charset=UTF-8"}}, Body: b.String()}
}
