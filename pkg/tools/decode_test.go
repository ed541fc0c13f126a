package tools

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecodeArgs(t *testing.T) {
	var a struct {
		Name string `json:"name"`
	}
	if err := DecodeArgs(json.RawMessage(`{"name":"x"}`), &a); err != nil || a.Name != "x" {
		t.Fatalf("decode: %v %+v", err, a)
	}
	for _, raw := range []string{`{"name":"x","extra":1}`, `{"name":1}`, `not json`, ``} {
		err := DecodeArgs(json.RawMessage(raw), &a)
		var te *Error
		if !errors.As(err, &te) || te.Code != CodeInvalidArguments ||
			!strings.HasPrefix(te.Message, "the arguments do not match the tool's schema: ") {
			t.Errorf("%q: got %v", raw, err)
		}
	}
}
