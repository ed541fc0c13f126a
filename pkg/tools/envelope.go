package tools

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Envelope limits that keep error envelopes small: they are always delivered
// and never counted against the run budget.
const (
	maxErrorMessageBytes  = 2 << 10
	maxErrorEnvelopeBytes = 8 << 10
)

// previewOverhead is the JSON around the preview string of a truncated
// structured result: {"truncated":true,"preview":…}.
const previewOverhead = len(`{"truncated":true,"preview":}`)

// shapedResult is a tool result made ready for the envelope.
type shapedResult struct {
	// json is the result as it appears in the envelope.
	json []byte
	// value is Outcome.Result: a string for text, json.RawMessage otherwise.
	value any
	// text marks a text result; truncated text is flagged in the envelope.
	text      bool
	truncated bool
}

// shapeResult encodes v and cuts it to perResult bytes of JSON: text keeps a
// UTF-8-safe prefix, structured JSON becomes a truncated preview object.
func shapeResult(v any, perResult int) (shapedResult, error) {
	switch r := v.(type) {
	case string:
		return shapeText(r, perResult), nil
	case json.RawMessage:
		return shapeRaw([]byte(r), perResult)
	case []byte:
		return shapeRaw(r, perResult)
	}
	b, err := encodeJSON(v)
	if err != nil {
		return shapedResult{}, err
	}
	return shapeStructured(b, perResult), nil
}

// shapeRaw treats valid JSON bytes as structured and anything else as text.
func shapeRaw(b []byte, perResult int) (shapedResult, error) {
	if !json.Valid(b) {
		return shapeText(string(b), perResult), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return shapedResult{}, err
	}
	out := buf.Bytes()
	if !utf8.Valid(out) {
		out = []byte(strings.ToValidUTF8(string(out), "\uFFFD"))
	}
	return shapeStructured(out, perResult), nil
}

// shapeText encodes a text result, keeping the longest prefix that fits.
func shapeText(s string, perResult int) shapedResult {
	truncated := false
	if jsonStringLen(s) > perResult {
		s = prefixFitting(s, perResult)
		truncated = true
	}
	b, _ := encodeJSON(s)
	return shapedResult{json: b, value: s, text: true, truncated: truncated}
}

// shapeStructured replaces JSON over perResult bytes by a preview object.
func shapeStructured(b []byte, perResult int) shapedResult {
	if len(b) <= perResult {
		return shapedResult{json: b, value: json.RawMessage(b)}
	}
	preview := prefixFitting(string(b), perResult-previewOverhead)
	out, _ := encodeJSON(struct {
		Truncated bool   `json:"truncated"`
		Preview   string `json:"preview"`
	}{true, preview})
	return shapedResult{json: out, value: json.RawMessage(out), truncated: true}
}

// encodeJSON marshals v compactly without HTML escaping: models read "<"
// better than "\u003c".
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// runeJSONLen is the number of bytes encodeJSON spends on one rune of a
// string (size is its UTF-8 length; an invalid byte has r == RuneError and
// size 1 and becomes \ufffd).
func runeJSONLen(r rune, size int) int {
	if r < utf8.RuneSelf {
		switch {
		case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
			return 2
		case r < 0x20:
			return 6
		}
		return 1
	}
	if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
		return 6
	}
	return size
}

// jsonStringLen is the length of the JSON encoding of s, quotes included.
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += runeJSONLen(r, size)
		i += size
	}
	return n
}

// prefixFitting returns the longest prefix of s ending on a rune boundary
// whose JSON encoding, quotes included, takes at most limit bytes.
func prefixFitting(s string, limit int) string {
	n := 2
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += runeJSONLen(r, size)
		if n > limit {
			return s[:i]
		}
		i += size
	}
	return s
}

// okEnvelope is {"ok":true,"result":…} with "truncated":true after the
// result when a text result was cut.
func okEnvelope(r shapedResult) string {
	var b strings.Builder
	b.Grow(len(r.json) + 40)
	b.WriteString(`{"ok":true,"result":`)
	b.Write(r.json)
	if r.text && r.truncated {
		b.WriteString(`,"truncated":true`)
	}
	b.WriteByte('}')
	return b.String()
}

// errorEnvelope is {"ok":false,"error":{…}}; details are dropped when they
// cannot be encoded or would make the envelope large.
func errorEnvelope(e *Error) string {
	e = boundedError(e)
	type env struct {
		OK    bool   `json:"ok"`
		Error *Error `json:"error"`
	}
	b, err := encodeJSON(env{Error: e})
	if err != nil || len(b) > maxErrorEnvelopeBytes {
		b, _ = encodeJSON(env{Error: &Error{Code: e.Code, Message: e.Message}})
	}
	return string(b)
}

// boundedError returns e with its message cut to a readable size.
func boundedError(e *Error) *Error {
	if len(e.Message) <= maxErrorMessageBytes && utf8.ValidString(e.Message) {
		return e
	}
	c := *e
	msg := strings.ToValidUTF8(e.Message, "\uFFFD")
	if len(msg) > maxErrorMessageBytes {
		cut := maxErrorMessageBytes
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	c.Message = msg
	return &c
}
