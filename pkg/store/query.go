package store

import (
	"context"
	"database/sql"
)

// queryAll runs q, retrying while the database is busy, and returns what
// scan makes of each row; the slice is never nil.
func queryAll[T any](ctx context.Context, s *Store, op, q string, args []any, scan func(*sql.Rows) (T, error)) ([]T, error) {
	var out []T
	err := s.read(ctx, op, func() error {
		out = out[:0]
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v, err := scan(rows)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []T{}
	}
	return out, nil
}

// cutPage trims rows fetched with LIMIT limit+1 to one page and returns the
// cursor of the next page, "" when this is the last.
func cutPage[T any](rows []T, limit int, cursor func(last T) string) ([]T, string) {
	if len(rows) <= limit {
		return rows, ""
	}
	rows = rows[:limit]
	return rows, cursor(rows[limit-1])
}
