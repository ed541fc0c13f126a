package postgres_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
	"github.com/tavo-cli/tavo/pkg/store/storetest"
)

// TestFilesConformance: the file store with its files in PostgreSQL.
func TestFilesConformance(t *testing.T) {
	serverURL(t)
	urlOf := perTestSchema()
	storetest.RunFiles(t, func(t *testing.T) *files.Store {
		u := urlOf(t)
		s := openURL(t, u, postgres.Options{})
		db := s.SharedDB()
		if db == nil {
			t.Fatal("a PostgreSQL store has no shared database")
		}
		return files.OpenWith(t.TempDir(), func(context.Context) (*sql.DB, error) { return db, nil })
	})
}

// TestChatFilesGoWithTheirSession: deleting a session removes its chat
// files from the database, as its folder goes on disk.
func TestChatFilesGoWithTheirSession(t *testing.T) {
	s := openURL(t, schemaURL(t, t.Name()), postgres.Options{})
	db := s.SharedDB()
	fs := files.OpenWith(t.TempDir(), func(context.Context) (*sql.DB, error) { return db, nil })
	ctx := context.Background()
	for _, id := range []string{"ses_gone", "ses_kept"} {
		if _, err := s.CreateSession(ctx, id, id); err != nil {
			t.Fatal(err)
		}
		if _, err := fs.Save(ctx, files.Chat(id), "a.txt", []byte(id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := fs.Save(ctx, files.Global(), "a.txt", []byte("global")); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, "ses_gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(ctx, files.Chat("ses_gone"), "a.txt"); err == nil {
		t.Fatal("the deleted session's file is still there")
	}
	for _, loc := range []files.Location{files.Chat("ses_kept"), files.Global()} {
		if _, err := fs.Stat(ctx, loc, "a.txt"); err != nil {
			t.Fatalf("%v: %v", loc, err)
		}
	}
}
