package files

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// newStore returns a store in a fresh data directory and that directory.
func newStore(t testing.TB) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	return Open(dir), dir
}

func mustSave(t testing.TB, s *Store, loc Location, name, content string) Entry {
	t.Helper()
	e, err := s.Save(context.Background(), loc, name, []byte(content))
	if err != nil {
		t.Fatalf("save %s: %v", name, err)
	}
	return e
}

func TestSaveLoadRoundTrip(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	before := time.Now().Add(-time.Second)
	e := mustSave(t, s, Chat("ses_a"), "report.md", "# Report\n")
	if e.Path != "chat/report.md" || e.Name != "report.md" || e.Size != 9 || e.MIMEType != "text/markdown" {
		t.Fatalf("entry = %+v", e)
	}
	if e.ModifiedAt.Location() != time.UTC || e.ModifiedAt.Before(before) {
		t.Fatalf("modifiedAt = %v, want a recent UTC time", e.ModifiedAt)
	}
	data, le, err := s.Load(ctx, Chat("ses_a"), "report.md")
	if err != nil || string(data) != "# Report\n" || le != e {
		t.Fatalf("load = %q %+v %v, want the saved content and entry %+v", data, le, err, e)
	}
	g := mustSave(t, s, Global(), "notes.txt", "n")
	if g.Path != "global/notes.txt" {
		t.Fatalf("global path = %q", g.Path)
	}
}

func TestSaveOverwrites(t *testing.T) {
	s, _ := newStore(t)
	mustSave(t, s, Global(), "a.txt", "first version, longer")
	mustSave(t, s, Global(), "a.txt", "second")
	data, e, err := s.Load(context.Background(), Global(), "a.txt")
	if err != nil || string(data) != "second" || e.Size != 6 {
		t.Fatalf("after overwrite: %q %+v %v", data, e, err)
	}
}

func TestScopesAreSeparate(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	mustSave(t, s, Chat("ses_a"), "x.txt", "a")
	mustSave(t, s, Chat("ses_b"), "x.txt", "b")
	mustSave(t, s, Global(), "x.txt", "g")
	for loc, want := range map[Location]string{Chat("ses_a"): "a", Chat("ses_b"): "b", Global(): "g"} {
		data, _, err := s.Load(ctx, loc, "x.txt")
		if err != nil || string(data) != want {
			t.Errorf("%v: %q %v, want %q", loc, data, err, want)
		}
	}
	if ok, err := s.Exists(ctx, Chat("ses_c"), "x.txt"); ok || err != nil {
		t.Fatalf("another session sees the file: %v %v", ok, err)
	}
}

func TestLayoutAndPermissions(t *testing.T) {
	s, dir := newStore(t)
	mustSave(t, s, Chat("ses_a"), "a.txt", "a")
	mustSave(t, s, Global(), "g.txt", "g")
	for _, p := range []string{"files", "files/global", "files/sessions", "files/sessions/ses_a"} {
		st, err := os.Stat(filepath.Join(dir, p))
		if err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want a 0700 folder", p, st.Mode(), err)
		}
	}
	for _, p := range []string{"files/sessions/ses_a/a.txt", "files/global/g.txt"} {
		st, err := os.Stat(filepath.Join(dir, p))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want a 0600 file", p, st.Mode(), err)
		}
	}
	// No temporary file stays behind.
	left, _ := os.ReadDir(filepath.Join(dir, "files", stagingDir))
	if len(left) != 0 {
		t.Fatalf("staging folder not empty: %v", left)
	}
}

func TestHostileNamesTouchNothing(t *testing.T) {
	s, dir := newStore(t)
	ctx := context.Background()
	for _, name := range []string{"../x", "../../etc/passwd", "a/b", `..\x`, "a:b", ".", "..", "", "a\x00b", "a\nb"} {
		if _, err := s.Save(ctx, Global(), name, []byte("x")); !errors.Is(err, ErrInvalid) {
			t.Errorf("save %q: %v, want invalid", name, err)
		}
		if _, _, err := s.Load(ctx, Global(), name); !errors.Is(err, ErrInvalid) {
			t.Errorf("load %q: %v, want invalid", name, err)
		}
		if err := s.Delete(ctx, Global(), name); !errors.Is(err, ErrInvalid) {
			t.Errorf("delete %q: %v, want invalid", name, err)
		}
		if _, err := s.Exists(ctx, Global(), name); !errors.Is(err, ErrInvalid) {
			t.Errorf("exists %q: %v, want invalid", name, err)
		}
	}
	for _, ses := range []string{"../global", "..", "", "a/b"} {
		if _, err := s.Save(ctx, Chat(ses), "x", []byte("x")); !errors.Is(err, ErrInvalid) {
			t.Errorf("save in session %q: %v, want invalid", ses, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("hostile calls created %v", ents)
	}
}

func TestDeleteAndExists(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	mustSave(t, s, Global(), "a.txt", "a")
	if ok, err := s.Exists(ctx, Global(), "a.txt"); !ok || err != nil {
		t.Fatalf("exists: %v %v", ok, err)
	}
	if err := s.Delete(ctx, Global(), "a.txt"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Exists(ctx, Global(), "a.txt"); ok || err != nil {
		t.Fatalf("exists after delete: %v %v", ok, err)
	}
	err := s.Delete(ctx, Global(), "a.txt")
	var fe *Error
	if !errors.As(err, &fe) || fe.Kind != KindNotFound || !strings.Contains(fe.Msg, `"a.txt"`) {
		t.Fatalf("second delete: %v, want not found", err)
	}
	if _, _, err := s.Load(ctx, Global(), "a.txt"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load missing: %v", err)
	}
	if _, err := s.Stat(ctx, Global(), "a.txt"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("stat missing: %v", err)
	}
}

func TestSizeLimit(t *testing.T) {
	s, dir := newStore(t)
	s.MaxFileSize = 10
	ctx := context.Background()
	mustSave(t, s, Global(), "a.txt", "old")
	_, err := s.Save(ctx, Global(), "a.txt", []byte("01234567890"))
	var fe *Error
	if !errors.As(err, &fe) || fe.Kind != KindTooLarge || fe.Limit != 10 {
		t.Fatalf("save over the limit: %v", err)
	}
	_, err = s.SaveFrom(ctx, Global(), "a.txt", strings.NewReader(strings.Repeat("x", 100)))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("streamed save over the limit: %v", err)
	}
	if data, _, _ := s.Load(ctx, Global(), "a.txt"); string(data) != "old" {
		t.Fatalf("the old file changed: %q", data)
	}
	if _, err := s.Save(ctx, Global(), "b.txt", []byte("0123456789")); err != nil {
		t.Fatalf("exactly at the limit: %v", err)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, "files", stagingDir)); len(left) != 0 {
		t.Fatalf("a refused save left %v", left)
	}
	// A file put there by hand over the limit is not loaded, but streams.
	os.WriteFile(filepath.Join(dir, "files", "global", "big.bin"), make([]byte, 50), 0o600)
	if _, _, err := s.Load(ctx, Global(), "big.bin"); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("load of a big file: %v", err)
	}
	rc, e, err := s.Reader(ctx, Global(), "big.bin")
	if err != nil || e.Size != 50 {
		t.Fatalf("reader: %+v %v", e, err)
	}
	n, _ := io.Copy(io.Discard, rc)
	rc.Close()
	if n != 50 {
		t.Fatalf("read %d bytes", n)
	}
}

