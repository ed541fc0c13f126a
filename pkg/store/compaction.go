package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Compaction records that a session's older messages were summarised: a
// run continuing the session sends Summary in place of the messages before
// KeptFromSeq, then History(KeptFromSeq).
type Compaction struct {
	SessionID string `json:"session_id"`
	// KeptFromSeq is the seq of the first message kept whole. When the
	// whole history was summarised it is the session's last seq + 1, so
	// History(KeptFromSeq) returns only what came after.
	KeptFromSeq  int64     `json:"kept_from_seq"`
	Summary      string    `json:"summary"`
	TokensBefore int       `json:"tokens_before"`
	TokensAfter  int       `json:"tokens_after"`
	CreatedAt    time.Time `json:"created_at"`
}

// AddCompaction stores a compaction record (CreatedAt zero means now). The
// session must exist; the summary must not be blank.
func (s *Store) AddCompaction(ctx context.Context, c Compaction) error {
	op := "storing a compaction of session " + c.SessionID
	switch {
	case strings.TrimSpace(c.Summary) == "":
		return fmt.Errorf("store: %s: the summary is empty: %w", op, ErrInvalid)
	case c.KeptFromSeq < 0 || c.TokensBefore < 0 || c.TokensAfter < 0:
		return fmt.Errorf("store: %s: negative seq or token count: %w", op, ErrInvalid)
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	return s.write(ctx, op, func(tx *sql.Tx) error {
		if err := sessionExists(ctx, tx, c.SessionID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO compactions (session_id, kept_from_seq, summary, tokens_before, tokens_after, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, c.SessionID, c.KeptFromSeq, c.Summary, c.TokensBefore, c.TokensAfter, toNS(c.CreatedAt))
		return err
	})
}

// LatestCompaction returns the session's most recent compaction,
// ErrNotFound when it has none (or the session does not exist).
func (s *Store) LatestCompaction(ctx context.Context, sessionID string) (*Compaction, error) {
	c := &Compaction{SessionID: sessionID}
	err := s.read(ctx, "reading the compaction of session "+sessionID, func() error {
		var created int64
		err := s.db.QueryRowContext(ctx, `SELECT kept_from_seq, summary, tokens_before, tokens_after, created_at
			FROM compactions WHERE session_id = ? ORDER BY id DESC LIMIT 1`, sessionID).
			Scan(&c.KeptFromSeq, &c.Summary, &c.TokensBefore, &c.TokensAfter, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no compaction of session %s: %w", sessionID, ErrNotFound)
		}
		c.CreatedAt = fromNS(created)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}
