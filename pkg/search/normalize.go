package search

import (
	"fmt"
	"html"
	"math"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Caps on normalised fields, so twenty results stay well inside a tool
// result's 64 KiB budget whatever an upstream sends.
const (
	maxTitleBytes   = 300
	maxSnippetBytes = 2048
	maxURLBytes     = 2048
)

// truncateBytes cuts s to at most n bytes without splitting a UTF-8 sequence,
// marking the cut with "…".
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := n - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}

// cleanText makes an upstream title or snippet plain text: tags removed
// (Brave marks matches with <strong>), entities decoded, whitespace and
// control characters folded, invalid UTF-8 replaced, length capped.
func cleanText(s string, limit int) string {
	if strings.IndexByte(s, '<') >= 0 {
		s = stripTags(s)
	}
	s = html.UnescapeString(s)
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return truncateBytes(s, limit)
}

// stripTags removes <...> runs that look like HTML tags; a lone "<" (as in
// "a < b") is kept.
func stripTags(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == '<' && i+1 < len(s) && (isASCIILetter(s[i+1]) || s[i+1] == '/' || s[i+1] == '!') {
			if j := strings.IndexByte(s[i:], '>'); j > 0 {
				i += j + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// cleanURL returns the result URL when it is an absolute http(s) URL of
// reasonable size, else "".
func cleanURL(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxURLBytes || !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return s
}

// cleanScore keeps a relevance score only when it is a finite number.
func cleanScore(p *float64) *float64 {
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
		return nil
	}
	v := *p
	return &v
}

var zonedLayouts = []string{
	time.RFC3339Nano,
	time.RFC1123,
	time.RFC1123Z,
	time.RFC850,
	time.ANSIC,
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02T15:04:05.999999999-0700",
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04:05 -0700",
}

var localLayouts = []string{
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04",
}

// normalizeDate writes a publication date the way Result documents: RFC 3339
// in UTC when the source gave a zone, a zone-less date-time or a plain date
// when it did not (never guessing a zone), "" when it is not a date.
func normalizeDate(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return ""
	}
	for _, l := range zonedLayouts {
		if t, err := time.Parse(l, s); err == nil && plausibleYear(t) {
			return t.UTC().Format(time.RFC3339)
		}
	}
	for _, l := range localLayouts {
		if t, err := time.Parse(l, s); err == nil && plausibleYear(t) {
			return t.Format("2006-01-02T15:04:05")
		}
	}
	if t, err := time.Parse("2006-01-02", s); err == nil && plausibleYear(t) {
		return t.Format("2006-01-02")
	}
	return ""
}

func plausibleYear(t time.Time) bool { return t.Year() >= 1900 && t.Year() <= 9999 }

// hostMatches reports whether the URL's host is domain or one of its
// subdomains.
func hostMatches(host, domain string) bool {
	return host == domain || strings.HasSuffix(host, "."+domain)
}

// filterDomains keeps the results whose host satisfies the include and
// exclude lists, for engines that cannot filter exactly themselves.
func filterDomains(rs []Result, include, exclude []string) (kept []Result, dropped int) {
	if len(include) == 0 && len(exclude) == 0 {
		return rs, 0
	}
	kept = rs[:0:0]
	for _, r := range rs {
		u, err := url.Parse(r.URL)
		if err != nil {
			dropped++
			continue
		}
		host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
		ok := len(include) == 0
		for _, d := range include {
			if hostMatches(host, d) {
				ok = true
				break
			}
		}
		for _, d := range exclude {
			if hostMatches(host, d) {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, r)
		} else {
			dropped++
		}
	}
	return kept, dropped
}

// collector turns raw engine items into Results, counting the ones without a
// usable URL and skipping duplicates.
type collector struct {
	results []Result
	seen    map[string]bool
	bad     int
}

func (c *collector) add(title, rawURL, snippet string, score *float64, date string) {
	u := cleanURL(rawURL)
	if u == "" {
		c.bad++
		return
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if c.seen[u] {
		return
	}
	c.seen[u] = true
	t := cleanText(title, maxTitleBytes)
	if t == "" {
		t = truncateBytes(u, maxTitleBytes)
	}
	c.results = append(c.results, Result{
		Title:         t,
		URL:           u,
		Snippet:       cleanText(snippet, maxSnippetBytes),
		Score:         cleanScore(score),
		PublishedDate: normalizeDate(date),
	})
}

func (c *collector) warnings() []Warning {
	if c.bad == 0 {
		return nil
	}
	return []Warning{{Code: WarnMalformedResults, Message: fmt.Sprintf("%d result(s) without a usable http(s) URL were dropped", c.bad)}}
}

// finish applies local domain filtering and the result limit.
func finish(rs []Result, warns []Warning, q Query, engine string) *Response {
	rs, dropped := filterDomains(rs, q.IncludeDomains, q.ExcludeDomains)
	if dropped > 0 {
		warns = append(warns, Warning{Code: WarnFiltered,
			Message: fmt.Sprintf("%d %s result(s) outside the domain filters were dropped; fewer results may be returned", dropped, engine)})
	}
	if len(rs) > q.MaxResults {
		rs = rs[:q.MaxResults]
	}
	if rs == nil {
		rs = []Result{}
	}
	if warns == nil {
		warns = []Warning{}
	}
	return &Response{Results: rs, Warnings: warns}
}
