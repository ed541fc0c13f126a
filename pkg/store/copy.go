package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// CopyTables are the store's tables in the order a copy fills them
// (parents before children). A new table joins this list, or `tavo store
// copy` leaves it behind (docs/store.md).
var CopyTables = []string{
	"sessions", "messages", "runs", "events", "compactions", "audit", "variables",
	"todos", "kv", "artifacts", "memory_items", "retained_attachments", "goals", "loops",
}

// nonEmptyTables are the tables whose rows make a store "not empty" for a
// copy: kv is left out, since opening a store may write bookkeeping there.
var nonEmptyTables = []string{"sessions", "runs", "audit", "variables", "memory_items", "artifacts", "goals", "loops"}

// TableCopy is what a copy did to one table: rows copied and the checksum
// that both stores gave for it (SHA-256 over the sorted hashes of the rows'
// values, so it does not depend on either engine's row order).
type TableCopy struct {
	Table  string `json:"table"`
	Rows   int64  `json:"rows"`
	SHA256 string `json:"sha256"`
}

// IdentityResetter is implemented by engines whose identity columns must
// be told the largest id after rows were inserted with explicit ids
// (PostgreSQL's sequences); SQLite needs nothing.
type IdentityResetter interface {
	ResetIdentity(ctx context.Context, tx *sql.Tx, table, column string) error
}

// identityColumns are the tables whose id the database assigns.
var identityColumns = map[string]string{"compactions": "id", "audit": "id", "memory_items": "id"}

// Empty reports whether the store holds no sessions, runs, audit rows,
// variables, memory or artifacts.
func (s *Store) Empty(ctx context.Context) (bool, error) {
	for _, t := range nonEmptyTables {
		var one int
		err := s.db.QueryRowContext(ctx, `SELECT 1 FROM `+t+` LIMIT 1`).Scan(&one)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return false, s.dbError("checking whether the store is empty", err)
		}
		return false, nil
	}
	return true, nil
}

// CopyTo copies every table of CopyTables from s into dst in one write
// transaction of dst, then checks that both hold the same rows (count and
// checksum per table). A dst that is not Empty is refused (ErrInvalid)
// unless replace is set, in which case its rows are deleted first, in the
// same transaction. On any error dst is left as it was.
func (s *Store) CopyTo(ctx context.Context, dst *Store, replace bool) ([]TableCopy, error) {
	empty, err := dst.Empty(ctx)
	if err != nil {
		return nil, err
	}
	if !empty && !replace {
		return nil, fmt.Errorf("store: copying to %s: it is not empty; use --force to replace what it holds: %w", dst.Location(), ErrInvalid)
	}
	op := "copying the store to " + dst.Location()
	err = dst.write(ctx, op, func(tx *sql.Tx) error {
		if replace {
			for _, t := range slices.Backward(CopyTables) {
				if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil {
					return fmt.Errorf("emptying %s: %w", t, err)
				}
			}
		}
		for _, t := range CopyTables {
			if err := s.copyTable(ctx, tx, t); err != nil {
				return fmt.Errorf("table %s: %w", t, err)
			}
			if col, ok := identityColumns[t]; ok {
				if r, ok := dst.engine().(IdentityResetter); ok {
					if err := r.ResetIdentity(ctx, tx, t, col); err != nil {
						return fmt.Errorf("table %s: %w", t, err)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []TableCopy
	for _, t := range CopyTables {
		cols, err := s.columns(ctx, t)
		if err != nil {
			return nil, err
		}
		n1, sum1, err := s.tableSum(ctx, t, cols)
		if err != nil {
			return nil, err
		}
		n2, sum2, err := dst.tableSum(ctx, t, cols)
		if err != nil {
			return nil, err
		}
		if n1 != n2 || sum1 != sum2 {
			return nil, fmt.Errorf("store: %s: table %s differs after the copy (%d rows, sha256 %s; copy: %d rows, sha256 %s)", op, t, n1, sum1[:12], n2, sum2[:12])
		}
		out = append(out, TableCopy{Table: t, Rows: n1, SHA256: sum1})
	}
	return out, nil
}

// columns are table's column names in s.
func (s *Store) columns(ctx context.Context, table string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT * FROM `+table+` LIMIT 0`)
	if err != nil {
		return nil, s.dbError("reading the columns of "+table, err)
	}
	defer rows.Close()
	return rows.Columns()
}

// copyRows is how many rows one INSERT of a copy carries.
const copyRows = 100

func (s *Store) copyTable(ctx context.Context, tx *sql.Tx, table string) error {
	cols, err := s.columns(ctx, table)
	if err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+table)
	if err != nil {
		return err
	}
	defer rows.Close()
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	var batch []any
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n := len(batch) / len(cols)
		q := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES ` +
			strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
		_, err := tx.ExecContext(ctx, q, batch...)
		batch = batch[:0]
		return err
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		batch = append(batch, vals...)
		if len(batch) >= copyRows*len(cols) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return flush()
}

// tableSum counts table's rows and checksums their values in cols.
func (s *Store) tableSum(ctx context.Context, table string, cols []string) (int64, string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+table)
	if err != nil {
		return 0, "", s.dbError("checksumming "+table, err)
	}
	defer rows.Close()
	var sums [][32]byte
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b bytes.Buffer
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, "", s.dbError("checksumming "+table, err)
		}
		b.Reset()
		for _, v := range vals {
			canonical(&b, v)
		}
		sums = append(sums, sha256.Sum256(b.Bytes()))
	}
	if err := rows.Err(); err != nil {
		return 0, "", s.dbError("checksumming "+table, err)
	}
	slices.SortFunc(sums, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	for _, x := range sums {
		h.Write(x[:])
	}
	return int64(len(sums)), hex.EncodeToString(h.Sum(nil)), nil
}

// canonical writes v so that equal values from either engine write equal
// bytes: text and blobs alike as length-prefixed bytes, integers in
// decimal.
func canonical(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("n;")
	case int64:
		b.WriteString("i" + strconv.FormatInt(x, 10) + ";")
	case float64:
		b.WriteString("f" + strconv.FormatFloat(x, 'g', -1, 64) + ";")
	case bool:
		if x {
			b.WriteString("i1;")
		} else {
			b.WriteString("i0;")
		}
	case string:
		b.WriteString("b" + strconv.Itoa(len(x)) + ":" + x)
	case []byte:
		b.WriteString("b" + strconv.Itoa(len(x)) + ":")
		b.Write(x)
	default:
		fmt.Fprintf(b, "?%v;", x)
	}
}
