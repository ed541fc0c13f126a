package fetch

import (
	"fmt"
	"time"
)

// Names of the limits, as carried in Error.Limit.
const (
	LimitWire      = "wire_bytes"
	LimitDecoded   = "decompressed_bytes"
	LimitHTML      = "html_bytes"
	LimitMarkdown  = "markdown_bytes"
	LimitRedirects = "redirects"
)

// Defaults of SPEC §6.
const (
	DefaultWireBytes     = 20 << 20
	DefaultDecodedBytes  = 40 << 20
	DefaultHTMLBytes     = 25 << 20
	DefaultMarkdownBytes = 10 << 20
	DefaultRedirects     = 5
	DefaultTimeout       = 30 * time.Second
)

// Limits bound one fetch. A zero field takes its default.
type Limits struct {
	// WireBytes caps the bytes read from the connection (compressed).
	WireBytes int64
	// DecodedBytes caps the bytes after Content-Encoding is undone.
	DecodedBytes int64
	// HTMLBytes caps the HTML handed to the converter.
	HTMLBytes int64
	// MarkdownBytes caps the Markdown of one document.
	MarkdownBytes int64
	// Redirects caps the redirects followed.
	Redirects int
}

func (l Limits) withDefaults() Limits {
	if l.WireBytes <= 0 {
		l.WireBytes = DefaultWireBytes
	}
	if l.DecodedBytes <= 0 {
		l.DecodedBytes = DefaultDecodedBytes
	}
	if l.HTMLBytes <= 0 {
		l.HTMLBytes = DefaultHTMLBytes
	}
	if l.MarkdownBytes <= 0 {
		l.MarkdownBytes = DefaultMarkdownBytes
	}
	if l.Redirects <= 0 {
		l.Redirects = DefaultRedirects
	}
	return l
}

// limitError builds the limit_exceeded error for the named limit.
func limitError(name string, max int64) *Error {
	var what string
	switch name {
	case LimitWire:
		what = "the response is larger than the wire limit of " + sizeString(max)
	case LimitDecoded:
		what = "the decompressed response is larger than the limit of " + sizeString(max)
	case LimitHTML:
		what = "the HTML is larger than the converter limit of " + sizeString(max)
	case LimitMarkdown:
		what = "the Markdown of the document is larger than the limit of " + sizeString(max)
	case LimitRedirects:
		what = fmt.Sprintf("more than %d redirects", max)
	default:
		what = "a limit was exceeded"
	}
	return &Error{Code: CodeLimitExceeded, Message: what + " (" + name + ")", Limit: name, Max: max}
}

// sizeString writes a byte count the way the limits are spoken of.
func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
