package files

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckNameAccepts(t *testing.T) {
	for _, name := range []string{
		"a.txt", ".hidden", "...", "x..y", "a b.txt", "日本語.md", "UPPER", "-dash", "a=b,c;d",
		strings.Repeat("n", MaxNameBytes),
	} {
		if err := CheckName(name); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", name, err)
		}
	}
}

func TestCheckNameRejects(t *testing.T) {
	for _, tc := range []struct{ name, why string }{
		{"", "empty"},
		{".", "folder reference"},
		{"..", "folder reference"},
		{"../x", "path separator"},
		{"a/b", "path separator"},
		{"/etc/passwd", "path separator"},
		{`a\b`, "path separator"},
		{`..\x`, "path separator"},
		{"a:b", "colon"},
		{"C:", "colon"},
		{"a\x00b", "NUL"},
		{"a\nb", "control"},
		{"tab\there", "control"},
		{"del\x7f", "control"},
		{"c1\u0085", "control"},
		{"bad\xffutf8", "UTF-8"},
		{strings.Repeat("n", MaxNameBytes+1), "bytes long"},
	} {
		err := CheckName(tc.name)
		var fe *Error
		if !errors.As(err, &fe) || fe.Kind != KindInvalid || fe.Field != "name" || !errors.Is(err, ErrInvalid) {
			t.Errorf("CheckName(%q) = %v, want an invalid name error", tc.name, err)
			continue
		}
		if !strings.Contains(fe.Msg, tc.why) {
			t.Errorf("CheckName(%q) message %q does not say %q", tc.name, fe.Msg, tc.why)
		}
		if strings.ContainsAny(fe.Msg, "\n\x00") {
			t.Errorf("CheckName(%q) message is not one clean line: %q", tc.name, fe.Msg)
		}
	}
}

func TestCheckSession(t *testing.T) {
	for _, ok := range []string{"ses_01JD5Q8Z9X2M4N6P8R0T2V4W6Y", "abc", "a-b_c", strings.Repeat("s", MaxSessionBytes)} {
		if err := CheckSession(ok); err != nil {
			t.Errorf("CheckSession(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "../x", "a/b", "a.b", "a b", "a:b", "é", strings.Repeat("s", MaxSessionBytes+1)} {
		err := CheckSession(bad)
		var fe *Error
		if !errors.As(err, &fe) || fe.Field != "session" || fe.Kind != KindInvalid {
			t.Errorf("CheckSession(%q) = %v, want an invalid session error", bad, err)
		}
	}
}

func TestNewLocation(t *testing.T) {
	if l, err := NewLocation(ScopeGlobal, "ignored"); err != nil || l != Global() {
		t.Fatalf("global: %v %v", l, err)
	}
	if l, err := NewLocation(ScopeChat, "ses_1"); err != nil || l != Chat("ses_1") {
		t.Fatalf("chat: %v %v", l, err)
	}
	if _, err := NewLocation(ScopeChat, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("chat without session: %v", err)
	}
	_, err := NewLocation("shared", "")
	var fe *Error
	if !errors.As(err, &fe) || fe.Field != "scope" {
		t.Fatalf("unknown scope: %v", err)
	}
	if s, err := ParseScope(""); err != nil || s != ScopeChat {
		t.Fatalf(`ParseScope("") = %v %v, want chat`, s, err)
	}
}

// FuzzCheckName: whatever CheckName accepts stays inside its folder.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"a.txt", "..", "../x", "a/b", `a\b`, "a:b", "\x00", "ü", ".x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if CheckName(name) != nil {
			return
		}
		dir := filepath.FromSlash("/data/files/global")
		joined := filepath.Join(dir, name)
		if filepath.Dir(joined) != dir || filepath.Base(joined) != name {
			t.Fatalf("accepted name %q escapes or changes: %s", name, joined)
		}
		if strings.ContainsAny(name, "/\\:\x00") {
			t.Fatalf("accepted name %q has a forbidden character", name)
		}
	})
}
