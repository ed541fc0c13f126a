// Package postgres is the store's fleet engine: every piece of tavo's
// state in one PostgreSQL database that many processes on many machines
// share (SPEC §15), through github.com/jackc/pgx/v5.
//
// The store's SQL is shared with the embedded SQLite engine: it runs
// through pgx's database/sql adapter, with `?` placeholders rebound to $n
// and every write transaction serialised by an advisory lock (driver.go).
// What differs lives here: the PostgreSQL schema and its migrations
// (migrations.go), session leases with a heartbeat in place of file locks
// (lease.go), LISTEN/NOTIFY for cancel requests and new journal lines
// (notify.go), and tsvector search for memory.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tavo-cli/tavo/pkg/store"
)

// DefaultLeaseTTL is how long a session lease lives without a heartbeat: a
// holder that died (kill -9, a lost machine) frees its session this long
// after its last heartbeat, well within SPEC §15's 30 s.
const DefaultLeaseTTL = 15 * time.Second

// pollEvery is how often a running run also reads its cancel flag itself,
// in case a notification was lost with a dropped connection.
const pollEvery = 5 * time.Second

// Options tune an Engine; the zero value is the product's.
type Options struct {
	// LeaseTTL is a session lease's life without a heartbeat (0:
	// DefaultLeaseTTL). Heartbeats come every third of it.
	LeaseTTL time.Duration
	// PollEvery is how often a running run also reads its cancel flag
	// itself (0: every 5 s), the safety net under LISTEN/NOTIFY.
	PollEvery time.Duration
}

// Engine is a PostgreSQL database as a store.Engine.
type Engine struct {
	cfg      *pgx.ConnConfig
	db       *sql.DB
	location string
	password string
	ttl      time.Duration
	poll     time.Duration

	notifyOnce sync.Once
	listener   *listener
}

// IsURL reports whether s names a PostgreSQL store: a postgres:// or
// postgresql:// URL.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database at connString (a postgres:// URL; libpq's
// conventions apply: PGHOST, PGUSER, PGPASSWORD, PGSSLMODE and the other
// PG* variables fill in what it leaves out, ~/.pgpass is read, and TLS
// options such as sslmode, sslrootcert, sslcert and sslkey pass through)
// and checks that it answers. No error it returns contains the password.
func Open(ctx context.Context, connString string, opts Options) (*Engine, error) {
	cfg, err := pgx.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("store: the PostgreSQL URL %s is not valid: %s: %w", Redact(connString), scrub(err.Error(), passwordOf(connString)), store.ErrInvalid)
	}
	e := &Engine{cfg: cfg, location: describe(cfg), password: cfg.Password, ttl: opts.LeaseTTL}
	if e.ttl <= 0 {
		e.ttl = DefaultLeaseTTL
	}
	e.poll = opts.PollEvery
	if e.poll <= 0 {
		e.poll = pollEvery
	}
	e.db = sql.OpenDB(connector{inner: stdlib.GetConnector(*cfg)})
	e.db.SetMaxOpenConns(8)
	e.db.SetMaxIdleConns(8)
	e.db.SetConnMaxIdleTime(time.Minute)
	if err := e.db.PingContext(ctx); err != nil {
		e.db.Close()
		return nil, e.errorf("connecting to %s: %w", e.location, err)
	}
	return e, nil
}

// Name is "postgres".
func (e *Engine) Name() string { return "postgres" }

// Location is the database's URL without its password.
func (e *Engine) Location() string { return e.location }

// DB is the database/sql handle the shared store SQL runs on.
func (e *Engine) DB() *sql.DB { return e.db }

// PollEvery is the safety-net poll of a run's cancel flag.
func (e *Engine) PollEvery() time.Duration { return e.poll }

// Reclaim does nothing: PostgreSQL's autovacuum gives deleted rows' space
// back to the tables by itself.
func (e *Engine) Reclaim(context.Context) {}

// Close stops listening and closes the connections.
func (e *Engine) Close() error {
	if e.listener != nil {
		e.listener.close()
	}
	if err := e.db.Close(); err != nil {
		return e.errorf("closing %s: %w", e.location, err)
	}
	return nil
}

// MemorySearch matches each word of text as a word or the start of one
// (a prefix query over the notes' tsvector, 'simple' configuration: no
// stemming, as FTS5's unicode61), any word sufficing, ranked by ts_rank
// negated so that lower sorts first as the store expects. Words are folded
// as the notes are (foldDiacritics), so accents never matter.
func (e *Engine) MemorySearch(text string) (string, any) {
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return "", nil
	}
	if len(words) > 32 {
		words = words[:32]
	}
	for i, w := range words {
		// Letters and digits only: nothing here is tsquery syntax.
		words[i] = "'" + strings.ToLower(foldDiacritics(w)) + "':*"
	}
	return `SELECT m.id, m.content, m.created_at, m.updated_at, -ts_rank(m.search, q) AS rank
		FROM memory_items m, to_tsquery('simple', ?) q
		WHERE m.search @@ q ORDER BY rank, m.pos, m.id LIMIT ?`, strings.Join(words, " | ")
}

// errorf is fmt.Errorf with the password taken out of the message, should
// a driver ever quote it; the wrapped error is kept for errors.Is.
func (e *Engine) errorf(format string, args ...any) error {
	err := fmt.Errorf("store: "+format, args...)
	if e.password == "" || !strings.Contains(err.Error(), e.password) {
		return err
	}
	return &scrubbed{msg: scrub(err.Error(), e.password), err: err}
}

type scrubbed struct {
	msg string
	err error
}

func (s *scrubbed) Error() string { return s.msg }
func (s *scrubbed) Unwrap() error { return errors.Unwrap(s.err) }

func scrub(msg, password string) string {
	if password == "" {
		return msg
	}
	return strings.ReplaceAll(msg, password, "xxxxx")
}

// passwordOf is the password a URL spells out, "" when none.
func passwordOf(connString string) string {
	u, err := url.Parse(connString)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}

// Redact is connString with any password replaced by "xxxxx", for
// messages; a string that does not parse as a URL is shown only by its
// scheme.
func Redact(connString string) string {
	u, err := url.Parse(connString)
	if err != nil {
		if i := strings.Index(connString, "://"); i > 0 {
			return connString[:i] + "://…"
		}
		return "(unparsable store URL)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// describe is where cfg points, as a URL without password: user, host,
// port and database, whatever the PG* variables filled in.
func describe(cfg *pgx.ConnConfig) string {
	host := cfg.Host
	if strings.HasPrefix(host, "/") {
		// A Unix socket directory.
		return fmt.Sprintf("postgres://%s@/%s?host=%s", url.PathEscape(cfg.User), url.PathEscape(cfg.Database), url.QueryEscape(host))
	}
	return fmt.Sprintf("postgres://%s@%s/%s", url.PathEscape(cfg.User), joinHostPort(host, cfg.Port), url.PathEscape(cfg.Database))
}

func joinHostPort(host string, port uint16) string {
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + ":" + strconv.Itoa(int(port))
}

// ResetIdentity points table's identity column past its largest id, after
// a copy inserted rows with their ids (store.IdentityResetter).
func (e *Engine) ResetIdentity(ctx context.Context, tx *sql.Tx, table, column string) error {
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX(`+column+`) FROM `+table+`), 0) + 1, false)`, table, column)
	return err
}
