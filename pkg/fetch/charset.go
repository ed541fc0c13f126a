package fetch

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/gogs/chardet"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// prescanBytes is how far into an HTML page a <meta> charset is looked for;
// more than the 1024 bytes of the HTML standard because real pages often
// put long comments or inline scripts first.
const prescanBytes = 8 << 10

// detectBytes is how much of an undeclared body the charset detector sees.
const detectBytes = 64 << 10

// toUTF8 decodes a text body to UTF-8. The byte order mark wins, then the
// declarations (the Content-Type header, then a <meta> or an XML
// declaration); a body that is valid UTF-8 with non-ASCII bytes is UTF-8
// whatever a label says, since no legacy text is valid UTF-8 by accident,
// and a body declared UTF-8 that is not valid UTF-8 falls back to the other
// declaration or to detection. Any overruling is reported as a warning.
func toUTF8(body []byte, contentType string, k kind) ([]byte, []Warning) {
	if enc, name, n := bomEncoding(body); enc != nil {
		return decodeWith(enc, name, body[n:]), nil
	}
	var declared []string
	if _, params, err := mime.ParseMediaType(contentType); err == nil && params["charset"] != "" {
		declared = append(declared, params["charset"])
	}
	switch k {
	case kindHTML:
		if cs := metaCharset(body); cs != "" {
			declared = append(declared, cs)
		}
	case kindXML:
		if cs := xmlDeclCharset(body); cs != "" {
			declared = append(declared, cs)
		}
	}
	valid := utf8.Valid(body)
	highBit := hasHighBit(body)

	var first encoding.Encoding
	var firstName string
	names := map[string]bool{}
	for _, label := range declared {
		if e, name := charset.Lookup(label); e != nil {
			if first == nil {
				first, firstName = e, name
			}
			names[name] = true
		}
	}
	switch {
	case first == nil && valid:
		return body, nil
	case first == nil && mostlyUTF8(body):
		// A page cut off mid-character somewhere (a truncated title)
		// is still UTF-8: its few broken bytes are replaced.
		return decodeWith(encoding.Nop, "utf-8", body), nil
	case first == nil:
		enc, name := detect(body, k)
		return decodeWith(enc, name, body), nil
	case firstName == "utf-8" && (valid || mostlyUTF8(body)):
		return decodeWith(first, firstName, body), nil
	case firstName == "utf-8":
		enc, name := fallbackEncoding(body, declared, k)
		return decodeWith(enc, name, body), []Warning{{
			Code:    WarnCharsetMismatch,
			Message: "the page is declared UTF-8 but is not valid UTF-8; it was decoded as " + name,
		}}
	case valid && highBit && !isUTF16(firstName):
		return body, []Warning{{
			Code:    WarnCharsetMismatch,
			Message: "the page is declared " + firstName + " but is valid UTF-8; it was decoded as utf-8",
		}}
	case len(names) > 1:
		// The header and the page disagree; let the bytes pick between them.
		if enc, name, ok := detected(body, k); ok && names[name] && name != firstName {
			return decodeWith(enc, name, body), []Warning{{
				Code:    WarnCharsetMismatch,
				Message: "the header declares " + firstName + " but the page declares " + name + ", which fits its bytes; it was decoded as " + name,
			}}
		}
	}
	return decodeWith(first, firstName, body), nil
}

// mostlyUTF8 reports a body whose non-ASCII text is UTF-8 but for a few
// stray bytes: at least minUTF8Share valid multi-byte characters for
// each invalid byte. Legacy text is almost never valid UTF-8 by
// accident (an accented letter is one high byte between ASCII ones), so
// its share is near zero.
func mostlyUTF8(body []byte) bool {
	good, bad := 0, 0
	for i := 0; i < len(body); {
		if body[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && n == 1 {
			bad++
		} else {
			good++
		}
		i += n
	}
	return good > 0 && good >= minUTF8Share*bad
}

// minUTF8Share is how many valid multi-byte characters per invalid byte
// make a body UTF-8 with a few broken bytes rather than legacy text.
const minUTF8Share = 20

func isUTF16(name string) bool { return strings.HasPrefix(name, "utf-16") }

// fallbackEncoding picks the encoding for a body wrongly declared UTF-8: a
// later declaration that is not UTF-8, else detection.
func fallbackEncoding(body []byte, declared []string, k kind) (encoding.Encoding, string) {
	for _, label := range declared {
		if e, name := charset.Lookup(label); e != nil && name != "utf-8" {
			return e, name
		}
	}
	return detect(body, k)
}

// detect guesses the encoding of a body that is not UTF-8, windows-1252
// when the detector is unsure.
func detect(body []byte, k kind) (encoding.Encoding, string) {
	if e, name, ok := detected(body, k); ok {
		return e, name
	}
	e, name := charset.Lookup("windows-1252")
	return e, name
}

// detected runs the charset detector; ok is false when it is unsure or
// names an encoding tavo cannot decode.
func detected(body []byte, k kind) (encoding.Encoding, string, bool) {
	sample := body
	if len(sample) > detectBytes {
		sample = sample[:detectBytes]
	}
	d := chardet.NewTextDetector()
	if k == kindHTML {
		d = chardet.NewHtmlDetector()
	}
	if r, err := d.DetectBest(sample); err == nil && r.Confidence >= 30 {
		if e, name := charset.Lookup(r.Charset); e != nil && name != "utf-8" {
			return e, name, true
		}
	}
	return nil, "", false
}

// decodeWith decodes body; the result shares memory with body when it is
// already valid UTF-8, which keeps a 25 MiB page from being copied.
func decodeWith(enc encoding.Encoding, name string, body []byte) []byte {
	if name == "utf-8" {
		if utf8.Valid(body) {
			return body
		}
		return bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	return out
}

func bomEncoding(b []byte) (encoding.Encoding, string, int) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return encoding.Nop, "utf-8", 3
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be", 2
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le", 2
	}
	return nil, "", 0
}

func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// metaCharset finds the charset of <meta charset> or <meta http-equiv
// content-type> before the body starts.
func metaCharset(body []byte) string {
	if len(body) > prescanBytes {
		body = body[:prescanBytes]
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return ""
			case "meta":
			default:
				continue
			}
			var cs, content string
			var httpEquiv bool
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "charset":
					cs = string(v)
				case "content":
					content = string(v)
				case "http-equiv":
					httpEquiv = strings.EqualFold(string(v), "content-type")
				}
			}
			if cs != "" {
				return strings.TrimSpace(cs)
			}
			if httpEquiv && content != "" {
				if _, params, err := mime.ParseMediaType(content); err == nil && params["charset"] != "" {
					return params["charset"]
				}
			}
		}
	}
}

// xmlDeclCharset reads encoding="…" from an XML declaration.
func xmlDeclCharset(body []byte) string {
	if !bytes.HasPrefix(body, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(body, []byte("?>"))
	if end < 0 || end > 512 {
		return ""
	}
	decl := string(body[:end])
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	rest, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	q := rest[0]
	val, _, ok := strings.Cut(rest[1:], string(q))
	if !ok {
		return ""
	}
	return val
}
