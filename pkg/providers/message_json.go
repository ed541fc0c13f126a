package providers

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// A Message's JSON is the form its struct tags describe. The store keeps
// every message of every session in it, so it must never change.
//
// Reading a long session back is dominated by JSON decoding, so
// UnmarshalJSON has a fast path for exactly the shape json.Marshal writes;
// FuzzMessageJSON holds it to what encoding/json makes of the tags alone.
// There is deliberately no MarshalJSON: encoding/json re-scans whatever a
// Marshaler returns, which made json.Marshal of a Message three times
// slower (9.4 µs against 3.3 µs for a typical assistant turn), while the
// reflection encoder already writes the tagged form directly.

// messageTags is Message without its methods: what encoding/json makes of
// the struct tags, the reference the fast path falls back to.
type messageTags Message

// UnmarshalJSON reads what json.Marshal wrote for a Message. The fast
// path takes exactly that shape into a zero Message; anything else (an
// unknown or repeated field, an image, a null where Marshal never writes
// one, a lone surrogate, invalid UTF-8, bad JSON, a Message that already
// holds data to merge into) goes to encoding/json, so the result is always
// what encoding/json gives from the tags. Code holding the bytes of one
// Message (the store) calls it directly: json.Unmarshal scans its input
// twice before it gets here.
func (m *Message) UnmarshalJSON(data []byte) error {
	if m.Role == "" && m.Parts == nil {
		d := msgDecoder{b: data}
		var fast Message
		if d.message(&fast) && d.end() {
			*m = fast
			return nil
		}
	}
	return json.Unmarshal(data, (*messageTags)(m))
}

// msgDecoder reads a Message's JSON from b; every method reports false for
// "not the expected shape", never an error: the caller falls back.
type msgDecoder struct {
	b []byte
	i int
}

func (d *msgDecoder) ws() {
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
func (d *msgDecoder) next(c byte) bool {
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *msgDecoder) end() bool {
	d.ws()
	return d.i == len(d.b)
}

func (d *msgDecoder) lit(s string) bool {
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
func (d *msgDecoder) object(field func(key string, seen *uint32) bool) bool {
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

// onceField marks field bit in seen, refusing a repeat.
func onceField(seen *uint32, bit uint32) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

func (d *msgDecoder) strInto(dst *string, seen *uint32, bit uint32) bool {
	if !onceField(seen, bit) {
		return false
	}
	s, ok := d.str()
	*dst = s
	return ok
}

func (d *msgDecoder) message(m *Message) bool {
	return d.object(func(key string, seen *uint32) bool {
		switch key {
		case "role":
			var r string
			ok := d.strInto(&r, seen, 1)
			m.Role = Role(r)
			return ok
		case "parts":
			if !onceField(seen, 2) {
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

func (d *msgDecoder) parts(m *Message) bool {
	if !d.next('[') {
		return false
	}
	m.Parts = []Part{}
	if d.next(']') {
		return true
	}
	for {
		var p Part
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

func (d *msgDecoder) part(p *Part) bool {
	return d.object(func(key string, seen *uint32) bool {
		switch key {
		case "type":
			var t string
			ok := d.strInto(&t, seen, 1)
			p.Type = PartType(t)
			return ok
		case "text":
			return d.strInto(&p.Text, seen, 2)
		case "reasoning":
			if !onceField(seen, 4) {
				return false
			}
			r := &Reasoning{}
			p.Reasoning = r
			return d.object(func(key string, seen *uint32) bool {
				switch key {
				case "protocol":
					var s string
					ok := d.strInto(&s, seen, 1)
					r.Protocol = Protocol(s)
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
			if !onceField(seen, 8) {
				return false
			}
			c := &ToolCall{}
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
			if !onceField(seen, 16) {
				return false
			}
			r := &ToolResult{}
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
					if !onceField(seen, 8) {
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
func (d *msgDecoder) str() (string, bool) {
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
func (d *msgDecoder) unescape(start int) (string, bool) {
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

// hex4 reads the four hex digits of a \u escape at b[i:].
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
