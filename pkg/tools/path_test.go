package tools

import (
	"encoding/json"
	"testing"
)

func TestJoinPath(t *testing.T) {
	tests := []struct {
		segs []any
		want string
	}{
		{nil, ""},
		{[]any{"question"}, "question"},
		{[]any{"options", "referenceImages", 0}, "options.referenceImages[0]"},
		{[]any{"options", 2, "value"}, "options[2].value"},
		{[]any{0}, "[0]"},
		{[]any{"headers", "X-Key"}, "headers.X-Key"},
		{[]any{"a.b"}, `["a.b"]`},
		{[]any{"m", "two words", 1}, `m["two words"][1]`},
		{[]any{"m", ""}, `m[""]`},
		{[]any{"1st"}, `["1st"]`},
	}
	for _, tt := range tests {
		if got := JoinPath(tt.segs...); got != tt.want {
			t.Errorf("JoinPath(%v) = %q, want %q", tt.segs, got, tt.want)
		}
	}
}

func TestJSONType(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{map[string]any{}, "object"},
		{[]any{}, "array"},
		{"s", "string"},
		{true, "boolean"},
		{json.Number("3"), "integer"},
		{json.Number("3.0"), "integer"},
		{json.Number("2e3"), "integer"},
		{json.Number("1.5"), "number"},
		{json.Number("1e-3"), "number"},
		{2.0, "integer"},
		{2.5, "number"},
	}
	for _, tt := range tests {
		if got := JSONType(tt.v); got != tt.want {
			t.Errorf("JSONType(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestInvalidArgument(t *testing.T) {
	e := InvalidArgument("options[1].label", "non-empty string", "string")
	if e.Code != CodeInvalidArguments {
		t.Fatalf("code %q", e.Code)
	}
	if e.Details["path"] != "options[1].label" || e.Details["expected"] != "non-empty string" || e.Details["actualType"] != "string" {
		t.Fatalf("details %v", e.Details)
	}
	if want := "argument options[1].label must be non-empty string, got string."; e.Message != want {
		t.Fatalf("message %q, want %q", e.Message, want)
	}
	if got := InvalidArgument("q", "string", "missing").Message; got != "argument q is required (expected string)." {
		t.Fatalf("missing message %q", got)
	}
	if got := InvalidArgument("", "object", "array").Message; got != "the arguments must be object, got array." {
		t.Fatalf("root message %q", got)
	}
}
