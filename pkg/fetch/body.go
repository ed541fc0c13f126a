package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/andybalholm/brotli"
)

// limitedReader fails with limit_exceeded once more than max bytes pass;
// it never truncates silently. n counts the bytes it has passed on (at most
// max) and err keeps the first error of the reader below.
type limitedReader struct {
	r    io.Reader
	max  int64
	n    int64
	name string
	over bool
	err  error
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.over {
		return 0, limitError(l.name, l.max)
	}
	// Ask for one byte past the limit so an exact-size body is not an error.
	if rest := l.max - l.n + 1; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := l.r.Read(p)
	if l.n+int64(n) > l.max {
		n = int(l.max - l.n)
		l.n, l.over = l.max, true
		return n, limitError(l.name, l.max)
	}
	l.n += int64(n)
	if err != nil && err != io.EOF && l.err == nil {
		l.err = err
	}
	return n, err
}

// maxCodings bounds stacked Content-Encodings ("gzip, gzip, …").
const maxCodings = 4

// decodeContentEncoding undoes the codings listed in Content-Encoding, last
// applied first. Only the codings the engine asked for are accepted.
func decodeContentEncoding(r io.Reader, values []string) (io.Reader, error) {
	var codings []string
	for _, v := range values {
		for _, c := range strings.Split(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	if len(codings) > maxCodings {
		return nil, errorf(CodeUpstreamError, "the response stacks %d content codings; at most %d are undone", len(codings), maxCodings)
	}
	for i := len(codings) - 1; i >= 0; i-- {
		var err error
		switch codings[i] {
		case "gzip", "x-gzip":
			r, err = newGzipReader(r)
		case "deflate":
			r, err = newDeflateReader(r)
		case "br":
			r = brotli.NewReader(r)
		default:
			return nil, errorf(CodeUpstreamError, "the response uses Content-Encoding %q, which tavo did not ask for and cannot decode", codings[i])
		}
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

func newGzipReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if _, err := br.Peek(1); err == io.EOF {
		return br, nil // an empty body carries no gzip header
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) {
			return nil, fe
		}
		return nil, wrapf(CodeUpstreamError, err, "the gzip response body is corrupt: %v", err)
	}
	return zr, nil
}

// newDeflateReader accepts both zlib-wrapped deflate (what the standard
// says) and raw deflate (what many servers send).
func newDeflateReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(2)
	if err == io.EOF || (err == io.ErrUnexpectedEOF && len(head) == 0) {
		return br, nil
	}
	if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		zr, err := zlib.NewReader(br)
		if err != nil {
			var fe *Error
			if errors.As(err, &fe) {
				return nil, fe
			}
			return nil, wrapf(CodeUpstreamError, err, "the deflate response body is corrupt: %v", err)
		}
		return zr, nil
	}
	return flate.NewReader(br), nil
}

// sniffBytes is how much of the body decides its kind (as in
// http.DetectContentType).
const sniffBytes = 512

// readDocument reads and converts the final response of a fetch.
func (e *Engine) readDocument(ctx context.Context, resp *http.Response, req Request, final *url.URL, limits Limits, st *fetchState, warnings []Warning) (*Document, error) {
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, errorf(CodeUpstreamError, "%s answered HTTP %s", final.Redacted(), statusText(resp))
	}
	declared := resp.Header.Get("Content-Type")
	mt := mediaType(declared)
	st.mime = mt
	if mt != "" && classifyDeclared(mt) == kindBinary {
		return nil, unsupported(mt, "")
	}
	if resp.ContentLength > limits.WireBytes {
		return nil, limitError(LimitWire, limits.WireBytes)
	}
	wire := &limitedReader{r: resp.Body, max: limits.WireBytes, name: LimitWire}
	decoded, err := decodeContentEncoding(wire, resp.Header.Values("Content-Encoding"))
	if err != nil {
		return nil, bodyError(err, wire, final)
	}
	body := &limitedReader{r: decoded, max: limits.DecodedBytes, name: LimitDecoded}
	defer func() { st.bytes = body.n }()

	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(body, head)
	head = head[:n]
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, bodyError(err, wire, final)
	}
	k, mime := classify(mt, head)
	if k == kindBinary {
		return nil, unsupported(mime, mt)
	}
	st.mime = mime
	keep := limits.DecodedBytes
	if k == kindHTML {
		keep = min(keep, limits.HTMLBytes)
	}
	data, err := readCapped(head, body, keep, resp.ContentLength)
	if err != nil {
		return nil, bodyError(err, wire, final)
	}
	if k == kindHTML && int64(len(data)) > limits.HTMLBytes {
		// Read on, without keeping it, to tell an HTML page that is merely
		// large from a decompression bomb, whose error names the
		// decompressed limit.
		if _, err := io.Copy(io.Discard, body); err != nil {
			return nil, bodyError(err, wire, final)
		}
		return nil, limitError(LimitHTML, limits.HTMLBytes)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	conv, err := e.conv.convert(ctx, data, k, declared, final, req.Extract)
	if err != nil {
		return nil, err
	}
	if int64(len(conv.Markdown)) > limits.MarkdownBytes {
		return nil, limitError(LimitMarkdown, limits.MarkdownBytes)
	}
	return &Document{
		URL:      req.URL,
		FinalURL: final.String(),
		Status:   resp.StatusCode,
		MIME:     mime,
		Title:    conv.Title,
		Markdown: conv.Markdown,
		Warnings: append(warnings, conv.Warnings...),
		Bytes:    body.n,
	}, nil
}

func statusText(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return fmt.Sprintf("%d %s", resp.StatusCode, t)
	}
	return fmt.Sprint(resp.StatusCode)
}

// readCapped reads the rest of r after head, keeping at most keep+1 bytes
// in all so the caller can tell "exactly keep" from "more than keep".
func readCapped(head []byte, r io.Reader, keep, contentLength int64) ([]byte, error) {
	size := int64(64 << 10)
	if contentLength > 0 {
		// Content-Length counts compressed bytes when there is a coding; it
		// is only a first guess at the size.
		size = min(contentLength, keep) + 1
	}
	var buf bytes.Buffer
	buf.Grow(int(max(size, int64(len(head))+1)))
	buf.Write(head)
	_, err := buf.ReadFrom(io.LimitReader(r, keep+1-int64(len(head))))
	return buf.Bytes(), err
}

// bodyError names the cause of a failed body read: a limit, the network
// (the wire reader saw the error first) or a corrupt compressed stream.
func bodyError(err error, wire *limitedReader, final *url.URL) error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	if wire.err != nil {
		return wrapf(CodeUpstreamError, err, "reading the response from %s failed: %v", final.Redacted(), wire.err)
	}
	if err == io.ErrUnexpectedEOF {
		return wrapf(CodeUpstreamError, err, "the compressed response from %s ends early", final.Redacted())
	}
	return wrapf(CodeUpstreamError, err, "the compressed response from %s is corrupt: %v", final.Redacted(), err)
}

func unsupported(mime, declared string) *Error {
	if declared != "" && declared != mime {
		return errorf(CodeUnsupportedMediaType, "the body is %s (served as %s); tavo reads HTML, Markdown, plain text, JSON and XML", mime, declared)
	}
	return errorf(CodeUnsupportedMediaType, "the body is %s; tavo reads HTML, Markdown, plain text, JSON and XML", mime)
}
