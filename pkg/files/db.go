package files

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"
)

// DBOpener returns the database that holds the file store, or nil when the
// files live on disk in the data directory (the embedded default). It is
// called on first use, so a command that never touches a file opens
// nothing.
type DBOpener func(ctx context.Context) (*sql.DB, error)

// OpenWith returns the store of dataDir whose files live in the database
// db returns (fleet mode, SPEC §15: every machine sees the same files),
// or on disk when it returns nil. The database has the table
//
//	files (scope, session_id, name COLLATE "C", size, mime_type, modified_at, data)
//
// of the store's PostgreSQL schema. Names, scopes, limits and cursors
// behave as on disk; the cursor key is kept in the database too, so a
// cursor made on one machine continues on another.
func OpenWith(dataDir string, db DBOpener) *Store {
	return &Store{root: filepath.Join(dataDir, dirName), dbOpen: db}
}

// database is the files' database, nil on disk.
func (s *Store) database(ctx context.Context) (*sql.DB, error) {
	if s.dbOpen == nil {
		return nil, nil
	}
	db, err := s.dbOpen(ctx)
	if err != nil {
		return nil, unavailable("opening the file store", false, err)
	}
	return db, nil
}

// sessionOf is the session_id column of loc: "" for the global scope.
func sessionOf(loc Location) string {
	if loc.Scope == ScopeGlobal {
		return ""
	}
	return loc.Session
}

func (s *Store) dbSave(ctx context.Context, db *sql.DB, loc Location, name string, r io.Reader) (Entry, error) {
	limit := s.maxSize()
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(&ctxReader{ctx: ctx, r: r}, limit+1))
	if err != nil {
		if ctx.Err() != nil {
			return Entry{}, ctx.Err()
		}
		return Entry{}, fmt.Errorf("files: reading the content of %s: %w", loc.Path(name), err)
	}
	if n > limit {
		return Entry{}, tooLarge(limit, "the content")
	}
	data := buf.Bytes()
	mimeType := DetectMIME(name, data[:min(len(data), sniffBytes)])
	now := time.Now().UTC().Truncate(time.Millisecond)
	_, err = db.ExecContext(ctx, `INSERT INTO files (scope, session_id, name, size, mime_type, modified_at, data)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (scope, session_id, name) DO UPDATE SET size = excluded.size, mime_type = excluded.mime_type,
			modified_at = excluded.modified_at, data = excluded.data`,
		string(loc.Scope), sessionOf(loc), name, int64(len(data)), mimeType, now.UnixMilli(), data)
	if err != nil {
		return Entry{}, unavailable("saving "+loc.Path(name), true, err)
	}
	return Entry{Path: loc.Path(name), Name: name, Size: int64(len(data)), MIMEType: mimeType, ModifiedAt: now}, nil
}

func (s *Store) dbStat(ctx context.Context, db *sql.DB, loc Location, name string) (Entry, error) {
	e := Entry{Path: loc.Path(name), Name: name}
	var ms int64
	err := db.QueryRowContext(ctx, `SELECT size, mime_type, modified_at FROM files WHERE scope = ? AND session_id = ? AND name = ?`,
		string(loc.Scope), sessionOf(loc), name).Scan(&e.Size, &e.MIMEType, &ms)
	if errors.Is(err, sql.ErrNoRows) {
		return Entry{}, notFound(loc, name)
	}
	if err != nil {
		return Entry{}, unavailable("looking up "+loc.Path(name), false, err)
	}
	e.ModifiedAt = time.UnixMilli(ms).UTC()
	return e, nil
}

func (s *Store) dbReader(ctx context.Context, db *sql.DB, loc Location, name string) (io.ReadCloser, Entry, error) {
	e := Entry{Path: loc.Path(name), Name: name}
	var ms int64
	var data []byte
	err := db.QueryRowContext(ctx, `SELECT size, mime_type, modified_at, data FROM files WHERE scope = ? AND session_id = ? AND name = ?`,
		string(loc.Scope), sessionOf(loc), name).Scan(&e.Size, &e.MIMEType, &ms, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Entry{}, notFound(loc, name)
	}
	if err != nil {
		return nil, Entry{}, unavailable("opening "+loc.Path(name), false, err)
	}
	e.ModifiedAt = time.UnixMilli(ms).UTC()
	return io.NopCloser(bytes.NewReader(data)), e, nil
}

func (s *Store) dbDelete(ctx context.Context, db *sql.DB, loc Location, name string) error {
	res, err := db.ExecContext(ctx, `DELETE FROM files WHERE scope = ? AND session_id = ? AND name = ?`,
		string(loc.Scope), sessionOf(loc), name)
	if err != nil {
		return unavailable("deleting "+loc.Path(name), true, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return notFound(loc, name)
	}
	return nil
}

// dbNames returns up to limit+1 entries of loc after after, in byte order
// of their names (the column's collation is "C").
func (s *Store) dbList(ctx context.Context, db *sql.DB, loc Location, after string, limit int) ([]Entry, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, size, mime_type, modified_at FROM files
		WHERE scope = ? AND session_id = ? AND name > ? ORDER BY name LIMIT ?`,
		string(loc.Scope), sessionOf(loc), after, limit+1)
	if err != nil {
		return nil, unavailable("listing the "+string(loc.Scope)+" scope", false, err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var ms int64
		if err := rows.Scan(&e.Name, &e.Size, &e.MIMEType, &ms); err != nil {
			return nil, unavailable("listing the "+string(loc.Scope)+" scope", false, err)
		}
		e.Path, e.ModifiedAt = loc.Path(e.Name), time.UnixMilli(ms).UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("listing the "+string(loc.Scope)+" scope", false, err)
	}
	return out, nil
}

// cursorKeyName is the kv row holding the cursor key in the database.
const cursorKeyName = "files.cursor_key"

// loadDBKey makes sure the cursor key is the one in the database (made by
// the first process that needed it), so every machine signs alike.
func (s *Store) loadDBKey(ctx context.Context, db *sql.DB) error {
	s.mu.Lock()
	have := s.key != nil
	s.mu.Unlock()
	if have {
		return nil
	}
	k := make([]byte, keyBytes)
	if _, err := rand.Read(k); err != nil {
		return fmt.Errorf("files: making a cursor key: %w", err)
	}
	// The first writer wins; everyone reads the winner's key.
	if _, err := db.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
		cursorKeyName, hex.EncodeToString(k), time.Now().UnixNano()); err != nil {
		return unavailable("making a cursor key", true, err)
	}
	var v string
	if err := db.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, cursorKeyName).Scan(&v); err != nil {
		return unavailable("reading the cursor key", false, err)
	}
	won, err := hex.DecodeString(v)
	if err != nil || len(won) != keyBytes {
		return unavailable("reading the cursor key", false, fmt.Errorf("the stored key is damaged"))
	}
	s.mu.Lock()
	s.key = won
	s.mu.Unlock()
	return nil
}

// dbPage is List's page from the database.
func (s *Store) dbPage(ctx context.Context, db *sql.DB, loc Location, after string, limit int) (Page, error) {
	entries, err := s.dbList(ctx, db, loc, after, limit)
	if err != nil {
		return Page{}, err
	}
	page := Page{Files: entries}
	if len(entries) > limit {
		page.Files = entries[:limit]
		c, err := s.makeCursor(loc, page.Files[limit-1].Name)
		if err != nil {
			return Page{}, err
		}
		page.NextCursor = c
	}
	if page.Files == nil {
		page.Files = []Entry{}
	}
	return page, nil
}
