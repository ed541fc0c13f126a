package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestJSONStringLenMatchesEncoder(t *testing.T) {
	var b strings.Builder
	for r := rune(0); r < 0x3000; r++ {
		b.WriteRune(r)
	}
	b.WriteString("\xff\xfe\xc3 \u2028\u2029😀 <>&")
	s := b.String()
	enc, _ := encodeJSON(s)
	if got := jsonStringLen(s); got != len(enc) {
		t.Fatalf("jsonStringLen = %d, encoder wrote %d", got, len(enc))
	}
}

func FuzzJSONStringLen(f *testing.F) {
	for _, s := range []string{"", "a", "\"\\\n", "\x00\x1f", "€😀", "\xff", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc, _ := encodeJSON(s)
		if got := jsonStringLen(s); got != len(enc) {
			t.Fatalf("jsonStringLen(%q) = %d, encoder wrote %d", s, got, len(enc))
		}
		for _, limit := range []int{0, 2, 3, 7, 20} {
			p := prefixFitting(s, limit)
			if !strings.HasPrefix(s, p) {
				t.Fatalf("prefix %q of %q", p, s)
			}
			if p != "" && jsonStringLen(p) > limit {
				t.Fatalf("prefix %q takes %d > %d", p, jsonStringLen(p), limit)
			}
			if utf8.ValidString(s) && !utf8.ValidString(p) {
				t.Fatalf("prefix %q splits a rune", p)
			}
		}
	})
}

func TestErrorEnvelopeBounded(t *testing.T) {
	e := &Error{Code: CodeUpstreamError, Message: strings.Repeat("é", 5000), Details: map[string]any{"ch": make(chan int)}}
	env := errorEnvelope(e)
	if len(env) > maxErrorEnvelopeBytes || strings.Contains(env, "details") || !utf8.ValidString(env) {
		t.Fatalf("envelope not bounded: %d bytes", len(env))
	}
	big := &Error{Code: CodeUpstreamError, Message: "m", Details: map[string]any{"x": strings.Repeat("a", 20000)}}
	if got := errorEnvelope(big); got != `{"ok":false,"error":{"code":"upstream_error","message":"m"}}` {
		t.Fatalf("large details kept: %.80s", got)
	}
}
