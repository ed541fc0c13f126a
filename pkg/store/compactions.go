package store

import (
	"context"
	"database/sql"
)

// Compactions returns every compaction of a session, oldest first, with
// their summaries; none for a session without (or an unknown one).
func (s *Store) Compactions(ctx context.Context, sessionID string) ([]Compaction, error) {
	return queryAll(ctx, s, "listing the compactions of session "+sessionID,
		`SELECT kept_from_seq, summary, tokens_before, tokens_after, created_at FROM compactions WHERE session_id = ? ORDER BY id`,
		[]any{sessionID}, func(r *sql.Rows) (Compaction, error) {
			c := Compaction{SessionID: sessionID}
			var created int64
			err := r.Scan(&c.KeptFromSeq, &c.Summary, &c.TokensBefore, &c.TokensAfter, &created)
			c.CreatedAt = fromNS(created)
			return c, err
		})
}