func TestLinksAndFoldersAreNotFiles(t *testing.T) {
	s, dir := newStore(t)
	ctx := context.Background()
	mustSave(t, s, Global(), "real.txt", "r")
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("secret"), 0o600)
	gdir := filepath.Join(dir, "files", "global")
	if err := os.Symlink(secret, filepath.Join(gdir, "link.txt")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	os.Mkdir(filepath.Join(gdir, "folder"), 0o700)
	if _, _, err := s.Load(ctx, Global(), "link.txt"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load through a link: %v", err)
	}
	if err := s.Delete(ctx, Global(), "folder"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete a folder: %v", err)
	}
	if _, err := s.Save(ctx, Global(), "folder", []byte("x")); !errors.Is(err, ErrInvalid) {
		t.Fatalf("save over a folder: %v", err)
	}
	page, err := s.List(ctx, Global(), ListOptions{})
	if err != nil || len(page.Files) != 1 || page.Files[0].Name != "real.txt" {
		t.Fatalf("list = %+v %v, want only real.txt", page, err)
	}
}

func TestMIMEFromContent(t *testing.T) {
	s, _ := newStore(t)
	e := mustSave(t, s, Global(), "picture", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	if e.MIMEType != "image/png" {
		t.Fatalf("saved mime = %q", e.MIMEType)
	}
	st, _ := s.Stat(context.Background(), Global(), "picture")
	if st.MIMEType != "image/png" {
		t.Fatalf("stat mime = %q", st.MIMEType)
	}
	_, le, _ := s.Load(context.Background(), Global(), "picture")
	if le.MIMEType != "image/png" {
		t.Fatalf("load mime = %q", le.MIMEType)
	}
}

// TestOverwriteIsAtomic: a reader racing with writers sees a whole old or a
// whole new file, never a mix or a missing file.
func TestOverwriteIsAtomic(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	a, b := bytes.Repeat([]byte("a"), 64<<10), bytes.Repeat([]byte("b"), 64<<10)
	if _, err := s.Save(ctx, Global(), "f.bin", a); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			content := a
			if i%2 == 1 {
				content = b
			}
			if _, err := s.Save(ctx, Global(), "f.bin", content); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var failure string
	for i := 0; i < 200 && failure == ""; i++ {
		data, _, err := s.Load(ctx, Global(), "f.bin")
		switch {
		case err != nil:
			failure = "load during overwrite: " + err.Error()
		case !bytes.Equal(data, a) && !bytes.Equal(data, b):
			failure = "torn read"
		}
	}
	close(stop)
	wg.Wait()
	if failure != "" {
		t.Fatal(failure)
	}
}

func TestCancelledContext(t *testing.T) {
	s, _ := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Save(ctx, Global(), "a", []byte("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("save: %v", err)
	}
	if _, err := s.List(ctx, Global(), ListOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("list: %v", err)
	}
}

func TestErrorsNeverShowTheDataDir(t *testing.T) {
	s, dir := newStore(t)
	s.MaxFileSize = 1
	ctx := context.Background()
	var errs []error
	_, err := s.Save(ctx, Global(), "big", []byte("xx"))
	errs = append(errs, err)
	errs = append(errs, s.Delete(ctx, Chat("ses_a"), "missing"))
	_, _, err = s.Load(ctx, Global(), "../x")
	errs = append(errs, err)
	_, err = s.List(ctx, Global(), ListOptions{Cursor: "zzz"})
	errs = append(errs, err)
	for _, err := range errs {
		var fe *Error
		if !errors.As(err, &fe) {
			t.Fatalf("%v is not a *files.Error", err)
		}
		if strings.Contains(fe.Msg, dir) {
			t.Fatalf("message shows the data dir: %q", fe.Msg)
		}
	}
}
