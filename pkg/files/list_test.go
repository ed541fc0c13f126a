package files

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func names(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}

func TestListSortedCaseSensitive(t *testing.T) {
	s, _ := newStore(t)
	for _, n := range []string{"b.txt", "a.txt", "B.txt", "_x", "A.txt", "ä.txt", ".dot"} {
		mustSave(t, s, Global(), n, n)
	}
	page, err := s.List(context.Background(), Global(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".dot", "A.txt", "B.txt", "_x", "a.txt", "b.txt", "ä.txt"}
	if got := names(page.Files); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("order = %v, want %v", got, want)
	}
	if page.NextCursor != "" {
		t.Fatalf("a complete listing has a cursor: %q", page.NextCursor)
	}
	e := page.Files[1]
	if e.Path != "global/A.txt" || e.Size != 5 || e.MIMEType != "text/plain" || e.ModifiedAt.Location() != time.UTC {
		t.Fatalf("entry = %+v", e)
	}
}

func TestListEmptyScope(t *testing.T) {
	s, dir := newStore(t)
	page, err := s.List(context.Background(), Chat("ses_new"), ListOptions{})
	if err != nil || page.Files == nil || len(page.Files) != 0 || page.NextCursor != "" {
		t.Fatalf("empty listing = %+v %v", page, err)
	}
	b, _ := json.Marshal(page)
	if string(b) != `{"files":[]}` {
		t.Fatalf("empty listing JSON = %s", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("listing created %v", ents)
	}
}

func TestListLimits(t *testing.T) {
	s, dir := newStore(t)
	gdir := filepath.Join(dir, "files", "global")
	os.MkdirAll(gdir, 0o700)
	for i := 0; i < 250; i++ {
		os.WriteFile(filepath.Join(gdir, fmt.Sprintf("f%03d.txt", i)), nil, 0o600)
	}
	ctx := context.Background()
	for limit, want := range map[int]int{0: 100, 1: 1, 200: 200} {
		page, err := s.List(ctx, Global(), ListOptions{Limit: limit})
		if err != nil || len(page.Files) != want || page.NextCursor == "" {
			t.Errorf("limit %d: %d files, cursor %q, %v; want %d", limit, len(page.Files), page.NextCursor, err, want)
		}
	}
	for _, limit := range []int{-1, 201, 1000} {
		_, err := s.List(ctx, Global(), ListOptions{Limit: limit})
		var fe *Error
		if !errors.As(err, &fe) || fe.Field != "limit" || fe.Kind != KindInvalid {
			t.Errorf("limit %d: %v, want invalid limit", limit, err)
		}
	}
}

func TestListPagesCoverEverythingOnce(t *testing.T) {
	s, dir := newStore(t)
	gdir := filepath.Join(dir, "files", "global")
	os.MkdirAll(gdir, 0o700)
	for i := 0; i < 45; i++ {
		os.WriteFile(filepath.Join(gdir, fmt.Sprintf("f%02d", i)), []byte("x"), 0o600)
	}
	var all []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		page, err := s.List(context.Background(), Global(), ListOptions{Limit: 10, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, names(page.Files)...)
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	if len(all) != 45 || all[0] != "f00" || all[44] != "f44" {
		t.Fatalf("pages gave %d names: %v", len(all), all)
	}
}

func TestListReadsLiveStorage(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	for _, n := range []string{"a", "b", "c", "d"} {
		mustSave(t, s, Global(), n, n)
	}
	p1, err := s.List(ctx, Global(), ListOptions{Limit: 2})
	if err != nil || strings.Join(names(p1.Files), ",") != "a,b" {
		t.Fatalf("page 1 = %v %v", names(p1.Files), err)
	}
	// Between pages: one file appears after the cursor, one before it,
	// one disappears.
	mustSave(t, s, Global(), "bb", "new")
	mustSave(t, s, Global(), "0", "before")
	s.Delete(ctx, Global(), "c")
	p2, err := s.List(ctx, Global(), ListOptions{Limit: 2, Cursor: p1.NextCursor})
	if err != nil || strings.Join(names(p2.Files), ",") != "bb,d" || p2.NextCursor != "" {
		t.Fatalf("page 2 = %v cursor %q %v, want bb,d and no cursor", names(p2.Files), p2.NextCursor, err)
	}
}

func TestListSkipsWhatIsNotAFile(t *testing.T) {
	s, dir := newStore(t)
	mustSave(t, s, Global(), "ok.txt", "x")
	gdir := filepath.Join(dir, "files", "global")
	os.Mkdir(filepath.Join(gdir, "sub"), 0o700)
	// A name the store would refuse, put there by hand.
	os.WriteFile(filepath.Join(gdir, "a:b"), nil, 0o600)
	page, err := s.List(context.Background(), Global(), ListOptions{})
	if err != nil || strings.Join(names(page.Files), ",") != "ok.txt" {
		t.Fatalf("list = %v %v", names(page.Files), err)
	}
}

// cursorFor returns the cursor after the first of three files in loc.
func cursorFor(t *testing.T, s *Store, loc Location) string {
	t.Helper()
	for _, n := range []string{"a", "b", "c"} {
		mustSave(t, s, loc, n, n)
	}
	page, err := s.List(context.Background(), loc, ListOptions{Limit: 1})
	if err != nil || page.NextCursor == "" {
		t.Fatalf("no cursor: %+v %v", page, err)
	}
	return page.NextCursor
}

func TestForeignCursorsAreRefused(t *testing.T) {
	s, dir := newStore(t)
	ctx := context.Background()
	global := cursorFor(t, s, Global())
	chatA := cursorFor(t, s, Chat("ses_a"))
	expectInvalid := func(what string, loc Location, cursor, says string) {
		t.Helper()
		_, err := s.List(ctx, loc, ListOptions{Cursor: cursor})
		var fe *Error
		if !errors.As(err, &fe) || fe.Kind != KindInvalid || fe.Field != "cursor" {
			t.Errorf("%s: %v, want an invalid cursor", what, err)
			return
		}
		if !strings.Contains(fe.Msg, says) {
			t.Errorf("%s: message %q does not say %q", what, fe.Msg, says)
		}
	}
	expectInvalid("global cursor in chat", Chat("ses_a"), global, "global scope")
	expectInvalid("chat cursor in global", Global(), chatA, "chat scope")
	expectInvalid("another session's cursor", Chat("ses_b"), chatA, "another session")
	expectInvalid("garbage", Global(), "not-a-cursor", "not valid")
	expectInvalid("not base64", Global(), "!!!", "not valid")
	expectInvalid("huge", Global(), strings.Repeat("A", 5000), "not valid")

	// Re-signing is impossible without the key: an edited payload fails.
	raw, _ := base64.RawURLEncoding.DecodeString(global)
	forged := append([]byte{}, raw[:macBytes]...)
	forged = append(forged, []byte(`{"v":1,"s":"chat","c":"ses_b","a":""}`)...)
	expectInvalid("forged payload", Chat("ses_b"), base64.RawURLEncoding.EncodeToString(forged), "not valid")
	raw[len(raw)-3] ^= 1
	expectInvalid("flipped bit", Global(), base64.RawURLEncoding.EncodeToString(raw), "not valid")

	// A cursor of another data directory is refused too.
	other := Open(t.TempDir())
	expectInvalidOther := func() {
		_, err := other.List(ctx, Global(), ListOptions{Cursor: global})
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("cursor of another data dir: %v", err)
		}
	}
	expectInvalidOther()

	// The same data directory in another process (a new Store) accepts it,
	// and the key file is private.
	again := Open(dir)
	page, err := again.List(ctx, Global(), ListOptions{Cursor: global})
	if err != nil || strings.Join(names(page.Files), ",") != "b,c" {
		t.Fatalf("cursor in a new store: %v %v", names(page.Files), err)
	}
	st, err := os.Stat(filepath.Join(dir, "files", cursorKeyFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("cursor key: %v %v", st.Mode(), err)
	}
}

func FuzzReadCursor(f *testing.F) {
	s := Open(f.TempDir())
	good, _ := s.makeCursor(Global(), "a")
	f.Add(good)
	f.Add("")
	f.Add("AAAA")
	f.Fuzz(func(t *testing.T, c string) {
		after, err := s.readCursor(Global(), c)
		if err == nil && c != good {
			// Another valid encoding of the same bytes is the only way in.
			raw, _ := base64.RawURLEncoding.DecodeString(c)
			want, _ := base64.RawURLEncoding.DecodeString(good)
			if string(raw) != string(want) {
				t.Fatalf("accepted a cursor it never made: %q (after %q)", c, after)
			}
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("error of the wrong kind: %v", err)
		}
	})
}
