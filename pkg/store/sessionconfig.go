package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// SessionConfig returns the JSON document a session keeps about how it is
// run (pkg/session gives it meaning); nil when none was stored yet. An
// unknown session is ErrNotFound.
func (s *Store) SessionConfig(ctx context.Context, id string) (json.RawMessage, error) {
	var doc string
	err := s.read(ctx, "reading the config of session "+id, func() error {
		err := s.db.QueryRowContext(ctx, `SELECT config FROM sessions WHERE id = ?`, id).Scan(&doc)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", id, ErrNotFound)
		}
		return err
	})
	if err != nil || doc == "" {
		return nil, err
	}
	return json.RawMessage(doc), nil
}

// SetSessionConfig stores how a session is run, replacing what it kept;
// doc must be a JSON object (nil or empty forgets it). With onlyIfEmpty it
// changes nothing when the session already keeps a config, so the first
// run of a session decides and later runs do not race to overwrite it. An
// unknown session is ErrNotFound.
func (s *Store) SetSessionConfig(ctx context.Context, id string, doc json.RawMessage, onlyIfEmpty bool) error {
	op := "storing the config of session " + id
	if len(doc) > 0 && (!json.Valid(doc) || doc[0] != '{') {
		return fmt.Errorf("store: %s: not a JSON object: %w", op, ErrInvalid)
	}
	q := `UPDATE sessions SET config = ? WHERE id = ?`
	if onlyIfEmpty {
		q += ` AND config = ''`
	}
	return s.write(ctx, op, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q, string(doc), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return sessionExists(ctx, tx, id)
		}
		return nil
	})
}
