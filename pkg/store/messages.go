package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// Message is one stored message of a session.
type Message struct {
	// Seq numbers the session's messages 1, 2, 3… in the order stored.
	Seq       int64  `json:"seq"`
	SessionID string `json:"session_id"`
	// RunID and Round say which run and round added it ("" and 0 for none).
	RunID     string            `json:"run_id,omitempty"`
	Round     int               `json:"round,omitempty"`
	Message   providers.Message `json:"message"`
	CreatedAt time.Time         `json:"created_at"`
}

// Page sizes of ReadMessages.
const (
	DefaultMessagePage = 100
	MaxMessagePage     = 1000
)

// AppendMessages stores msgs at the end of a session in one transaction:
// after a crash either all of them are stored or none is. It returns the
// seq of the last one (the session's current last seq when msgs is empty).
// A user message marks the session used.
func (s *Store) AppendMessages(ctx context.Context, sessionID, runID string, round int, msgs []providers.Message) (int64, error) {
	op := "storing messages of session " + sessionID
	if err := validID("session", sessionID); err != nil {
		return 0, fmt.Errorf("store: %s: %w", op, err)
	}
	if len(msgs) == 0 {
		ss, err := s.GetSession(ctx, sessionID)
		if err != nil {
			return 0, err
		}
		return ss.LastSeq, nil
	}
	data := make([][]byte, len(msgs))
	user := false
	for i, m := range msgs {
		if m.Role == "" {
			return 0, fmt.Errorf("store: %s: message %d has no role: %w", op, i, ErrInvalid)
		}
		b, err := json.Marshal(m)
		if err != nil {
			return 0, fmt.Errorf("store: %s: encoding message %d: %w", op, i, err)
		}
		data[i] = b
		user = user || m.Role == providers.RoleUser
	}
	now := toNS(s.now())
	var last int64
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		var seq int64
		err := tx.QueryRowContext(ctx, `SELECT last_seq FROM sessions WHERE id = ?`, sessionID).Scan(&seq)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", sessionID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO messages (session_id, seq, run_id, round, role, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for i, m := range msgs {
			seq++
			if _, err := ins.ExecContext(ctx, sessionID, seq, runID, round, string(m.Role), string(data[i]), now); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET last_seq = ?, messages = messages + ?,
			last_used_at = CASE WHEN ? THEN MAX(last_used_at, ?) ELSE last_used_at END WHERE id = ?`,
			seq, len(msgs), user, now, sessionID)
		last = seq
		return err
	})
	if err != nil {
		return 0, err
	}
	return last, nil
}

// History returns every message of a session with seq >= fromSeq in
// ascending order: what a run needs to continue the session (fromSeq is the
// latest compaction's KeptFromSeq, or 1).
func (s *Store) History(ctx context.Context, sessionID string, fromSeq int64) ([]Message, error) {
	const q = `SELECT seq, run_id, round, data, created_at FROM messages
		WHERE session_id = ? AND seq >= ? ORDER BY seq`
	return s.messages(ctx, "reading the history of session "+sessionID, sessionID, false, q, sessionID, fromSeq)
}

// ReadMessages returns one page of a session: the limit (0 = 100, at most
// 1000) newest messages with seq < beforeSeq (0 = the newest), in ascending
// order. The next older page is the one before the first seq returned.
func (s *Store) ReadMessages(ctx context.Context, sessionID string, beforeSeq int64, limit int) ([]Message, error) {
	op := "reading messages of session " + sessionID
	limit, err := pageLimit(limit, DefaultMessagePage, MaxMessagePage)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	if beforeSeq <= 0 {
		beforeSeq = math.MaxInt64
	}
	const q = `SELECT seq, run_id, round, data, created_at FROM messages
		WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`
	return s.messages(ctx, op, sessionID, true, q, sessionID, beforeSeq, limit)
}

// messages runs a message query; an empty answer for a session that does
// not exist is ErrNotFound.
func (s *Store) messages(ctx context.Context, op, sessionID string, reverse bool, q string, args ...any) ([]Message, error) {
	var out []Message
	err := s.read(ctx, op, func() error {
		var err error
		out, err = s.queryMessages(ctx, sessionID, q, args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		if _, err := s.GetSession(ctx, sessionID); err != nil {
			return nil, err
		}
		return []Message{}, nil
	}
	if reverse {
		slices.Reverse(out)
	}
	return out, nil
}

// queryMessages reads and decodes the rows of q.
func (s *Store) queryMessages(ctx context.Context, sessionID, q string, args ...any) ([]Message, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Message
	var data sql.RawBytes // reused: decoding copies what it keeps
	for rows.Next() {
		m := Message{SessionID: sessionID}
		var created int64
		if err := rows.Scan(&m.Seq, &m.RunID, &m.Round, &data, &created); err != nil {
			return nil, err
		}
		// Called directly, not through json.Unmarshal, which would scan the
		// row twice more before handing it to the method.
		if err := m.Message.UnmarshalJSON(data); err != nil {
			return nil, fmt.Errorf("message %d is damaged: %w", m.Seq, err)
		}
		m.CreatedAt = fromNS(created)
		out = append(out, m)
	}
	return out, rows.Err()
}
