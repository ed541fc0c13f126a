package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	idgen "github.com/tavo-cli/tavo/pkg/ids"
)

// artifactsMigration adds the artifacts of SPEC §11: immutable snapshots
// (oversized tool results, fetched pages) and the session's assets (what
// --attach added), kept whole. They have no foreign keys, so a result can be
// archived before its run or session row exists; triggers remove them with
// their run (runs prune, retention) and with their session.
const artifactsMigration = `
CREATE TABLE artifacts (
	id         TEXT PRIMARY KEY,
	kind       TEXT NOT NULL,            -- artifact or asset
	session_id TEXT NOT NULL DEFAULT '', -- '' when made outside a session
	run_id     TEXT NOT NULL DEFAULT '', -- '' when made outside a run
	name       TEXT NOT NULL DEFAULT '',
	media_type TEXT NOT NULL,
	size       INTEGER NOT NULL,
	lines      INTEGER NOT NULL DEFAULT 0,
	sha256     TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	data       BLOB NOT NULL
);
CREATE INDEX artifacts_by_session ON artifacts (session_id, created_at DESC, id DESC);
CREATE INDEX artifacts_by_run ON artifacts (run_id) WHERE run_id <> '';
CREATE INDEX artifacts_by_time ON artifacts (created_at DESC, id DESC);
CREATE TRIGGER artifacts_go_with_runs AFTER DELETE ON runs BEGIN
	DELETE FROM artifacts WHERE run_id = OLD.id;
END;
CREATE TRIGGER artifacts_go_with_sessions AFTER DELETE ON sessions BEGIN
	DELETE FROM artifacts WHERE session_id = OLD.id;
END;
`

// Artifact kinds.
const (
	// ArtifactKindArtifact is a snapshot a run made (artifact://).
	ArtifactKindArtifact = "artifact"
	// ArtifactKindAsset is something a person attached (asset://).
	ArtifactKindAsset = "asset"
)

// MaxArtifactBytes bounds one artifact: large enough for any tool result
// tavo keeps, small enough that reading one back stays cheap.
const MaxArtifactBytes = 64 << 20

// Artifact describes one stored artifact; its bytes are read with
// ArtifactData.
type Artifact struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	SessionID string    `json:"session_id"`
	RunID     string    `json:"run_id"`
	Name      string    `json:"name"`
	MediaType string    `json:"media_type"`
	Size      int64     `json:"size"`
	Lines     int       `json:"lines"`
	SHA256    string    `json:"sha256"`
	CreatedAt time.Time `json:"created_at"`
}

// CreateArtifact stores data as a new artifact described by a (Kind,
// SessionID, RunID, Name, MediaType; the rest is computed) and returns it
// with its ID (art_… or ast_…), size, line count, digest and time.
func (s *Store) CreateArtifact(ctx context.Context, a Artifact, data []byte) (*Artifact, error) {
	switch a.Kind {
	case "":
		a.Kind = ArtifactKindArtifact
	case ArtifactKindArtifact, ArtifactKindAsset:
	default:
		return nil, fmt.Errorf("store: creating an artifact: kind %q is not artifact or asset: %w", a.Kind, ErrInvalid)
	}
	if len(data) > MaxArtifactBytes {
		return nil, fmt.Errorf("store: creating an artifact: %d bytes is over the %d MiB limit: %w", len(data), MaxArtifactBytes>>20, ErrInvalid)
	}
	if a.MediaType == "" {
		a.MediaType = "application/octet-stream"
	}
	prefix := "art"
	if a.Kind == ArtifactKindAsset {
		prefix = "ast"
	}
	now := s.now()
	a.ID = idgen.New(prefix, now)
	a.CreatedAt = now.UTC()
	a.Size = int64(len(data))
	a.Lines = countLines(data)
	sum := sha256.Sum256(data)
	a.SHA256 = hex.EncodeToString(sum[:])
	if data == nil {
		data = []byte{}
	}
	err := s.write(ctx, "storing an artifact", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO artifacts (id, kind, session_id, run_id, name, media_type, size, lines, sha256, created_at, data)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, a.ID, a.Kind, a.SessionID, a.RunID, a.Name, a.MediaType, a.Size, a.Lines, a.SHA256, a.CreatedAt.UnixNano(), data)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// countLines counts lines the way a pager does: a last line without "\n"
// counts too.
func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

const artifactColumns = `id, kind, session_id, run_id, name, media_type, size, lines, sha256, created_at`

func scanArtifact(row interface{ Scan(...any) error }, extra ...any) (*Artifact, error) {
	var a Artifact
	var created int64
	dest := append([]any{&a.ID, &a.Kind, &a.SessionID, &a.RunID, &a.Name, &a.MediaType, &a.Size, &a.Lines, &a.SHA256, &created}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	a.CreatedAt = time.Unix(0, created).UTC()
	return &a, nil
}

// GetArtifact returns an artifact's description without its bytes.
func (s *Store) GetArtifact(ctx context.Context, id string) (*Artifact, error) {
	var a *Artifact
	err := s.read(ctx, "reading artifact "+id, func() error {
		var err error
		a, err = scanArtifact(s.db.QueryRowContext(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE id = ?`, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: artifact %s: %w", id, ErrNotFound)
	}
	return a, err
}

// ArtifactData returns an artifact and its bytes.
func (s *Store) ArtifactData(ctx context.Context, id string) (*Artifact, []byte, error) {
	var a *Artifact
	var data []byte
	err := s.read(ctx, "reading artifact "+id, func() error {
		var err error
		a, err = scanArtifact(s.db.QueryRowContext(ctx, `SELECT `+artifactColumns+`, data FROM artifacts WHERE id = ?`, id), &data)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("store: artifact %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, nil, err
	}
	return a, data, nil
}

// ArtifactFilter narrows ListArtifacts.
type ArtifactFilter struct {
	// SessionID keeps one session's artifacts; "" lists all.
	SessionID string
	// Kind keeps one kind; "" lists both.
	Kind string
	// Limit is the most returned, newest first; ≤ 0 means 100.
	Limit int
}

// ListArtifacts returns artifacts, newest first.
func (s *Store) ListArtifacts(ctx context.Context, f ArtifactFilter) ([]Artifact, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	q := `SELECT ` + artifactColumns + ` FROM artifacts WHERE (? = '' OR session_id = ?) AND (? = '' OR kind = ?) ORDER BY created_at DESC, id DESC LIMIT ?`
	out := []Artifact{}
	err := s.read(ctx, "listing artifacts", func() error {
		out = out[:0]
		rows, err := s.db.QueryContext(ctx, q, f.SessionID, f.SessionID, f.Kind, f.Kind, f.Limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			a, err := scanArtifact(rows)
			if err != nil {
				return err
			}
			out = append(out, *a)
		}
		return rows.Err()
	})
	return out, err
}

// DeleteArtifact removes one artifact; a missing one is ErrNotFound.
func (s *Store) DeleteArtifact(ctx context.Context, id string) error {
	return s.write(ctx, "deleting artifact "+id, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM artifacts WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: artifact %s: %w", id, ErrNotFound)
		}
		return nil
	})
}
