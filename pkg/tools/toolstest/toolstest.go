// Package toolstest helps tests of built-in tools read what the model gets.
package toolstest

import (
	"encoding/json"
	"strings"
	"testing"
)

// Envelope is a decoded result envelope.
type Envelope struct {
	OK        bool            `json:"ok"`
	Result    json.RawMessage `json:"result"`
	Truncated bool            `json:"truncated"`
	Error     *struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

// Decode decodes the envelope text of a call to tool and fails the test
// when it does not parse or when it shows secret (a data directory, say).
func Decode(t testing.TB, tool, envelope, secret string) Envelope {
	t.Helper()
	if secret != "" && strings.Contains(envelope, secret) {
		t.Fatalf("%s: the envelope shows %q: %s", tool, secret, envelope)
	}
	var e Envelope
	if err := json.Unmarshal([]byte(envelope), &e); err != nil {
		t.Fatalf("%s: bad envelope %q: %v", tool, envelope, err)
	}
	return e
}
