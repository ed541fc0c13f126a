package resources

import (
	"strings"
	"testing"
)

func TestParseFileURL(t *testing.T) {
	u, err := ParseFileURL("workspace://dir/a%3Ab.txt:3+2?view=meta&offset=10")
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme != "workspace" || u.Path != "dir/a:b.txt" || u.Sel != (Selector{3, 4}) || !u.Meta || u.Offset != 10 {
		t.Fatalf("%+v", u)
	}
	if got := u.WithOffset(99); got != "workspace://dir/a%3Ab.txt:3-4?view=meta&offset=99" {
		t.Fatalf("continue URL %q", got)
	}
	u, _ = ParseFileURL("artifact://art_1:7")
	if got := u.WithOffset(5); got != "artifact://art_1:7?offset=5" {
		t.Fatalf("continue URL %q", got)
	}
	for _, bad := range []string{"nothing", "artifact://x:", "artifact://x:0", "artifact://x:5-3", "artifact://x:a",
		"artifact://x:1+0", "a://b:c:1", "artifact://x?view=full", "artifact://x?offset=-1", "artifact://x?bogus=1",
		"artifact://%zz", "artifact://x:99999999999", "artifact://" + strings.Repeat("a", 3000)} {
		_, err := ParseFileURL(bad)
		e, ok := err.(*Error)
		if !ok || e.Code != CodeInvalidArguments || e.Details["path"] != "url" {
			t.Errorf("%q: %v, want invalid_arguments with details", short(bad), err)
		}
	}
}

func FuzzSelector(f *testing.F) {
	for _, s := range []string{"1", "3-9", "4+2", "", "0", "9-3", "1+", "-", "+5", "999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code != CodeInvalidArguments || e.Details == nil {
				t.Fatalf("%q: %v is not invalid_arguments with details", s, err)
			}
			return
		}
		if sel.Start < 1 || sel.End < sel.Start || sel.End > maxLine {
			t.Fatalf("%q gave %+v", s, sel)
		}
		// The canonical form parses back to the same range.
		again, err := ParseSelector(sel.String())
		if err != nil || again != sel {
			t.Fatalf("%q → %q → %+v %v", s, sel.String(), again, err)
		}
		// A URL with the selector round-trips through its continue URL.
		u, err := ParseFileURL("local://n%3Ax:" + s + "?view=meta")
		if err != nil {
			t.Fatalf("URL with %q: %v", s, err)
		}
		back, err := ParseFileURL(u.WithOffset(7))
		if err != nil || back.Sel != sel || !back.Meta || back.Offset != 7 || back.Path != "n:x" {
			t.Fatalf("continue URL of %q: %+v %v", s, back, err)
		}
	})
}
