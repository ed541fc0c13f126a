package store

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A data dir of schema version 1 is migrated: sessions and runs gain their
// new columns, and fetch audit rows say duration_ms instead of duration
// (nanoseconds).
func TestMigrationTwoFromVersionOne(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn(filepath.Join(dir, FileName)))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{migrations[0], "PRAGMA user_version = 1",
		`INSERT INTO audit (kind, time, data) VALUES ('fetch', 1, '{"url":"https://x","duration":1500000000}')`,
		`INSERT INTO audit (kind, time, data) VALUES ('search', 2, '{"duration_ms":7}')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, _ := openAt(t, dir)
	rows, _, err := s.ListAudit(ctxb(), "", 10, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || string(rows[1].Data) != `{"url":"https://x","duration_ms":1500}` || !strings.Contains(string(rows[0].Data), `"duration_ms":7`) {
		t.Fatalf("audit rows after migration: %s | %s", rows[1].Data, rows[0].Data)
	}
	mustSession(t, s, "ses_m")
	if c, err := s.SessionConfig(ctxb(), "ses_m"); err != nil || c != nil {
		t.Fatalf("config %s, %v", c, err)
	}
}
