package cli

import (
	"bytes"
	"testing"
)

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	v := map[string]any{"url": "https://x.test/?a=1&b=<2>", "n": 1}
	if err := WriteJSON(&buf, v, false); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != `{"n":1,"url":"https://x.test/?a=1&b=<2>"}`+"\n" {
		t.Fatalf("compact: %q", got)
	}
	buf.Reset()
	WriteJSON(&buf, []int{1}, true)
	if got := buf.String(); got != "[\n  1\n]\n" {
		t.Fatalf("pretty: %q", got)
	}
	if err := WriteJSON(&buf, func() {}, false); err == nil {
		t.Fatal("no error for a func")
	}
}
