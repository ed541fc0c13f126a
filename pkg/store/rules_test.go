package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// notes returns n distinct notes.
func notes(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("note %d", i)
	}
	return out
}

func wantItemError(t *testing.T, err error, index, limit int, msg string) {
	t.Helper()
	var ie *ItemError
	if !errors.As(err, &ie) || ie.Index != index || ie.Limit != limit || !errors.Is(err, ErrInvalid) ||
		Refusal(err) != error(ie) || !strings.HasPrefix(ie.Error(), msg) {
		t.Fatalf("got %v, want an *ItemError at %d (limit %d) saying %q", err, index, limit, msg)
	}
}

func wantLimitError(t *testing.T, err error, limit, actual int, unit, msg string) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != limit || le.Actual != actual || le.Unit != unit ||
		!errors.Is(err, ErrInvalid) || Refusal(err) != error(le) || !strings.HasPrefix(le.Error(), msg) {
		t.Fatalf("got %v, want a *LimitError %d > %d %s saying %q", err, actual, limit, unit, msg)
	}
}

func TestMemoryItemRules(t *testing.T) {
	s, _ := openTest(t)
	for _, write := range []struct {
		name string
		fn   func([]string) error
	}{
		{"append", func(items []string) error { _, err := s.AppendMemory(ctxb(), items); return err }},
		{"set", func(items []string) error { _, err := s.SetMemory(ctxb(), MemoryUpdate{Items: &items}); return err }},
	} {
		t.Run(write.name, func(t *testing.T) {
			wantItemError(t, write.fn([]string{"ok", "  \n\t"}), 1, 0, "memory item 2 is empty; every note needs some text")
			wantItemError(t, write.fn([]string{"bad \xff"}), 0, 0, "memory item 1 is not valid UTF-8 text")
			wantItemError(t, write.fn([]string{"a", "b", strings.Repeat("x", MaxMemoryItemChars+1)}), 2, MaxMemoryItemChars,
				"memory item 3 is 2001 characters long; a note holds at most 2000")
			// Characters, not bytes, count for one note.
			if err := write.fn([]string{strings.Repeat("é", MaxMemoryItemChars)}); err != nil {
				t.Fatal(err)
			}
		})
	}
	if m, _ := s.Memory(ctxb()); len(m.Items) != 1 {
		t.Fatalf("refused writes stored something: %d notes", len(m.Items))
	}
}

func TestMemoryLimits(t *testing.T) {
	s, _ := openTest(t)
	items := notes(MaxMemoryItems)
	if _, err := s.SetMemory(ctxb(), MemoryUpdate{Items: &items}); err != nil {
		t.Fatal(err)
	}
	_, err := s.AppendMemory(ctxb(), []string{"one too many"})
	wantLimitError(t, err, MaxMemoryItems, MaxMemoryItems+1, "items", "memory would hold 201 notes; it holds at most 200")
	more := notes(MaxMemoryItems + 1)
	_, err = s.SetMemory(ctxb(), MemoryUpdate{Items: &more})
	wantLimitError(t, err, MaxMemoryItems, MaxMemoryItems+1, "items", "memory would hold 201 notes")

	// The byte limit: 17 notes of 2000 characters is over 32 KiB, 16 fit.
	big := make([]string, 17)
	for i := range big {
		big[i] = strings.Repeat("y", MaxMemoryItemChars)
	}
	_, err = s.SetMemory(ctxb(), MemoryUpdate{Items: &big})
	wantLimitError(t, err, MaxMemoryBytes, 17*MaxMemoryItemChars, "bytes", "memory would hold 34000 bytes of text; it holds at most 32768 (32 KiB)")
	big = big[:16]
	if _, err := s.SetMemory(ctxb(), MemoryUpdate{Items: &big}); err != nil {
		t.Fatal(err)
	}
	_, err = s.AppendMemory(ctxb(), []string{strings.Repeat("z", 800)})
	wantLimitError(t, err, MaxMemoryBytes, 16*MaxMemoryItemChars+800, "bytes", "memory would hold 32800 bytes")
	if m, _ := s.Memory(ctxb()); len(m.Items) != 16 {
		t.Fatalf("a refused append was stored: %d notes", len(m.Items))
	}
}

