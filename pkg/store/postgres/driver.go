package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// writeLockKey is the transaction-scoped advisory lock every write
// transaction takes first, so writers to one database are serialised as
// SQLite serialises them (BEGIN IMMEDIATE): the shared store code reads a
// counter and writes the next value inside one transaction, which is only
// right when no other writer runs meanwhile, on any machine. The lock is
// released at COMMIT or ROLLBACK; the store's transactions last
// milliseconds. The number is arbitrary but fixed ("tavo" in ASCII).
const writeLockKey = 0x7461766f

// connector wraps pgx's database/sql connector so the store's shared SQL,
// written with `?` placeholders, runs unchanged: every query's placeholders
// become $1, $2… on the way in, and PostgreSQL's errors say which SQLite
// result code they amount to on the way out (store.CodedError).
type connector struct {
	inner driver.Connector
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &conn{Conn: dc.(*stdlib.Conn)}, nil
}

func (c connector) Driver() driver.Driver { return c.inner.Driver() }

// conn is one pooled connection: pgx's, with rebinding and error coding.
// Embedding keeps every interface pgx's connection implements (Pinger,
// SessionResetter, Validator, NamedValueChecker).
type conn struct {
	*stdlib.Conn
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	st, err := c.Conn.Prepare(Rebind(query))
	return st, coded(err)
}

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.Conn.PrepareContext(ctx, Rebind(query))
	return st, coded(err)
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	res, err := c.Conn.ExecContext(ctx, Rebind(query), args)
	return res, coded(err)
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	rows, err := c.Conn.QueryContext(ctx, Rebind(query), args)
	return rows, coded(err)
}

// BeginTx begins a transaction; one that may write takes the write lock
// first (see writeLockKey).
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil {
		return nil, coded(err)
	}
	if !opts.ReadOnly {
		if _, err := c.Conn.Conn().Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(writeLockKey)); err != nil {
			_ = tx.Rollback()
			return nil, coded(err)
		}
	}
	return codedTx{tx}, nil
}

type codedTx struct{ driver.Tx }

func (t codedTx) Commit() error   { return coded(t.Tx.Commit()) }
func (t codedTx) Rollback() error { return coded(t.Tx.Rollback()) }

// SQLite primary result codes the store classifies errors by.
const (
	sqliteBusy       = 5
	sqliteReadOnly   = 8
	sqliteFull       = 13
	sqliteConstraint = 19
)

// codedError is a PostgreSQL error with the SQLite result code it amounts
// to; it implements store.CodedError and unwraps to *pgconn.PgError.
type codedError struct {
	err  error
	code int
}

func (e *codedError) Error() string   { return e.err.Error() }
func (e *codedError) Unwrap() error   { return e.err }
func (e *codedError) SQLiteCode() int { return e.code }
func (e *codedError) PGCode() string  { return pgCode(e.err) }
func pgCode(err error) (code string) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// coded classifies err by its SQLSTATE: serialisation failures and
// deadlocks are "busy" (the store retries them), integrity violations are
// constraint errors, a full disk is SQLITE_FULL. Others pass unchanged.
func coded(err error) error {
	code := pgCode(err)
	if code == "" {
		return err
	}
	var c int
	switch {
	case code == "40001", code == "40P01", code == "55P03":
		c = sqliteBusy
	case strings.HasPrefix(code, "23"):
		c = sqliteConstraint
	case code == "53100":
		c = sqliteFull
	case code == "25006":
		c = sqliteReadOnly
	default:
		return err
	}
	return &codedError{err: err, code: c}
}

// Rebind turns the `?` placeholders of query into PostgreSQL's $1, $2…,
// leaving alone question marks inside string literals, quoted identifiers
// and comments.
func Rebind(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		ch := query[i]
		switch {
		case ch == '\'' || ch == '"':
			j := i + 1
			for j < len(query) {
				if query[j] == ch {
					if j+1 < len(query) && query[j+1] == ch { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(query))
			b.WriteString(query[i:end])
			i = end - 1
		case ch == '-' && i+1 < len(query) && query[i+1] == '-':
			j := strings.IndexByte(query[i:], '\n')
			if j < 0 {
				j = len(query) - i
			}
			b.WriteString(query[i : i+j])
			i += j - 1
		case ch == '/' && i+1 < len(query) && query[i+1] == '*':
			j := strings.Index(query[i+2:], "*/")
			end := len(query)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			b.WriteString(query[i:end])
			i = end - 1
		case ch == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
