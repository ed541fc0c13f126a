package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

type item struct {
	Name  string   `json:"name"`
	ID    int64    `json:"id"`
	Tags  []string `json:"tags"`
	Ratio float64  `json:"ratio"`
}

func runJQ(t *testing.T, expr string, v any) string {
	t.Helper()
	jq, err := NewJQ(expr)
	if err != nil {
		t.Fatalf("NewJQ(%q): %v", expr, err)
	}
	var buf bytes.Buffer
	if err := jq.Apply(&buf, v); err != nil {
		t.Fatalf("Apply(%q): %v", expr, err)
	}
	return buf.String()
}

func TestJQOutputs(t *testing.T) {
	items := []item{
		{Name: "a b", ID: 9007199254740993, Tags: []string{"x"}, Ratio: 0.5},
		{Name: "c", ID: 2, Tags: nil, Ratio: 1},
	}
	for _, tc := range []struct{ expr, want string }{
		// Strings come out raw, one per line, as with gh --jq.
		{".[].name", "a b\nc\n"},
		// Other values are compact JSON.
		{".[0]", `{"id":9007199254740993,"name":"a b","ratio":0.5,"tags":["x"]}` + "\n"},
		{".[0].tags", `["x"]` + "\n"},
		{"length", "2\n"},
		{".[1].tags", "null\n"},
		{"[.[].id]", "[9007199254740993,2]\n"},
		{`"\(.[0].name)!"`, "a b!\n"},
		{"empty", ""},
		{".[0].name | halt", ""},
		{"map(.ratio) | add", "1.5\n"},
	} {
		if got := runJQ(t, tc.expr, items); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.expr, got, tc.want)
		}
	}
}

func TestJQPlainValues(t *testing.T) {
	if got := runJQ(t, ".a", map[string]any{"a": "line1\nline2"}); got != "line1\nline2\n" {
		t.Errorf("got %q", got)
	}
	if got := runJQ(t, ".", "s"); got != "s\n" {
		t.Errorf("got %q", got)
	}
	if got := runJQ(t, ".", nil); got != "null\n" {
		t.Errorf("got %q", got)
	}
}

func TestJQHasNoEnvironment(t *testing.T) {
	t.Setenv("TAVO_JQ_SECRET", "sk-should-not-show")
	got := runJQ(t, "$ENV | length", nil)
	if got != "0\n" {
		t.Errorf("$ENV visible to the filter: %q", got)
	}
	got = runJQ(t, "env.TAVO_JQ_SECRET", nil)
	if got != "null\n" {
		t.Errorf("env visible to the filter: %q", got)
	}
}

func TestJQCompileErrors(t *testing.T) {
	for _, expr := range []string{".[", "nosuchfunc", ".a |", `"unterminated`} {
		_, err := NewJQ(expr)
		if err == nil {
			t.Errorf("NewJQ(%q): no error", expr)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, "invalid jq expression") || !strings.Contains(msg, expr) {
			t.Errorf("NewJQ(%q) error not one clear line: %q", expr, msg)
		}
	}
}

func TestJQRuntimeError(t *testing.T) {
	jq, err := NewJQ(".[0].name, (.[0].name | tonumber)")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	err = jq.Apply(&buf, []item{{Name: "abc"}})
	var je *JQError
	if !errors.As(err, &je) || !strings.HasPrefix(err.Error(), "--jq ") {
		t.Fatalf("err = %v, want a *JQError", err)
	}
	// Output produced before the error is kept.
	if buf.String() != "abc\n" {
		t.Fatalf("output before the error: %q", buf.String())
	}
	if _, err := NewJQ("."); err != nil {
		t.Fatal(err)
	}
	jq, _ = NewJQ(".")
	if err := jq.Apply(&buf, make(chan int)); err == nil {
		t.Fatal("no error for a value that is not JSON")
	}
}
