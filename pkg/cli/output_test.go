package cli

import (
	"strings"
	"testing"
)

type row struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

func TestOutputJSONAndNDJSON(t *testing.T) {
	rows := []row{{"a", 1}, {"b", 2}}

	ios, _, out, _ := Test()
	o, err := NewOutput(ios, "json", "", FormatText)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Structured() {
		t.Fatal("json not structured")
	}
	if err := WriteList(o, rows); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `[{"name":"a","n":1},{"name":"b","n":2}]`+"\n" {
		t.Fatalf("json in a pipe: %q", got)
	}

	out.Reset()
	ios.SetStdoutTTY(true)
	if err := WriteList[row](o, nil); err != nil || out.String() != "[]\n" {
		t.Fatalf("empty list: %q, %v", out, err)
	}
	out.Reset()
	o.WriteValue(rows[0])
	if got := out.String(); got != "{\n  \"name\": \"a\",\n  \"n\": 1\n}\n" {
		t.Fatalf("json on a terminal is not indented: %q", got)
	}

	out.Reset()
	o, _ = NewOutput(ios, "ndjson", "", FormatText)
	WriteList(o, rows)
	if got := out.String(); got != "{\"name\":\"a\",\"n\":1}\n{\"name\":\"b\",\"n\":2}\n" {
		t.Fatalf("ndjson: %q", got)
	}
}

func TestOutputJQ(t *testing.T) {
	rows := []row{{"a", 1}, {"b", 2}}
	ios, _, out, _ := Test()
	ios.SetStdoutTTY(true)
	// --jq alone implies JSON even on a terminal.
	o, err := NewOutput(ios, "", ".[].name", FormatText)
	if err != nil {
		t.Fatal(err)
	}
	if o.Format != FormatJSON {
		t.Fatalf("format %q", o.Format)
	}
	WriteList(o, rows)
	if out.String() != "a\nb\n" {
		t.Fatalf("jq over json: %q", out)
	}

	out.Reset()
	o, _ = NewOutput(ios, "ndjson", ".n", FormatText)
	WriteList(o, rows)
	if out.String() != "1\n2\n" {
		t.Fatalf("jq per ndjson item: %q", out)
	}

	if _, err := NewOutput(ios, "text", ".", FormatText); err == nil || !strings.Contains(err.Error(), "--jq") {
		t.Fatalf("--jq with -o text: %v", err)
	}
	if _, err := NewOutput(ios, "", ".[", FormatText); err == nil {
		t.Fatal("bad --jq accepted")
	}
	if _, err := NewOutput(ios, "xml", "", FormatText); err == nil {
		t.Fatal("bad -o accepted")
	}
}

func TestOutputTextDefault(t *testing.T) {
	ios, _, _, _ := Test()
	o, err := NewOutput(ios, "", "", FormatText)
	if err != nil || o.Format != FormatText || o.Structured() || o.JQ != nil {
		t.Fatalf("%+v, %v", o, err)
	}
}
