package store

import (
	"context"
	"database/sql"
	"fmt"
)

// retainedMigration adds the images a session keeps showing its model
// (SPEC §11, lifetime "retain"): one row per image, in the order they were
// retained, removed with their session. The bytes live in an artifact or
// asset of the same session (artifact), so a row stays small.
const retainedMigration = `
CREATE TABLE retained_attachments (
	session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	pos        INTEGER NOT NULL,
	url        TEXT NOT NULL, -- the URL the model knows the image by
	media_type TEXT NOT NULL,
	artifact   TEXT NOT NULL, -- id of the artifact or asset holding the bytes
	PRIMARY KEY (session_id, pos)
);
`

// RetainedAttachment is an image a session shows its model in every
// request: URL is what the conversation calls it, Artifact the id of the
// session's artifact or asset that holds its bytes.
type RetainedAttachment struct {
	URL       string
	MediaType string
	Artifact  string
}

// RetainedAttachments returns the images session id keeps, oldest first;
// none for an unknown session.
func (s *Store) RetainedAttachments(ctx context.Context, id string) ([]RetainedAttachment, error) {
	var out []RetainedAttachment
	err := s.read(ctx, "reading the retained images of session "+id, func() error {
		out = out[:0]
		rows, err := s.db.QueryContext(ctx, `SELECT url, media_type, artifact FROM retained_attachments WHERE session_id = ? ORDER BY pos`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r RetainedAttachment
			if err := rows.Scan(&r.URL, &r.MediaType, &r.Artifact); err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// SetRetainedAttachments replaces the images session id keeps with list
// (empty forgets them all). An unknown session is ErrNotFound.
func (s *Store) SetRetainedAttachments(ctx context.Context, id string, list []RetainedAttachment) error {
	return s.write(ctx, "storing the retained images of session "+id, func(tx *sql.Tx) error {
		if err := sessionExists(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM retained_attachments WHERE session_id = ?`, id); err != nil {
			return err
		}
		for i, r := range list {
			if _, err := tx.ExecContext(ctx, `INSERT INTO retained_attachments (session_id, pos, url, media_type, artifact) VALUES (?, ?, ?, ?, ?)`,
				id, i, r.URL, r.MediaType, r.Artifact); err != nil {
				return fmt.Errorf("image %s: %w", r.URL, err)
			}
		}
		return nil
	})
}
