package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/tavo-cli/tavo/pkg/files"
)

// FilesOpener opens a handle on a fresh file store for one test; two calls
// within one test reach the same files, as two processes (or machines)
// would.
type FilesOpener func(t *testing.T) *files.Store

// RunFiles runs the file store's conformance tests: on disk (package
// files's tests) and in PostgreSQL (package store/postgres's tests).
func RunFiles(t *testing.T, open FilesOpener) {
	t.Run("SaveLoadDelete", func(t *testing.T) {
		a, b := open(t), open(t)
		data := bytes.Repeat([]byte{0, 1, 0xfe, '\n'}, 1<<14)
		e, err := a.Save(ctx(), files.Chat("ses_1"), "blob.bin", data)
		if err != nil {
			t.Fatal(err)
		}
		if e.Size != int64(len(data)) || e.Path != "chat/blob.bin" {
			t.Fatalf("entry %+v", e)
		}
		got, e2, err := b.Load(ctx(), files.Chat("ses_1"), "blob.bin")
		if err != nil || !bytes.Equal(got, data) || e2.Size != e.Size {
			t.Fatalf("load %d bytes, %v", len(got), err)
		}
		if _, err := b.Stat(ctx(), files.Chat("ses_2"), "blob.bin"); !errors.Is(err, files.ErrNotFound) {
			t.Fatalf("other session sees the file: %v", err)
		}
		if _, err := b.Save(ctx(), files.Global(), "note.md", []byte("# one")); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Save(ctx(), files.Global(), "note.md", []byte("# two")); err != nil {
			t.Fatal(err)
		}
		rc, e3, err := b.Reader(ctx(), files.Global(), "note.md")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		if string(body) != "# two" || e3.MIMEType != "text/markdown" {
			t.Fatalf("replaced file %q %+v", body, e3)
		}
		if err := b.Delete(ctx(), files.Chat("ses_1"), "blob.bin"); err != nil {
			t.Fatal(err)
		}
		if err := a.Delete(ctx(), files.Chat("ses_1"), "blob.bin"); !errors.Is(err, files.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
	})
	t.Run("TooLarge", func(t *testing.T) {
		s := open(t)
		s.MaxFileSize = 10
		_, err := s.Save(ctx(), files.Global(), "big.txt", []byte("01234567890"))
		var fe *files.Error
		if !errors.As(err, &fe) || fe.Kind != files.KindTooLarge {
			t.Fatalf("save over the limit: %v", err)
		}
	})
	t.Run("ListPagesAcrossHandles", func(t *testing.T) {
		a, b := open(t), open(t)
		names := []string{"B.txt", "a.txt", "a_b.txt", "ab.txt", "z.txt", "Z1.txt", "m.txt"}
		for _, n := range names {
			if _, err := a.Save(ctx(), files.Global(), n, []byte(n)); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		cursor := ""
		for i := 0; ; i++ {
			s := a
			if i%2 == 1 {
				s = b // a cursor made by one handle continues on the other
			}
			page, err := s.List(ctx(), files.Global(), files.ListOptions{Limit: 3, Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range page.Files {
				got = append(got, e.Name)
			}
			if page.NextCursor == "" {
				break
			}
			cursor = page.NextCursor
		}
		// Byte order, so upper case first.
		if want := "[B.txt Z1.txt a.txt a_b.txt ab.txt m.txt z.txt]"; fmt.Sprint(got) != want {
			t.Fatalf("listed %v, want %s", got, want)
		}
		if _, err := a.List(ctx(), files.Chat("ses_x"), files.ListOptions{Cursor: cursor}); err == nil {
			t.Fatal("a cursor of the global scope continued a chat listing")
		}
	})
}
