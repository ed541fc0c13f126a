package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

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