// TestMemoryOverLimitStillToggles: memory already past a limit (a race of
// an older tavo could leave it so) can still be switched on and off and
// replaced, but not appended to.
func TestMemoryOverLimitStillToggles(t *testing.T) {
	s, _ := openTest(t)
	over := Memory{Items: notes(MaxMemoryItems + 5)}
	err := s.write(ctxb(), "test", func(tx *sql.Tx) error {
		for _, it := range over.Items {
			if _, err := s.insertMemoryItem(ctxb(), tx, it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	on := true
	if m, err := s.SetMemory(ctxb(), MemoryUpdate{Enabled: &on}); err != nil || !m.Enabled || len(m.Items) != MaxMemoryItems+5 {
		t.Fatalf("toggle: %d notes, %v", len(m.Items), err)
	}
	_, err = s.AppendMemory(ctxb(), []string{"x"})
	wantLimitError(t, err, MaxMemoryItems, MaxMemoryItems+6, "items", "memory would hold 206 notes")
	few := []string{"a"}
	if m, err := s.SetMemory(ctxb(), MemoryUpdate{Items: &few}); err != nil || len(m.Items) != 1 {
		t.Fatalf("replace: %+v %v", m, err)
	}
}

// TestConcurrentAppendsHoldTheLimit: writers appending at once, through one
// store and through a second one on the same data directory (as another
// process would), never take memory past its limit together; exactly the
// appends that did not fit get a *LimitError, and toggles in between lose
// nothing.
func TestConcurrentAppendsHoldTheLimit(t *testing.T) {
	dir := t.TempDir()
	a, _ := openAt(t, dir)
	b, _ := openAt(t, dir)
	start := notes(MaxMemoryItems - 10)
	if _, err := a.SetMemory(ctxb(), MemoryUpdate{Items: &start}); err != nil {
		t.Fatal(err)
	}
	const writers = 40
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for i := range writers {
		st := []*Store{a, b}[i%2]
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, err := st.AppendMemory(ctxb(), []string{fmt.Sprintf("late note %d", i)})
			var le *LimitError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.As(err, &le) && le.Unit == "items":
				refused++
			default:
				t.Errorf("append %d: %v", i, err)
			}
		}()
		go func() {
			defer wg.Done()
			on := i%2 == 0
			if _, err := st.SetMemory(ctxb(), MemoryUpdate{Enabled: &on}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	m, err := a.Memory(ctxb())
	if err != nil || len(m.Items) != MaxMemoryItems || ok != 10 || refused != writers-10 {
		t.Fatalf("%d notes stored (limit %d), %d appends succeeded, %d refused, %v", len(m.Items), MaxMemoryItems, ok, refused, err)
	}
	if !strings.HasPrefix(m.Items[MaxMemoryItems-10], "late note ") {
		t.Fatalf("the appends did not land after the existing notes: %q", m.Items[MaxMemoryItems-10])
	}
}

func TestVarNameRule(t *testing.T) {
	for _, ok := range []string{"a", "user.prefs.theme", "A-1_b.c2", "用户.主题", "é", "Ωμέγα.٣", "x." + strings.Repeat("y", MaxVarNameLen-2)} {
		if err := CheckVarName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for bad, msg := range map[string]string{
		"":                                   "a variable name cannot be empty",
		".a":                                 `invalid variable name ".a": segment 1 is empty`,
		"a.":                                 `invalid variable name "a.": segment 2 is empty`,
		"a..b":                               `invalid variable name "a..b": segment 2 is empty (no leading, trailing or double dots)`,
		"a b":                                `invalid variable name "a b": ' ' is not allowed (use letters, digits, '_' or '-' in dot-separated segments)`,
		"a/b":                                `'/' is not allowed`,
		"e\u0301":                            `'́' is not allowed`,
		"用户 主题":                              `' ' is not allowed`,
		"a\x00":                              `'\x00' is not allowed`,
		"$x":                                 `'$' is not allowed`,
		strings.Repeat("y", MaxVarNameLen+1): "variable name \"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\"… is 257 bytes long; the most is 256",
		"\xff":                               `variable name "\xff" is not valid UTF-8`,
	} {
		err := CheckVarName(bad)
		if !errors.Is(err, ErrInvalidName) || !errors.Is(err, ErrInvalid) || Refusal(err) != err {
			t.Errorf("%q: %v", bad, err)
		} else if !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %q, want %q", bad, err, msg)
		}
	}
	// The store applies the rule to every access by name.
	s, _ := openTest(t)
	wantErr(t, s.SetVar(ctxb(), ScopeGlobal, "", "a..b", json.RawMessage(`1`)), ErrInvalidName)
	_, err := s.GetVar(ctxb(), ScopeGlobal, "", "../x")
	wantErr(t, err, ErrInvalidName)
	wantErr(t, s.DeleteVar(ctxb(), ScopeGlobal, "", "x."), ErrInvalidName)
	if r := Refusal(s.SetVar(ctxb(), ScopeGlobal, "", "a b", json.RawMessage(`1`))); r == nil || strings.HasPrefix(r.Error(), "store:") {
		t.Fatalf("Refusal = %v, want the rule's own message", r)
	}
}

func TestVarValueRule(t *testing.T) {
	s, _ := openTest(t)
	must(t, s.SetVar(ctxb(), ScopeGlobal, "", "v", json.RawMessage(" { \"a\" : [ 1 , 2.50 ] } ")))
	if v, _ := s.GetVar(ctxb(), ScopeGlobal, "", "v"); string(v) != `{"a":[1,2.50]}` {
		t.Fatalf("stored %s, want it compact with numbers as written", v)
	}
	for _, bad := range []string{"", "{", "1 2", "nope"} {
		err := s.SetVar(ctxb(), ScopeGlobal, "", "v", json.RawMessage(bad))
		if !errors.Is(err, ErrInvalid) || Refusal(err) == nil || Refusal(err).Error() != "the value is not valid JSON" {
			t.Errorf("%q: %v", bad, err)
		}
	}
	huge := json.RawMessage(`"` + strings.Repeat("x", MaxValueBytes) + `"`)
	wantLimitError(t, s.SetVar(ctxb(), ScopeGlobal, "", "huge", huge), MaxValueBytes, MaxValueBytes+2, "bytes",
		"the value is 1048578 bytes as JSON; a variable holds at most 1048576 (1 MiB): save large content as a file")
	_, err := s.GetVar(ctxb(), ScopeGlobal, "", "huge")
	wantErr(t, err, ErrNotFound)
	// The limit counts the compact form: padding does not count.
	padded := json.RawMessage(`"` + strings.Repeat("x", MaxValueBytes-2) + `"` + strings.Repeat(" ", 100))
	must(t, s.SetVar(ctxb(), ScopeGlobal, "", "padded", padded))
}

func TestPrepareValue(t *testing.T) {
	c, w, err := PrepareValue([]byte(" { \"a\" : [ 1 , 2 ] } "))
	if err != nil || string(c) != `{"a":[1,2]}` || w != "" {
		t.Fatalf("compact = %s %q %v", c, w, err)
	}
	for _, bad := range []string{"", "{", "1 2", "nope"} {
		if _, _, err := PrepareValue([]byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	_, _, err = PrepareValue([]byte(`"` + strings.Repeat("x", MaxValueBytes) + `"`))
	wantLimitError(t, err, MaxValueBytes, MaxValueBytes+2, "bytes", "the value is 1048578 bytes as JSON")
	for value, want := range map[string]string{
		`"` + strings.Repeat("a", WarnBlobBytes+10) + `"`:                            "base64 data longer than 8 KiB",
		`{"u":["data:image/png;base64,` + strings.Repeat("A", WarnBlobBytes) + `"]}`: "a data URL longer than 8 KiB",
		`"` + strings.Repeat("the quick brown fox. ", 600) + `"`:                     "",
		`"` + strings.Repeat("word ", WarnValueBytes/5+10) + `"`:                     "it is 65587 bytes; reading it back returns at most 64 KiB",
		`"` + strings.Repeat("a", WarnBlobBytes-10) + `"`:                            "",
	} {
		_, w, err := PrepareValue([]byte(value))
		if err != nil || (want == "") != (w == "") || !strings.Contains(w, want) {
			t.Errorf("%.40s…: warning %q, want %q (%v)", value, w, want, err)
		}
	}
	if !isDataURL("data:,hello") || !isDataURL("DATA:text/plain;base64,aGk=") || isDataURL("data: not a url, really") || isDataURL("database") {
		t.Fatal("isDataURL")
	}
	if !looksBase64("aGVsbG8gd29ybGQ=\n") || looksBase64("hello world") {
		t.Fatal("looksBase64")
	}
}

func TestListVarsPrefixAndOrder(t *testing.T) {
	s, _ := openTest(t)
	for _, n := range []string{"user.b", "zeta", "User.a", "user.a", "user-x", "user"} {
		must(t, s.SetVar(ctxb(), ScopeGlobal, "", n, json.RawMessage(`1`)))
	}
	names := func(prefix string) string {
		vars, err := s.ListVars(ctxb(), ScopeGlobal, "", prefix)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, v := range vars {
			out = append(out, v.Name)
		}
		return strings.Join(out, " ")
	}
	if got := names(""); got != "User.a user user-x user.a user.b zeta" {
		t.Fatalf("all: %s", got)
	}
	if got := names("user."); got != "user.a user.b" {
		t.Fatalf("prefix: %s", got)
	}
	if got := names("nothing"); got != "" {
		t.Fatalf("no match: %s", got)
	}
}

func TestRefusalOfOtherErrors(t *testing.T) {
	for _, err := range []error{nil, ErrNotFound, ErrInvalid, context.Canceled, fmt.Errorf("store: x: %w", ErrInvalid)} {
		if r := Refusal(err); r != nil {
			t.Errorf("Refusal(%v) = %v", err, r)
		}
	}
}

// validName is CheckVarName's rule written as a regular expression, to
// check the hand-written scanner against.
var validName = regexp.MustCompile(`^[\p{L}\p{Nd}_-]+(\.[\p{L}\p{Nd}_-]+)*$`)

func FuzzCheckVarName(f *testing.F) {
	for _, s := range []string{"a", "user.prefs.theme", "a..b", ".a", "a.", "a b", "../x", "é", "用户.主题", "e\u0301", "a\x00", ""} {
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
