package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// compress encodes data with one Content-Encoding.
func compress(t testing.TB, coding string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	case "rawdeflate":
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	case "br":
		w = brotli.NewWriter(&buf)
	default:
		t.Fatalf("unknown coding %s", coding)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encoded(contentType, coding string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		if coding != "" {
			w.Header().Set("Content-Encoding", coding)
		}
		_, _ = w.Write(body)
	}
}

func TestContentEncodingsAreDecoded(t *testing.T) {
	text := []byte(strings.Repeat("compressed text line\n", 200))
	cases := map[string][]byte{
		"gzip":     compress(t, "gzip", text),
		"x-gzip":   compress(t, "gzip", text),
		"deflate":  compress(t, "deflate", text),
		"br":       compress(t, "br", text),
		"gzip, br": compress(t, "br", compress(t, "gzip", text)),
		"identity": text,
	}
	for coding, body := range cases {
		t.Run(coding, func(t *testing.T) {
			s := serve(t, encoded("text/plain", coding, body))
			doc := mustFetch(t, &Engine{}, Request{URL: s.URL})
			if doc.Markdown != string(text) {
				t.Fatalf("got %d bytes %q", len(doc.Markdown), truncate(doc.Markdown, 80))
			}
			if doc.Bytes != int64(len(text)) {
				t.Errorf("Bytes %d, want %d", doc.Bytes, len(text))
			}
		})
	}
	// Raw deflate, as many servers send it.
	s := serve(t, encoded("text/plain", "deflate", compress(t, "rawdeflate", text)))
	if doc := mustFetch(t, &Engine{}, Request{URL: s.URL}); doc.Markdown != string(text) {
		t.Fatalf("raw deflate: %q", truncate(doc.Markdown, 80))
	}
}

func TestBadContentEncodings(t *testing.T) {
	s := serve(t, encoded("text/plain", "zstd", []byte("whatever")))
	fe := fetchErr(t, &Engine{}, Request{URL: s.URL})
	wantCode(t, fe, CodeUpstreamError)
	wantContains(t, fe.Message, "zstd")

	corrupt := compress(t, "gzip", []byte(strings.Repeat("data ", 1000)))
	corrupt[len(corrupt)/2] ^= 0xff
	corrupt[len(corrupt)/2+1] ^= 0xff
	s = serve(t, encoded("text/plain", "gzip", corrupt))
	wantCode(t, fetchErr(t, &Engine{}, Request{URL: s.URL}), CodeUpstreamError)

	s = serve(t, encoded("text/plain", "gzip", []byte("not gzip at all")))
	wantCode(t, fetchErr(t, &Engine{}, Request{URL: s.URL}), CodeUpstreamError)

	s = serve(t, encoded("text/plain", "gzip", nil))
	if doc := mustFetch(t, &Engine{}, Request{URL: s.URL}); doc.Markdown != "" {
		t.Fatalf("empty gzip body gave %q", doc.Markdown)
	}
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// bombHandler streams size bytes of zeros compressed with coding, made as
// it is read so the test never holds the bomb.
func bombHandler(t testing.TB, contentType, coding string, size int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Encoding", coding)
		var cw io.WriteCloser
		switch coding {
		case "gzip":
			cw, _ = gzip.NewWriterLevel(w, gzip.BestCompression)
		case "deflate":
			cw, _ = zlib.NewWriterLevel(w, zlib.BestCompression)
		case "br":
			cw = brotli.NewWriterLevel(w, 1)
		}
		_, _ = io.Copy(cw, io.LimitReader(zeros{}, size))
		_ = cw.Close()
	}
}

func TestGzipBombStopsAtDecompressedLimit(t *testing.T) {
	for _, ct := range []string{"text/html", "text/plain"} {
		t.Run(ct, func(t *testing.T) {
			s := serve(t, bombHandler(t, ct, "gzip", 1<<30))
			var rec AuditRecord
			e := &Engine{Auditor: AuditorFunc(func(_ context.Context, r AuditRecord) error { rec = r; return nil })}
			fe := fetchErr(t, e, Request{URL: s.URL})
			wantCode(t, fe, CodeLimitExceeded)
			if fe.Limit != LimitDecoded || fe.Max != 40<<20 {
				t.Fatalf("limit %s max %d (%s)", fe.Limit, fe.Max, fe.Message)
			}
			wantContains(t, fe.Message, "40 MiB")
			if rec.Bytes != 40<<20 || rec.Error != CodeLimitExceeded {
				t.Errorf("audit bytes %d error %q, want the read stopped at 40 MiB", rec.Bytes, rec.Error)
			}
		})
	}
}

