package postgres_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
	"github.com/tavo-cli/tavo/pkg/store/storetest"
)

// BenchmarkEngine is package store's BenchmarkEngine on PostgreSQL (over
// the connection TAVO_TEST_POSTGRES names: loopback or a socket under
// scripts/with-postgres.sh).
func BenchmarkEngine(b *testing.B) {
	open := func(b *testing.B) storetest.Handles {
		u := schemaURL(b, b.Name())
		return func() *store.Store {
			eng, err := postgres.Open(context.Background(), u, postgres.Options{})
			if err != nil {
				b.Fatal(err)
			}
			s, err := store.OpenEngine(context.Background(), b.TempDir(), eng)
			if err != nil {
				b.Fatal(err)
			}
			return s
		}
	}
	b.Run("SessionSendSetup", func(b *testing.B) { storetest.BenchSessionSendSetup(b, open) })
	b.Run("ReadMessagesPage", func(b *testing.B) { storetest.BenchReadMessagesPage(b, open) })
	b.Run("FollowLatency", func(b *testing.B) { storetest.BenchFollowLatency(b, open) })
	b.Run("CancelLatency", func(b *testing.B) { storetest.BenchCancelLatency(b, open) })
	b.Run("FileList", func(b *testing.B) {
		s := open(b)()
		defer s.Close()
		db := s.SharedDB()
		// 10,000 small files in one statement; saving them one by one
		// would only measure the seeding.
		if _, err := db.Exec(`INSERT INTO files (scope, session_id, name, size, mime_type, modified_at, data)
			SELECT 'global', '', 'file-' || lpad(i::text, 5, '0') || '.txt', 10, 'text/plain', 0, convert_to('0123456789', 'UTF8')
			FROM generate_series(0, 9999) AS i`); err != nil {
			b.Fatal(err)
		}
		storetest.BenchFileList(b, files.OpenWith(b.TempDir(), func(context.Context) (*sql.DB, error) { return db, nil }))
	})
}
