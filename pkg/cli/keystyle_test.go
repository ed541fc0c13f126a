package cli

import (
	"reflect"
	"strings"
	"testing"
)

func TestIsSnakeCase(t *testing.T) {
	for key, want := range map[string]bool{
		"id": true, "session_id": true, "p95_ms": true, "v2": true,
		"": false, "mimeType": false, "_x": false, "x_": false, "a__b": false,
		"Name": false, "http-status": false, "9lives": false, "a.b": false,
	} {
		if got := IsSnakeCase(key); got != want {
			t.Errorf("IsSnakeCase(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestKeyStyleProblems(t *testing.T) {
	doc := `{"files":[{"name":"a","mimeType":"x"},{"modifiedAt":1}],
		"next_cursor":"c","value":{"camelOK":1},"deep":{"innerBad":{"alsoBad":2}}}`
	data := func(p string) bool { return p == ".value" }
	got, err := KeyStyleProblems([]byte(doc), data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".deep.innerBad", ".deep.innerBad.alsoBad", ".files[].mimeType", ".files[].modifiedAt"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, err := KeyStyleProblems([]byte("{"), nil); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("bad JSON: %v", err)
	}
}

func TestWritePage(t *testing.T) {
	for _, tc := range []struct {
		format Format
		want   string
	}{
		{FormatJSON, `{"next_cursor":"c2","rows":[{"a":1},{"a":2}]}` + "\n"},
		{FormatNDJSON, `{"a":1}` + "\n" + `{"a":2}` + "\n"},
	} {
		ios, _, out, _ := Test()
		o := &Output{IO: ios, Format: tc.format}
		if err := WritePage(o, "rows", []map[string]int{{"a": 1}, {"a": 2}}, "c2"); err != nil {
			t.Fatal(err)
		}
		if out.String() != tc.want {
			t.Errorf("%s: got %q, want %q", tc.format, out.String(), tc.want)
		}
	}
}
