package store

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// decodeMessage decodes a stored providers.Message. Reading a long session
// back is dominated by JSON decoding, so this is a fast path for exactly
// the shape json.Marshal writes for a Message. Anything else it meets (an
// unknown or repeated field, an image, a null where Marshal never writes
// one, a lone surrogate, invalid UTF-8, bad JSON) sends the whole message
// to encoding/json instead, so the result is always what json.Unmarshal
// gives (FuzzDecodeMessage checks that).
func decodeMessage(data []byte, m *providers.Message) error {
	if fastDecode(data, m) {
		return nil
	}
	*m = providers.Message{}
	return json.Unmarshal(data, m)
}

// fastDecode decodes data into m when it has the shape json.Marshal gives
// a Message, and reports whether it did.
func fastDecode(data []byte, m *providers.Message) bool {
	d := decoder{b: data}
	var fast providers.Message
	if d.message(&fast) && d.end() {
		*m = fast
		return true
	}
	return false
}

// decoder reads JSON from b; every method reports false for "not the
// expected shape", never an error: the caller falls back.
type decoder struct {
	b []byte
	i int
}

func (d *decoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next skips whitespace and consumes c when it comes next.
func (d *decoder) next(c byte) bool {
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *decoder) end() bool {
	d.ws()
	return d.i == len(d.b)
}

func (d *decoder) lit(s string) bool {
	d.ws()
	if len(d.b)-d.i >= len(s) && string(d.b[d.i:d.i+len(s)]) == s {
		d.i += len(s)
		return true
	}
	return false
}

// object calls field for each key of an object; field consumes the value.
// A key seen twice is refused, as encoding/json merges repeats in ways
// this decoder does not copy.
func (d *decoder) object(field func(key string, seen *uint32) bool) bool {
	if !d.next('{') {
		return false
	}
	var seen uint32
	if d.next('}') {
		return true
	}
	for {
		key, ok := d.str()
		if !ok || !d.next(':') || !field(key, &seen) {
			return false
		}
		if d.next('}') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

// once marks field bit in seen, refusing a repeat.
func once(seen *uint32, bit uint32) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

func (d *decoder) strInto(dst *string, seen *uint32, bit uint32) bool {
	if !once(seen, bit) {
		return false
	}
	s, ok := d.str()
	*dst = s
	return ok
}

func (d *decoder) message(m *providers.Message) bool {
	return d.object(func(key string, seen *uint32) bool {
		switch key {
		case "role":
			var r string
			ok := d.strInto(&r, seen, 1)
			m.Role = providers.Role(r)
			return ok
		case "parts":
			if !once(seen, 2) {
				return false
			}
			if d.lit("null") {
				return true
			}
			return d.parts(m)
		}
		return false
	})
}

func (d *decoder) parts(m *providers.Message) bool {
	if !d.next('[') {
		return false
	}
	m.Parts = []providers.Part{}
	if d.next(']') {
		return true
	}
	for {
		var p providers.Part
		if !d.part(&p) {
			return false
		}
		m.Parts = append(m.Parts, p)
		if d.next(']') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

func (d *decoder) part(p *providers.Part) bool {
	return d.object(func(key string, seen *uint32) bool {
		switch key {
		case "type":
			var t string
			ok := d.strInto(&t, seen, 1)
			p.Type = providers.PartType(t)
			return ok
		case "text":
			return d.strInto(&p.Text, seen, 2)
		case "reasoning":
			if !once(seen, 4) {
				return false
			}
			r := &providers.Reasoning{}
			p.Reasoning = r
			return d.object(func(key string, seen *uint32) bool {
				switch key {
				case "protocol":
					var s string
					ok := d.strInto(&s, seen, 1)
					r.Protocol = providers.Protocol(s)
					return ok
				case "text":
					return d.strInto(&r.Text, seen, 2)
				case "signature":
					return d.strInto(&r.Signature, seen, 4)
				case "redacted":
					return d.strInto(&r.Redacted, seen, 8)
				case "id":
					return d.strInto(&r.ID, seen, 16)
				case "encrypted":
					return d.strInto(&r.Encrypted, seen, 32)
				}
				return false
			})
		case "tool_call":
			if !once(seen, 8) {
				return false
			}
			c := &providers.ToolCall{}
			p.ToolCall = c
			return d.object(func(key string, seen *uint32) bool {
				switch key {
				case "id":
					return d.strInto(&c.ID, seen, 1)
				case "name":
					return d.strInto(&c.Name, seen, 2)
				case "arguments":
					return d.strInto(&c.Arguments, seen, 4)
				case "signature":
					return d.strInto(&c.Signature, seen, 8)
				}
				return false
			})
		case "tool_result":
			if !once(seen, 16) {
				return false
			}
			r := &providers.ToolResult{}
			p.ToolResult = r
			return d.object(func(key string, seen *uint32) bool {
				switch key {
				case "call_id":
					return d.strInto(&r.CallID, seen, 1)
				case "name":
					return d.strInto(&r.Name, seen, 2)
				case "content":
					return d.strInto(&r.Content, seen, 4)
				case "is_error":
					if !once(seen, 8) {
						return false
					}
					switch {
					case d.lit("true"):
						r.IsError = true
					case d.lit("false"):
						r.IsError = false
					default:
						return false
					}
					return true
				}
				return false
			})
		}
		// "image" (rare, base64) and anything new go the slow way.
		return false
	})
}

// str reads a JSON string. Strings without escapes (most of them) are one
// scan and one copy.
func (d *decoder) str() (string, bool) {
	if !d.next('"') {
		return "", false
	}
	start := d.i
	ascii := true
	for j := start; j < len(d.b); j++ {
		c := d.b[j]
		switch {
		case c == '"':
			seg := d.b[start:j]
			if !ascii && !utf8.Valid(seg) {
				return "", false
			}
			d.i = j + 1
			return string(seg), true
		case c == '\\':
			return d.unescape(start)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// unescape reads the rest of a string that has escapes, from start.
func (d *decoder) unescape(start int) (string, bool) {
	out := make([]byte, 0, len(d.b)-start)
	j := start
	for j < len(d.b) {
		// Copy the run up to the next quote, backslash or control byte.
		k := j
		for k < len(d.b) && d.b[k] != '"' && d.b[k] != '\\' && d.b[k] >= 0x20 {
			k++
		}
		out = append(out, d.b[j:k]...)
		if j = k; j >= len(d.b) {
			return "", false
		}
		switch c := d.b[j]; {
		case c == '"':
			if !utf8.Valid(out) {
				return "", false
			}
			d.i = j + 1
			return string(out), true
		case c < 0x20:
			return "", false
		}
		if j+1 >= len(d.b) {
			return "", false
		}
		switch e := d.b[j+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(d.b, j+2)
			if !ok {
				return "", false
			}
			j += 6
			if utf16.IsSurrogate(r) {
				// Only a proper pair is taken; encoding/json's handling
				// of lone halves is left to it.
				if j+1 >= len(d.b) || d.b[j] != '\\' || d.b[j+1] != 'u' {
					return "", false
				}
				r2, ok := hex4(d.b, j+2)
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", false
				}
				j += 6
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		j += 2
	}
	return "", false
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
