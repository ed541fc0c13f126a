package files

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Encoding is how file content travels as a string.
type Encoding string

// The encodings of SPEC §5.
const (
	// UTF8 is text as it is; binary files cannot be loaded this way.
	UTF8 Encoding = "utf8"
	// Base64 is standard base64 with padding.
	Base64 Encoding = "base64"
	// DataURL is data:<mime>;base64,<base64>.
	DataURL Encoding = "dataUrl"
)

// ParseEncoding checks an encoding name; "" is utf8.
func ParseEncoding(s string) (Encoding, error) {
	switch Encoding(s) {
	case "", UTF8:
		return UTF8, nil
	case Base64, DataURL:
		return Encoding(s), nil
	}
	return "", invalid("encoding", "utf8, base64 or dataUrl", fmt.Sprintf("unknown encoding %s: use utf8, base64 or dataUrl", quote(s)))
}

// Decode turns content in encoding enc into the bytes to store. Base64 may
// use the standard or URL-safe alphabet, with or without padding, and may be
// wrapped over lines. A data URL is data:[<mediatype>][;base64],<data>; its
// media type is checked but not kept (a file's MIME type comes from its name
// and content). Bad base64 and malformed data URLs are KindInvalid errors
// for field "content"; the content itself is never echoed.
func Decode(content string, enc Encoding) ([]byte, error) {
	switch enc {
	case "", UTF8:
		return []byte(content), nil
	case Base64:
		b, err := decodeBase64(content)
		if err != nil {
			return nil, invalid("content", "base64 text", "content is not valid base64: "+err.Error())
		}
		return b, nil
	case DataURL:
		b, _, err := parseDataURL(content)
		if err != nil {
			return nil, invalid("content", "a data URL: data:[<mediatype>][;base64],<data>", "content is not a valid data URL: "+err.Error())
		}
		return b, nil
	}
	_, err := ParseEncoding(string(enc))
	return nil, err
}

// Encode turns stored bytes into a string in encoding enc; mimeType is the
// file's type, used by data URLs. Bytes that are not text (see IsText)
// cannot be encoded as utf8: that is a KindInvalid error for field
// "encoding" that points to base64 and dataUrl.
func Encode(data []byte, mimeType string, enc Encoding) (string, error) {
	switch enc {
	case "", UTF8:
		if !IsText(data) {
			return "", errBinary()
		}
		return string(data), nil
	case Base64:
		return base64.StdEncoding.EncodeToString(data), nil
	case DataURL:
		return dataURLPrefix(mimeType) + base64.StdEncoding.EncodeToString(data), nil
	}
	_, err := ParseEncoding(string(enc))
	return "", err
}

// errBinary is the error of loading a binary file as text.
func errBinary() *Error {
	return invalid("encoding", "base64 or dataUrl for a binary file",
		"the file is binary (not UTF-8 text); load it with encoding base64 or dataUrl")
}

// dataURLPrefix is what precedes the base64 data of a data URL.
func dataURLPrefix(mimeType string) string {
	if mimeType == "" {
		mimeType = "application/octet-stream"
	}
	return "data:" + mimeType + ";base64,"
}

// IsText reports whether data can travel as a UTF-8 string: valid UTF-8
// without NUL bytes (NUL marks binary formats and UTF-16 text).
func IsText(data []byte) bool {
	return utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
}

// decodeBase64 accepts the standard and URL-safe alphabets, with or without
// padding, ignoring ASCII whitespace.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if !strings.HasSuffix(s, "=") && len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		if ce, ok := err.(base64.CorruptInputError); ok {
			return nil, fmt.Errorf("bad input at character %d", int64(ce))
		}
		return nil, err
	}
	return b, nil
}

// parseDataURL decodes data:[<mediatype>][;base64],<data> (RFC 2397) and
// returns the bytes and the media type (text/plain when absent).
func parseDataURL(s string) ([]byte, string, error) {
	if len(s) < 5 || !strings.EqualFold(s[:5], "data:") {
		return nil, "", fmt.Errorf("it does not start with \"data:\"")
	}
	meta, data, ok := strings.Cut(s[5:], ",")
	if !ok {
		return nil, "", fmt.Errorf("there is no ',' before the data")
	}
	isBase64 := false
	if i := strings.LastIndexByte(meta, ';'); i >= 0 && strings.EqualFold(strings.TrimSpace(meta[i+1:]), "base64") {
		isBase64, meta = true, meta[:i]
	}
	mediaType := "text/plain"
	if strings.TrimSpace(meta) != "" {
		m := meta
		if strings.HasPrefix(m, ";") { // parameters without a type: text/plain;charset=…
			m = "text/plain" + m
		}
		mt, _, err := mime.ParseMediaType(m)
		if err != nil || !strings.Contains(mt, "/") {
			return nil, "", fmt.Errorf("the media type before ',' is malformed")
		}
		mediaType = mt
	}
	if isBase64 {
		// Base64 in a URL may itself be percent-encoded.
		if strings.Contains(data, "%") {
			u, err := url.PathUnescape(data)
			if err != nil {
				return nil, "", fmt.Errorf("bad percent-encoding in the data")
			}
			data = u
		}
		b, err := decodeBase64(data)
		if err != nil {
			return nil, "", fmt.Errorf("the base64 data is invalid: %w", err)
		}
		return b, mediaType, nil
	}
	b, err := url.PathUnescape(data)
	if err != nil {
		return nil, "", fmt.Errorf("bad percent-encoding in the data")
	}
	return []byte(b), mediaType, nil
}