func TestDeflateAndBrotliBombs(t *testing.T) {
	for _, coding := range []string{"deflate", "br"} {
		t.Run(coding, func(t *testing.T) {
			s := serve(t, bombHandler(t, "text/plain", coding, 64<<20))
			fe := fetchErr(t, &Engine{Limits: Limits{DecodedBytes: 1 << 20}}, Request{URL: s.URL})
			wantCode(t, fe, CodeLimitExceeded)
			if fe.Limit != LimitDecoded {
				t.Fatalf("limit %s", fe.Limit)
			}
		})
	}
}

func TestWireLimit(t *testing.T) {
	body := strings.Repeat("w", 5000)
	// Declared length: refused before reading.
	s := serve(t, page("text/plain", body))
	fe := fetchErr(t, &Engine{Limits: Limits{WireBytes: 4096}}, Request{URL: s.URL})
	wantCode(t, fe, CodeLimitExceeded)
	if fe.Limit != LimitWire {
		t.Fatalf("limit %s", fe.Limit)
	}
	wantContains(t, fe.Message, "4 KiB")

	// Streamed without a length: stopped while reading.
	s = serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for range 10 {
			fmt.Fprint(w, body[:500])
			w.(http.Flusher).Flush()
		}
	})
	fe = fetchErr(t, &Engine{Limits: Limits{WireBytes: 4096}}, Request{URL: s.URL})
	wantCode(t, fe, CodeLimitExceeded)
	if fe.Limit != LimitWire {
		t.Fatalf("limit %s", fe.Limit)
	}

	// Exactly at the limit is fine.
	s = serve(t, page("text/plain", body[:4096]))
	mustFetch(t, &Engine{Limits: Limits{WireBytes: 4096}}, Request{URL: s.URL})

	// Compressed bytes count on the wire.
	s = serve(t, encoded("text/plain", "gzip", compress(t, "gzip", []byte(body))))
	mustFetch(t, &Engine{Limits: Limits{WireBytes: 4096}}, Request{URL: s.URL})
}

func TestHTMLLimit(t *testing.T) {
	html := "<html><body><p>" + strings.Repeat("a", 3000) + "</p></body></html>"
	limits := Limits{HTMLBytes: 2000, DecodedBytes: 8000}
	s := serve(t, encoded("text/html", "gzip", compress(t, "gzip", []byte(html))))
	fe := fetchErr(t, &Engine{Limits: limits}, Request{URL: s.URL})
	wantCode(t, fe, CodeLimitExceeded)
	if fe.Limit != LimitHTML {
		t.Fatalf("limit %s (%s)", fe.Limit, fe.Message)
	}
	wantContains(t, fe.Message, "HTML")

	// The same size of plain text is under the decompressed limit.
	s = serve(t, encoded("text/plain", "gzip", compress(t, "gzip", []byte(html))))
	mustFetch(t, &Engine{Limits: limits}, Request{URL: s.URL})
}

func TestMarkdownLimit(t *testing.T) {
	s := serve(t, page("text/plain", strings.Repeat("m", 300)))
	fe := fetchErr(t, &Engine{Limits: Limits{MarkdownBytes: 200}}, Request{URL: s.URL})
	wantCode(t, fe, CodeLimitExceeded)
	if fe.Limit != LimitMarkdown {
		t.Fatalf("limit %s", fe.Limit)
	}
	wantContains(t, fe.Message, "Markdown", "200 bytes")
}

func TestDefaultLimits(t *testing.T) {
	l := Limits{}.withDefaults()
	if l.WireBytes != 20<<20 || l.DecodedBytes != 40<<20 || l.HTMLBytes != 25<<20 || l.MarkdownBytes != 10<<20 || l.Redirects != 5 {
		t.Fatalf("defaults %+v", l)
	}
}
