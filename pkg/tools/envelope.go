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

// shapedResult is a tool result made ready for the envelope.
type shapedResult struct {
	// json is the result as it appears in the envelope.
	json []byte
	// value is Outcome.Result: a string for text, json.RawMessage otherwise.
	value any
	// text marks a text result.
	text bool
}

// visible is the result as the model reads it, which the text budget of
// SPEC §11 measures: the text itself, or the JSON.
func (r shapedResult) visible() string {
	if s, ok := r.value.(string); ok {
		return s
	}
	return string(r.json)
}

// shapeResult encodes v for the envelope: a string is text, JSON bytes are
// structured (anything else in bytes is text), other values are marshalled.
func shapeResult(v any) (shapedResult, error) {
	switch r := v.(type) {
	case string:
		return shapeText(r), nil
	case json.RawMessage:
		return shapeRaw([]byte(r))
	case []byte:
		return shapeRaw(r)
	}
	b, err := encodeJSON(v)
	if err != nil {
		return shapedResult{}, err
	}
	return shapedResult{json: b, value: json.RawMessage(b)}, nil
}

// shapeRaw treats valid JSON bytes as structured and anything else as text.
func shapeRaw(b []byte) (shapedResult, error) {
	if !json.Valid(b) {
		return shapeText(string(b)), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return shapedResult{}, err
	}
	out := buf.Bytes()
	if !utf8.Valid(out) {
		out = []byte(strings.ToValidUTF8(string(out), "\uFFFD"))
	}
	return shapedResult{json: out, value: json.RawMessage(out)}, nil
}

// shapeText encodes a text result; invalid UTF-8 becomes U+FFFD, so what
// the model sees and what is archived are the same text.
func shapeText(s string) shapedResult {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b, _ := encodeJSON(s)
	return shapedResult{json: b, value: s, text: true}
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

// okEnvelope is {"ok":true,"result":…}.
func okEnvelope(r shapedResult) string {
	var b strings.Builder
	b.Grow(len(r.json) + 21)
	b.WriteString(`{"ok":true,"result":`)
	b.Write(r.json)
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
