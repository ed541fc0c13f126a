package store

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAutoTitle(t *testing.T) {
	long := strings.Repeat("word ", 40) // 200 characters
	tests := []struct{ in, want string }{
		{"Summarise the logs", "Summarise the logs"},
		{"  \n\n  first\tline   here \nsecond line", "first line here"},
		{"", "Untitled"},
		{" \n\t\n ", "Untitled"},
		{"\x00\x01\x02", "Untitled"},
		{"a\x00b  c", "ab c"},
		{strings.Repeat("é", 120), strings.Repeat("é", 120)},
		{strings.Repeat("é", 121), strings.Repeat("é", 119) + "…"},
		{long, strings.TrimSpace(strings.Repeat("word ", 23)) + "…"},
		{"bad \xff utf8", "bad utf8"},
	}
	for _, tt := range tests {
		if got := AutoTitle(tt.in); got != tt.want {
			t.Errorf("AutoTitle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAutoTitleIsAlwaysAValidTitle(t *testing.T) {
	for _, in := range []string{
		strings.Repeat("x", 500),
		strings.Repeat("日本語 ", 100),
		strings.Repeat("a ", 300),
		"\u200b\u200b",
		strings.Repeat("🙂", 130),
	} {
		got := AutoTitle(in)
		if _, err := validTitle(got); err != nil {
			t.Errorf("AutoTitle(%.20q…) = %q is not a valid title: %v", in, got, err)
		}
		if n := utf8.RuneCountInString(got); n > MaxTitle {
			t.Errorf("AutoTitle gave %d characters", n)
		}
	}
}

func FuzzAutoTitle(f *testing.F) {
	f.Add("hello world")
	f.Add(strings.Repeat("long words ", 30))
	f.Add("\xff\xfe")
	f.Fuzz(func(t *testing.T, in string) {
		got := AutoTitle(in)
		if _, err := validTitle(got); err != nil {
			t.Fatalf("AutoTitle(%q) = %q: %v", in, got, err)
		}
	})
}

func TestTitleRules(t *testing.T) {
	s, _ := openTest(t)
	ok := map[string]string{
		"x":                                  "x",
		"  padded  ":                         "padded",
		strings.Repeat("字", 120):             strings.Repeat("字", 120),
		" " + strings.Repeat("a", 120) + " ": strings.Repeat("a", 120),
	}
	i := 0
	for in, want := range ok {
		i++
		ss, err := s.CreateSession(ctxb(), "ses_ok"+itoa(i), in)
		if err != nil || ss.Title != want {
			t.Fatalf("CreateSession title %q: %v %v", in, ss, err)
		}
		got, _ := s.GetSession(ctxb(), ss.ID)
		if got.Title != want {
			t.Fatalf("stored title %q, want %q", got.Title, want)
		}
	}
	mustSession(t, s, "ses_r")
	for _, bad := range []string{"", "   ", "\t\n", strings.Repeat("a", 121), "two\nlines", "tab\there", "bad \xff"} {
		if _, err := s.CreateSession(ctxb(), "ses_bad", bad); err == nil {
			t.Fatalf("CreateSession accepted title %q", bad)
		} else {
			wantErr(t, err, ErrInvalid)
		}
		wantErr(t, s.RenameSession(ctxb(), "ses_r", bad), ErrInvalid)
	}
	if _, err := s.GetSession(ctxb(), "ses_bad"); err == nil {
		t.Fatal("a session with a bad title was stored")
	}
}

func TestIDRules(t *testing.T) {
	s, _ := openTest(t)
	for _, bad := range []string{"", ".hidden", "a/b", "../x", "sp ace", "ü", strings.Repeat("a", 129)} {
		_, err := s.CreateSession(ctxb(), bad, "t")
		wantErr(t, err, ErrInvalid)
		_, err = s.BeginRun(ctxb(), bad, "ses_x", RunMeta{})
		wantErr(t, err, ErrInvalid)
	}
	if _, err := s.CreateSession(ctxb(), "ses_01JD.x-y_z", "t"); err != nil {
		t.Fatal(err)
	}
}
