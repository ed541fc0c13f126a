package fetch

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func longDoc(lines int) *Document {
	var b strings.Builder
	for i := range lines {
		b.WriteString(strings.Repeat("é", 40))
		b.WriteString(" line ")
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteByte('\n')
	}
	return &Document{URL: "https://example.com/in", FinalURL: "https://example.com/out", Status: 200, MIME: "text/html",
		Title: "Long", Markdown: b.String(), Warnings: []Warning{{Code: WarnJavaScriptRequired, Message: "m"}}}
}

// readAll pages through doc and returns the pages.
func readAll(t *testing.T, p Pager, doc *Document) []*Result {
	t.Helper()
	ctx := context.Background()
	r, err := p.First(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	out := []*Result{r}
	for r.NextCursor != "" {
		if !r.Truncated {
			t.Fatal("a page with a next cursor is not marked truncated")
		}
		if r, err = p.Next(ctx, r.NextCursor); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if r.Truncated {
		t.Fatal("the last page is marked truncated")
	}
	return out
}

func TestPagerReadsTheWholeDocument(t *testing.T) {
	doc := longDoc(2000)
	for name, store := range map[string]Store{"memory": NewMemoryStore(0), "disk": mustDiskStore(t, t.TempDir())} {
		t.Run(name, func(t *testing.T) {
			pages := readAll(t, Pager{Store: store}, doc)
			var b strings.Builder
			for _, p := range pages {
				if len(p.Markdown) > PageSize || p.URL != doc.URL || p.FinalURL != doc.FinalURL || p.Title != "Long" || p.Status != 200 || p.MIME != "text/html" || len(p.Warnings) != 1 {
					t.Fatalf("page metadata %+v", p)
				}
				b.WriteString(p.Markdown)
			}
			if b.String() != doc.Markdown || len(pages) < 5 {
				t.Fatalf("%d pages do not rebuild the document", len(pages))
			}
		})
	}
}

func TestPagerShortDocumentIsNotStored(t *testing.T) {
	store := NewMemoryStore(0)
	doc := &Document{Markdown: "short\n"}
	r, err := Pager{Store: store}.First(context.Background(), doc)
	if err != nil || r.NextCursor != "" || r.Truncated || r.Markdown != "short\n" || r.Warnings == nil {
		t.Fatalf("First = %+v, %v", r, err)
	}
	if len(store.snaps) != 0 {
		t.Fatal("a one-page document was stored")
	}
}

func TestPagerFitsShrinksPages(t *testing.T) {
	doc := &Document{Markdown: strings.Repeat("\x01\x02\x03\x04\n", 20000)}
	p := Pager{Store: NewMemoryStore(0), Fits: func(r *Result) bool {
		b, _ := json.Marshal(r)
		return len(b) <= 64<<10
	}}
	pages := readAll(t, p, doc)
	var b strings.Builder
	for _, r := range pages {
		if raw, _ := json.Marshal(r); len(raw) > 64<<10 {
			t.Fatalf("page of %d JSON bytes", len(raw))
		}
		b.WriteString(r.Markdown)
	}
	if b.String() != doc.Markdown {
		t.Fatal("shrunk pages do not rebuild the document")
	}
}

func TestCursorTamperingIsDetected(t *testing.T) {
	store := NewMemoryStore(0)
	r, err := Pager{Store: store}.First(context.Background(), longDoc(2000))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(r.NextCursor)
	if err != nil {
		t.Fatal(err)
	}
	for i := range raw {
		for _, bit := range []byte{0x01, 0x80} {
			bad := append([]byte{}, raw...)
			bad[i] ^= bit
			_, _, err := store.Get(context.Background(), base64.RawURLEncoding.EncodeToString(bad))
			wantStoreCode(t, err, CodeInvalidArguments)
		}
	}
	for _, c := range []string{"", "x", r.NextCursor[:len(r.NextCursor)-2], r.NextCursor + "AA", "!!!!", strings.Repeat("A", 1000)} {
		_, _, err := store.Get(context.Background(), c)
		wantStoreCode(t, err, CodeInvalidArguments)
	}
	if _, off, err := store.Get(context.Background(), r.NextCursor); err != nil || off != len(r.Markdown) {
		t.Fatalf("untouched cursor: offset %d, %v", off, err)
	}
}

func TestCursorFromAnotherStoreIsInvalid(t *testing.T) {
	ctx := context.Background()
	doc := longDoc(2000)
	a, b := NewMemoryStore(0), NewMemoryStore(0)
	r, _ := Pager{Store: a}.First(ctx, doc)
	_, _, err := b.Get(ctx, r.NextCursor)
	wantStoreCode(t, err, CodeInvalidArguments)

	disk := mustDiskStore(t, t.TempDir())
	_, _, err = disk.Get(ctx, r.NextCursor)
	wantStoreCode(t, err, CodeInvalidArguments)
	rd, _ := Pager{Store: disk}.First(ctx, doc)
	_, _, err = a.Get(ctx, rd.NextCursor)
	wantStoreCode(t, err, CodeInvalidArguments)
	other := mustDiskStore(t, t.TempDir())
	_, _, err = other.Get(ctx, rd.NextCursor)
	wantStoreCode(t, err, CodeInvalidArguments)
}

func TestMemoryStoreEvictsOldest(t *testing.T) {
	ctx := context.Background()
	doc := longDoc(2000) // about 120 KiB
	store := NewMemoryStore(3 * snapshotSize(doc))
	p := Pager{Store: store}
	var cursors []string
	for range 4 {
		r, err := p.First(ctx, doc)
		if err != nil {
			t.Fatal(err)
		}
		cursors = append(cursors, r.NextCursor)
	}
	_, err := p.Next(ctx, cursors[0])
	wantStoreCode(t, err, CodeResourceNotFound)
	for _, c := range cursors[1:] {
		if _, err := p.Next(ctx, c); err != nil {
			t.Fatalf("recent snapshot gone: %v", err)
		}
	}
	if store.used > store.max {
		t.Fatalf("store holds %d bytes over its cap %d", store.used, store.max)
	}
	if NewMemoryStore(0).max != 24<<20 {
		t.Fatal("default memory cap is not 24 MiB")
	}
}

func TestDiskStoreIsPrivateAndOutlivesTheProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache", "fetch")
	ctx := context.Background()
	doc := longDoc(2000)
	r, err := Pager{Store: mustDiskStore(t, dir)}.First(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	// A new process opens the same directory.
	again := mustDiskStore(t, dir)
	next, err := Pager{Store: again}.Next(ctx, r.NextCursor)
	if err != nil || !strings.HasPrefix(doc.Markdown[len(r.Markdown):], next.Markdown) {
		t.Fatalf("Next in a new store: %v", err)
	}
	wantMode(t, dir, 0o700)
	wantMode(t, filepath.Join(dir, keyFile), 0o600)
	entries, _ := os.ReadDir(dir)
	snaps := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), snapExt) {
			snaps++
			wantMode(t, filepath.Join(dir, e.Name()), 0o600)
		}
	}
	if snaps != 1 {
		t.Fatalf("%d snapshot files", snaps)
	}
	// A directory made too open is made private again.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mustDiskStore(t, dir)
	wantMode(t, dir, 0o700)
}

