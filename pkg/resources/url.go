package resources

import (
	"net/url"
	"strconv"
	"strings"
)

// MaxURLLength bounds a resource URL, so the continue note a page reserves
// room for stays small beside the page.
const MaxURLLength = 2048

// maxLine is the largest line number a selector may name.
const maxLine = 1_000_000_000

// Selector is a line range, 1-based and inclusive. The zero Selector is the
// whole resource; End 0 means "to the end".
type Selector struct {
	Start, End int
}

// All reports whether s selects the whole resource.
func (s Selector) All() bool { return s.Start == 0 }

// String is the selector as written after the colon ("5", "5-9"), "" for all.
func (s Selector) String() string {
	switch {
	case s.All():
		return ""
	case s.Start == s.End:
		return strconv.Itoa(s.Start)
	}
	return strconv.Itoa(s.Start) + "-" + strconv.Itoa(s.End)
}

// selectorSyntax is what a selector must look like, for error details.
const selectorSyntax = ":N, :START-END or :START+COUNT (1-based line numbers, START ≤ END, COUNT ≥ 1); a literal ':' in a name is %3A"

// ParseSelector parses the text after a URL's last colon: "N", "START-END"
// or "START+COUNT".
func ParseSelector(s string) (Selector, error) {
	bad := func(why string) (Selector, error) {
		return Selector{}, invalidURL(selectorSyntax, ":"+s, "the line selector %q is invalid: %s", ":"+s, why)
	}
	if s == "" {
		return bad("nothing follows the ':'")
	}
	i := strings.IndexAny(s, "-+")
	first := s
	if i >= 0 {
		first = s[:i]
	}
	start, ok := lineNumber(first)
	if !ok {
		return bad("a line number is a whole number from 1 to 1000000000")
	}
	if i < 0 {
		return Selector{Start: start, End: start}, nil
	}
	second, ok := lineNumber(s[i+1:])
	if !ok {
		return bad("a line number or count is a whole number from 1 to 1000000000")
	}
	if s[i] == '+' {
		end := start + second - 1
		if end > maxLine {
			return bad("the range ends past line 1000000000")
		}
		return Selector{Start: start, End: end}, nil
	}
	if second < start {
		return bad("END is before START")
	}
	return Selector{Start: start, End: second}, nil
}

// lineNumber parses 1..maxLine written with ASCII digits only.
func lineNumber(s string) (int, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, n >= 1 && n <= maxLine
}

// SplitScheme returns the scheme of a resource URL (lower-cased) and the
// rest after "://".
func SplitScheme(raw string) (scheme, rest string, err error) {
	i := strings.Index(raw, "://")
	if i <= 0 {
		return "", "", invalidURL("SCHEME://… (artifact://, local://, workspace://, asset://, http(s)://)", raw,
			"%q is not a resource URL: it has no scheme", short(raw))
	}
	scheme = strings.ToLower(raw[:i])
	for _, c := range scheme {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return "", "", invalidURL("a scheme of letters, digits, '+', '-' or '.'", raw, "%q is not a valid scheme", short(raw[:i]))
		}
	}
	return scheme, raw[i+3:], nil
}

// FileURL is a parsed URL of a file-like scheme:
// SCHEME://PATH[:SELECTOR][?view=meta][&offset=N][&question=TEXT].
type FileURL struct {
	// Scheme is lower-case, without "://".
	Scheme string
	// RawPath is the path as written (still escaped); Path is it decoded.
	RawPath string
	Path    string
	// Sel is the line range; the zero value selects everything.
	Sel Selector
	// Meta is ?view=meta.
	Meta bool
	// Offset is the UTF-16 code units of the range already read (offset=).
	Offset int64
	// Question is ?question=, asked of an image; HasQuestion tells an empty
	// one from none.
	Question    string
	HasQuestion bool
}

// ParseFileURL parses raw as a URL of a file-like scheme. A colon in the
// path starts the line selector, so a literal colon is written %3A; the
// query may hold view=meta, offset=N and question=TEXT, nothing else.
func ParseFileURL(raw string) (*FileURL, error) {
	if len(raw) > MaxURLLength {
		return nil, invalidURL("a URL of at most 2048 bytes", short(raw), "the URL is %d bytes long; the most is %d", len(raw), MaxURLLength)
	}
	scheme, rest, err := SplitScheme(raw)
	if err != nil {
		return nil, err
	}
	u := &FileURL{Scheme: scheme}
	path, query, hasQuery := strings.Cut(rest, "?")
	if i := strings.LastIndexByte(path, ':'); i >= 0 {
		sel, err := ParseSelector(path[i+1:])
		if err != nil {
			return nil, err
		}
		u.Sel = sel
		path = path[:i]
	}
	if strings.ContainsAny(path, ":") {
		return nil, invalidURL(selectorSyntax, raw, "the URL has more than one ':'; write a literal ':' in a name as %%3A")
	}
	u.RawPath = path
	if u.Path, err = url.PathUnescape(path); err != nil {
		return nil, invalidURL("a path with valid %XX escapes", path, "the path %q has an invalid %% escape", short(path))
	}
	if strings.IndexByte(u.Path, 0) >= 0 {
		return nil, invalidURL("a path without NUL", path, "the path contains a NUL byte")
	}
	if !hasQuery {
		return u, nil
	}
	for _, kv := range strings.Split(query, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		val, err := url.QueryUnescape(v)
		if err != nil {
			return nil, invalidURL("query values with valid %XX escapes", kv, "the query parameter %q has an invalid %% escape", short(kv))
		}
		switch k {
		case "view":
			if val != "meta" {
				return nil, invalidURL("view=meta", kv, "view=%q is not known; the only view is meta", short(val))
			}
			u.Meta = true
		case "offset":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n < 0 || val == "" || val[0] == '+' {
				return nil, invalidURL("offset=N, a whole number ≥ 0 taken from a continue URL", kv, "offset=%q is not a whole number ≥ 0", short(val))
			}
			u.Offset = n
		case "question":
			u.Question, u.HasQuestion = val, true
		default:
			return nil, invalidURL("view=meta, offset=N or question=TEXT", kv, "the query parameter %q is not known here (known: view, offset, question)", short(k))
		}
	}
	return u, nil
}

// Base is the URL without offset and question: the resource and range a
// page's source names.
func (u *FileURL) Base() string {
	s := u.Scheme + "://" + u.RawPath
	if !u.Sel.All() {
		s += ":" + u.Sel.String()
	}
	if u.Meta {
		s += "?view=meta"
	}
	return s
}

// WithOffset is the continue URL: the same resource, selector and view,
// with offset=n.
func (u *FileURL) WithOffset(n int64) string {
	s := u.Base()
	if u.Meta {
		return s + "&offset=" + strconv.FormatInt(n, 10)
	}
	return s + "?offset=" + strconv.FormatInt(n, 10)
}

// short keeps error messages readable when the input is huge.
func short(s string) string {
	const most = 200
	if len(s) <= most {
		return s
	}
	cut := most
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
