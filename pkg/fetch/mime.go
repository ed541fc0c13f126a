package fetch

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
)

// kind is how a body is turned into Markdown.
type kind int

const (
	kindUnknown kind = iota
	kindHTML
	kindMarkdown
	kindText
	kindJSON
	kindXML
	kindBinary
)

// mediaType returns the lower-case media type of a Content-Type value, or
// "" when there is none or it does not parse.
func mediaType(contentType string) string {
	if contentType == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		// Keep what precedes the parameters: servers send broken
		// parameters far more often than broken types.
		mt, _, _ = strings.Cut(contentType, ";")
		mt = strings.TrimSpace(mt)
		if !strings.Contains(mt, "/") {
			return ""
		}
	}
	return strings.ToLower(mt)
}

// textApplicationTypes are application/* types that are text a model can
// read as they are.
var textApplicationTypes = map[string]bool{
	"application/javascript":            true,
	"application/x-javascript":          true,
	"application/ecmascript":            true,
	"application/x-sh":                  true,
	"application/x-shellscript":         true,
	"application/yaml":                  true,
	"application/x-yaml":                true,
	"application/toml":                  true,
	"application/sql":                   true,
	"application/graphql":               true,
	"application/csv":                   true,
	"application/x-ndjson":              true,
	"application/jsonl":                 true,
	"application/x-www-form-urlencoded": true,
	"application/x-tex":                 true,
	"application/x-httpd-php":           true,
}

// ambiguousTypes say nothing about the content; the body decides.
var ambiguousTypes = map[string]bool{
	"":                           true,
	"application/octet-stream":   true,
	"binary/octet-stream":        true,
	"application/unknown":        true,
	"application/binary":         true,
	"unknown/unknown":            true,
	"application/x-unknown":      true,
	"application/force-download": true,
}

// classifyDeclared maps a declared media type to a kind; kindUnknown means
// the body must be sniffed.
func classifyDeclared(mt string) kind {
	if ambiguousTypes[mt] {
		return kindUnknown
	}
	switch mt {
	case "text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml":
		return kindHTML
	case "text/markdown", "text/x-markdown", "text/vnd.daringfireball.markdown":
		return kindMarkdown
	case "application/json", "text/json", "text/x-json":
		return kindJSON
	case "application/xml", "text/xml", "image/svg+xml":
		return kindXML
	}
	switch {
	case strings.HasSuffix(mt, "+json"):
		return kindJSON
	case strings.HasSuffix(mt, "+xml"):
		return kindXML
	case strings.HasPrefix(mt, "text/"), textApplicationTypes[mt]:
		return kindText
	}
	return kindBinary
}

// binarySignatures are sniffed types that are never text, whatever the
// server says.
func isBinarySniff(sniffed string) bool {
	switch {
	case strings.HasPrefix(sniffed, "image/"), strings.HasPrefix(sniffed, "audio/"),
		strings.HasPrefix(sniffed, "video/"), strings.HasPrefix(sniffed, "font/"):
		return true
	}
	switch sniffed {
	case "application/pdf", "application/zip", "application/x-gzip", "application/x-rar-compressed",
		"application/wasm", "application/postscript", "application/ogg", "application/vnd.ms-fontobject":
		return true
	}
	return false
}

// classify decides the kind of a body from its declared media type and its
// first bytes, and returns the media type to report.
func classify(declared string, head []byte) (kind, string) {
	sniffed := mediaType(http.DetectContentType(head))
	if len(head) > 0 && isBinarySniff(sniffed) {
		// A PDF or an image served as text/html is still a PDF or an image.
		if sniffed != "image/svg+xml" {
			return kindBinary, sniffed
		}
	}
	k := classifyDeclared(declared)
	if k == kindUnknown {
		return classifySniffed(sniffed, head)
	}
	if k == kindXML && looksLikeHTML(head) {
		// XHTML served as generic XML reads better as a page.
		return kindHTML, declared
	}
	return k, declared
}

func classifySniffed(sniffed string, head []byte) (kind, string) {
	if len(head) == 0 {
		return kindText, "text/plain"
	}
	switch {
	case sniffed == "text/html":
		return kindHTML, sniffed
	case sniffed == "text/xml":
		if looksLikeHTML(head) {
			return kindHTML, "text/html"
		}
		return kindXML, "application/xml"
	case strings.HasPrefix(sniffed, "text/"):
		if looksBinary(head) {
			return kindBinary, "application/octet-stream"
		}
		if t := bytes.TrimLeft(head, " \t\r\n\ufeff"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			return kindJSON, "application/json"
		}
		return kindText, "text/plain"
	}
	return kindBinary, sniffed
}

// looksBinary reports NUL bytes in a body without a UTF-16 or UTF-32 byte
// order mark: text in any charset tavo decodes has none.
func looksBinary(head []byte) bool {
	if bytes.HasPrefix(head, []byte{0xFE, 0xFF}) || bytes.HasPrefix(head, []byte{0xFF, 0xFE}) {
		return false
	}
	return bytes.IndexByte(head, 0) >= 0
}

// looksLikeHTML reports an XML body whose root element is html.
func looksLikeHTML(head []byte) bool {
	s := bytes.ToLower(head)
	i := bytes.Index(s, []byte("<html"))
	if i < 0 {
		return false
	}
	// Only a prolog, doctype or comments may come before the root.
	before := s[:i]
	return bytes.Count(before, []byte("<")) == bytes.Count(before, []byte("<?"))+bytes.Count(before, []byte("<!"))
}