func TestDiskStoreExpiry(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	now := time.Now()
	store := mustDiskStore(t, dir)
	store.Now = func() time.Time { return now }
	r, err := Pager{Store: store}.First(ctx, longDoc(2000))
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(29 * time.Minute)
	if _, _, err := store.Get(ctx, r.NextCursor); err != nil {
		t.Fatalf("cursor dead before 30 minutes: %v", err)
	}
	now = now.Add(2 * time.Minute)
	_, _, err = store.Get(ctx, r.NextCursor)
	wantStoreCode(t, err, CodeResourceNotFound)
	if files, _ := filepath.Glob(filepath.Join(dir, "*"+snapExt)); len(files) != 0 {
		t.Fatalf("expired snapshot left on disk: %v", files)
	}
}

func TestDiskStoreSweepsExpiredFiles(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	store := mustDiskStore(t, dir)
	if _, err := store.Put(ctx, longDoc(10)); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-31 * time.Minute)
	files, _ := filepath.Glob(filepath.Join(dir, "*"+snapExt))
	for _, f := range files {
		_ = os.Chtimes(f, old, old)
	}
	if _, err := store.Put(ctx, longDoc(10)); err != nil {
		t.Fatal(err)
	}
	if after, _ := filepath.Glob(filepath.Join(dir, "*"+snapExt)); len(after) != 1 {
		t.Fatalf("%d snapshot files after the sweep, want 1", len(after))
	}
}

func TestDiskStoreRejectsABadKeyFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, keyFile), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDiskStore(dir); err == nil {
		t.Fatal("a damaged key file was accepted")
	}
}

func mustDiskStore(t *testing.T, dir string) *DiskStore {
	t.Helper()
	s, err := OpenDiskStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wantMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s mode %o, want %o", filepath.Base(path), got, want)
	}
}

func wantStoreCode(t *testing.T, err error, code string) {
	t.Helper()
	fe, ok := err.(*Error)
	if !ok || fe.Code != code {
		t.Fatalf("err = %v, want code %s", err, code)
	}
}
