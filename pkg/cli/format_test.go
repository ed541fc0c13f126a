package cli

import (
	"strings"
	"testing"
)

func TestResolveFormat(t *testing.T) {
	for _, tc := range []struct {
		flag        string
		tty         bool
		pipeDefault Format
		want        Format
	}{
		{"", true, FormatNDJSON, FormatText},
		{"", false, FormatNDJSON, FormatNDJSON},
		{"", false, FormatText, FormatText},
		{"", false, "", FormatText},
		{"json", true, FormatText, FormatJSON},
		{"ndjson", false, FormatText, FormatNDJSON},
		{"text", false, FormatNDJSON, FormatText},
	} {
		ios, _, _, _ := Test()
		ios.SetStdoutTTY(tc.tty)
		got, err := ResolveFormat(tc.flag, ios, tc.pipeDefault)
		if err != nil || got != tc.want {
			t.Errorf("ResolveFormat(%q, tty=%v, %q) = %q, %v; want %q", tc.flag, tc.tty, tc.pipeDefault, got, err, tc.want)
		}
	}
}

func TestResolveFormatRejectsUnknown(t *testing.T) {
	ios, _, _, _ := Test()
	_, err := ResolveFormat("yaml", ios, FormatText)
	if err == nil {
		t.Fatal("no error for -o yaml")
	}
	for _, want := range []string{`"yaml"`, "text", "json", "ndjson"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %s", err, want)
		}
	}
}
