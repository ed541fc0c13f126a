package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tavo-cli/tavo/pkg/search"
)

// Audit kinds written by tavo (search attempts, fetches, tool calls).
// RecordAudit accepts other kinds too.
const (
	AuditSearch = "search"
	AuditFetch  = "fetch"
	AuditTool   = "tool"
)

// Page sizes of ListAudit.
const (
	DefaultAuditPage = 50
	MaxAuditPage     = 500
)

// AuditRow is one audit record.
type AuditRow struct {
	ID   int64           `json:"id"`
	Kind string          `json:"kind"`
	Time time.Time       `json:"time"`
	Data json.RawMessage `json:"data"`
}

var _ search.Auditor = (*Store)(nil)

// RecordSearch stores one search attempt; it implements search.Auditor.
func (s *Store) RecordSearch(ctx context.Context, rec search.SearchRecord) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("store: encoding a search record: %w", err)
	}
	return s.RecordAudit(ctx, AuditSearch, rec.Time, data)
}

// RecordAudit stores one audit record of a kind ("fetch", "tool", …):
// data is its JSON object, at its time (zero means now).
func (s *Store) RecordAudit(ctx context.Context, kind string, at time.Time, data json.RawMessage) error {
	op := "storing a " + kind + " audit record"
	if err := checkAudit(kind, data); err != nil {
		return err
	}
	if at.IsZero() {
		at = s.now()
	}
	return s.write(ctx, op, func(tx *sql.Tx) error {
		return insertAudits(ctx, tx, []auditLine{{kind: kind, at: toNS(at), data: string(data)}})
	})
}

// checkAudit refuses an audit record without a kind or whose data is not
// JSON, as RecordAudit and Lease.Audit take them.
func checkAudit(kind string, data json.RawMessage) error {
	if kind == "" {
		return fmt.Errorf("store: storing an audit record: no kind: %w", ErrInvalid)
	}
	if !json.Valid(data) {
		return fmt.Errorf("store: storing a %s audit record: the data is not valid JSON: %w", kind, ErrInvalid)
	}
	return nil
}

// ListAudit returns up to limit (0 = 50, at most 500) audit records of one
// kind ("" = all), newest first; next is the following page's cursor.
func (s *Store) ListAudit(ctx context.Context, kind string, limit int, cursor string) ([]AuditRow, string, error) {
	limit, err := pageLimit(limit, DefaultAuditPage, MaxAuditPage)
	if err != nil {
		return nil, "", fmt.Errorf("store: listing audit records: %w", err)
	}
	after, _, err := decodeCursor("aud", cursor)
	if err != nil {
		return nil, "", fmt.Errorf("store: listing audit records: %w", err)
	}
	q := `SELECT id, kind, time, data FROM audit WHERE 1 = 1`
	var args []any
	if kind != "" {
		q += ` AND kind = ?`
		args = append(args, kind)
	}
	if cursor != "" {
		q += ` AND id < ?`
		args = append(args, after)
	}
	q += ` ORDER BY id DESC LIMIT ?`
	args = append(args, limit+1)
	out, err := queryAll(ctx, s, "listing audit records", q, args, func(rows *sql.Rows) (AuditRow, error) {
		var r AuditRow
		var at int64
		var data string
		err := rows.Scan(&r.ID, &r.Kind, &at, &data)
		r.Time, r.Data = fromNS(at), json.RawMessage(data)
		return r, err
	})
	if err != nil {
		return nil, "", err
	}
	out, next := cutPage(out, limit, func(last AuditRow) string { return encodeCursor("aud", last.ID, "") })
	return out, next, nil
}

// ClearAudit removes audit records of one kind ("" = all) older than
// before (zero = all of them) and returns how many it removed.
func (s *Store) ClearAudit(ctx context.Context, kind string, before time.Time) (int64, error) {
	q := `DELETE FROM audit WHERE 1 = 1`
	var args []any
	if kind != "" {
		q += ` AND kind = ?`
		args = append(args, kind)
	}
	if !before.IsZero() {
		q += ` AND time < ?`
		args = append(args, toNS(before))
	}
	var n int64
	err := s.write(ctx, "clearing audit records", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}
