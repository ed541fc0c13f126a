package store

import (
	"container/list"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"modernc.org/sqlite"
)

// stmtCacheSize is how many prepared statements each SQLite connection
// keeps. The store sends a few dozen distinct statements; the bound only
// matters for SQL built at run time (IN lists of varying length).
const stmtCacheSize = 128

// openSQLite opens a pool of SQLite connections on dsn whose connections
// keep their prepared statements. modernc's driver parses and plans every
// statement each time it is run, and the SQL parser was a tenth of the CPU
// of a run tree's writes; a statement prepared once per connection and
// reset between uses costs none of that.
func openSQLite(dsn string) (*sql.DB, error) {
	inner, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return sql.OpenDB(cachingConnector{inner: inner}), nil
}

type cachingConnector struct {
	inner driver.Connector
}

func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newCachingConn(dc)
}

func (c cachingConnector) Driver() driver.Driver { return c.inner.Driver() }

// sqliteConn is what the cache needs of modernc's connection; it implements
// all of it.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// cachingConn is one pooled connection with its statements. database/sql
// uses a connection from one goroutine at a time, so it needs no lock.
type cachingConn struct {
	sqliteConn
	stmts map[string]*list.Element // of *cachedStmt
	lru   list.List                // front: the most recently used
}

type cachedStmt struct {
	query string
	stmt  driver.Stmt
	// busy: a result set of the statement is still open; running the
	// statement again would reset it under its reader.
	busy bool
}

func newCachingConn(dc driver.Conn) (driver.Conn, error) {
	c, ok := dc.(sqliteConn)
	if !ok {
		dc.Close()
		return nil, errors.New("store: the SQLite driver's connection lacks an interface the store needs")
	}
	return &cachingConn{sqliteConn: c, stmts: map[string]*list.Element{}}, nil
}

// stmt returns query's cached statement, preparing and caching it first
// when needed, or nil when the cached one is in use or the cache is full of
// statements in use (the caller then runs query uncached).
func (c *cachingConn) stmt(ctx context.Context, query string) (*cachedStmt, error) {
	if e, ok := c.stmts[query]; ok {
		cs := e.Value.(*cachedStmt)
		if cs.busy {
			return nil, nil
		}
		c.lru.MoveToFront(e)
		return cs, nil
	}
	if c.lru.Len() >= stmtCacheSize && !c.evict() {
		return nil, nil
	}
	st, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	cs := &cachedStmt{query: query, stmt: st}
	c.stmts[query] = c.lru.PushFront(cs)
	return cs, nil
}

// evict closes the least recently used statement not in use, and reports
// whether there was one.
func (c *cachingConn) evict() bool {
	for e := c.lru.Back(); e != nil; e = e.Prev() {
		cs := e.Value.(*cachedStmt)
		if cs.busy {
			continue
		}
		c.lru.Remove(e)
		delete(c.stmts, cs.query)
		cs.stmt.Close()
		return true
	}
	return false
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	cs, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.sqliteConn.ExecContext(ctx, query, args)
	}
	return cs.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	cs, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.sqliteConn.QueryContext(ctx, query, args)
	}
	rows, err := cs.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	cs.busy = true
	return &cachedRows{Rows: rows, cs: cs}, nil
}

// Close closes the cached statements, then the connection.
func (c *cachingConn) Close() error {
	for e := c.lru.Front(); e != nil; e = e.Next() {
		e.Value.(*cachedStmt).stmt.Close()
	}
	c.lru.Init()
	c.stmts = nil
	return c.sqliteConn.Close()
}

// cachedRows is a result set of a cached statement: closing it frees the
// statement for its next use.
type cachedRows struct {
	driver.Rows
	cs *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.cs.busy = false
	return err
}
