package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// The statement cache keeps one prepared statement per SQL text and
// connection, never runs a statement again while its rows are open, and
// stays within its bound when SQL is built at run time.
func TestStatementCache(t *testing.T) {
	ctx := context.Background()
	db, err := openSQLite("file:" + filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection: every statement meets its cache
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	mustExec := func(q string, args ...any) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	mustExec(`CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)`)
	for i := range 3 {
		mustExec(`INSERT INTO t (k, v) VALUES (?, ?)`, i, fmt.Sprint("v", i))
	}
	cc := cachedConn(t, conn)
	if n := len(cc.stmts); n != 2 {
		t.Fatalf("%d cached statements after 2 distinct ones run 4 times, want 2", n)
	}

	// The same query inside its own open rows: the inner one cannot reuse
	// the statement (it would reset the outer rows) and runs uncached.
	const q = `SELECT k, v FROM t ORDER BY k`
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var outer []string
	for rows.Next() {
		var k int
		var v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+q+`)`).Scan(&n); err != nil || n != 3 {
			t.Fatalf("inner count %d, %v", n, err)
		}
		inner, err := conn.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		c := 0
		for inner.Next() && c <= 3 {
			c++
		}
		inner.Close()
		if c != 3 {
			t.Fatalf("inner query saw %d rows, want 3", c)
		}
		outer = append(outer, v)
		if len(outer) > 3 {
			t.Fatalf("outer rows restarted: %v", outer)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if fmt.Sprint(outer) != "[v0 v1 v2]" {
		t.Fatalf("outer rows %v, want [v0 v1 v2]: the inner query disturbed them", outer)
	}

	// SQL built at run time: the cache stays bounded and keeps working.
	for i := range stmtCacheSize + 10 {
		var n int
		if err := conn.QueryRowContext(ctx, fmt.Sprintf(`SELECT COUNT(*) + %d FROM t`, i)).Scan(&n); err != nil || n != 3+i {
			t.Fatalf("query %d: %d, %v", i, n, err)
		}
	}
	if n := len(cc.stmts); n > stmtCacheSize || cc.lru.Len() != n {
		t.Fatalf("%d cached statements (list %d), bound %d", n, cc.lru.Len(), stmtCacheSize)
	}
	// An error in a cached statement leaves it usable.
	if _, err := conn.ExecContext(ctx, `INSERT INTO t (k, v) VALUES (?, ?)`, 1, "dup"); err == nil {
		t.Fatal("duplicate key accepted")
	}
	mustExec(`INSERT INTO t (k, v) VALUES (?, ?)`, 7, "v7")
}

// cachedConn returns the caching connection under conn.
func cachedConn(t *testing.T, conn *sql.Conn) *cachingConn {
	t.Helper()
	var cc *cachingConn
	if err := conn.Raw(func(dc any) error {
		var ok bool
		cc, ok = dc.(*cachingConn)
		if !ok {
			return fmt.Errorf("driver connection is %T", dc)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return cc
}
