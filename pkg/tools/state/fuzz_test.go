package state

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
)

// validName is CheckVarName's rule written as a regular expression, to
// check the hand-written scanner against.
var validName = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

func FuzzCheckVarName(f *testing.F) {
	for _, s := range []string{"a", "user.prefs.theme", "a..b", ".a", "a.", "a b", "../x", "é", "a\x00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		want := validName.MatchString(name) && len(name) <= MaxVarNameLen
		if got := CheckVarName(name) == nil; got != want {
			t.Fatalf("CheckVarName(%q) accepted=%v, want %v", name, got, want)
		}
	})
}

func FuzzPrepareValue(f *testing.F) {
	for _, s := range []string{`1`, ` {"a" : [1, "x"]} `, `"data:image/png;base64,AAAA"`, `nul`, `[1,]`, `"\ud800"`, ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		compact, _, err := PrepareValue(raw)
		if err != nil {
			if json.Valid(raw) && len(raw) <= MaxValueBytes {
				t.Fatalf("valid JSON %q refused: %v", raw, err)
			}
			return
		}
		if !json.Valid(compact) || len(compact) > MaxValueBytes {
			t.Fatalf("PrepareValue(%q) = %q", raw, compact)
		}
		var again bytes.Buffer
		if json.Compact(&again, compact) != nil || !bytes.Equal(again.Bytes(), compact) {
			t.Fatalf("not compact: %q", compact)
		}
	})
}
