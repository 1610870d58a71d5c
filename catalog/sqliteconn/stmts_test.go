package sqliteconn

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"
)

// cached reports how many statements conn keeps prepared.
func cached(t *testing.T, conn *sql.Conn) int {
	t.Helper()
	n := -1
	if err := conn.Raw(func(dc any) error {
		n = len(dc.(*queuedConn).stmts.m)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// oneConn is one connection of a queuedDB, closed when t ends.
func oneConn(t *testing.T) *sql.Conn {
	conn, err := queuedDB(t, 10*time.Second).Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// A statement run with arguments is kept prepared and reused; one
// without arguments is not kept.
func TestStmtCacheKeepsStatementsWithArguments(t *testing.T) {
	ctx := context.Background()
	conn := oneConn(t)
	for i := range 3 {
		if _, err := conn.ExecContext(ctx, `UPDATE n SET v = v + $1`, 2); err != nil {
			t.Fatal(err)
		}
		var v int
		if err := conn.QueryRowContext(ctx, `SELECT v * $1 FROM n`, 10).Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != (i+1)*20 {
			t.Fatalf("round %d: v×10 = %d", i, v)
		}
	}
	if _, err := conn.ExecContext(ctx, `UPDATE n SET v = v`); err != nil {
		t.Fatal(err)
	}
	if n := cached(t, conn); n != 2 {
		t.Fatalf("%d statements kept, want 2", n)
	}
}

// The same text asked for while rows still read from its statement runs
// on a statement of its own; both read what they should.
func TestStmtCacheBusyStatement(t *testing.T) {
	db := queuedDB(t, 10*time.Second)
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const q = `SELECT v + $1 FROM n UNION ALL SELECT v + $1 + 1 FROM n`
	outer, err := tx.QueryContext(ctx, q, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for outer.Next() {
		var v, w int
		if err := outer.Scan(&v); err != nil {
			t.Fatal(err)
		}
		if err := tx.QueryRowContext(ctx, q, 5).Scan(&w); err != nil {
			t.Fatal(err)
		}
		got = append(got, v, w)
	}
	if err := outer.Close(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[100 5 101 5]" {
		t.Fatalf("read %v", got)
	}
	// Free again, the kept statement serves the next query.
	var v int
	if err := tx.QueryRowContext(ctx, q, 7).Scan(&v); err != nil || v != 7 {
		t.Fatalf("after: %d, %v", v, err)
	}
}

// More shapes than maxCachedStmts: the cache starts over, a statement
// whose rows are open when it does is closed with them, and every query
// still answers.
func TestStmtCacheBound(t *testing.T) {
	ctx := context.Background()
	conn := oneConn(t)
	open, err := conn.QueryContext(ctx, `SELECT v + $1 FROM n`, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range maxCachedStmts + 5 {
		var v int
		if err := conn.QueryRowContext(ctx, fmt.Sprintf(`SELECT v + $1 + %d FROM n`, i), 1).Scan(&v); err != nil || v != i+1 {
			t.Fatalf("shape %d: %d, %v", i, v, err)
		}
	}
	if n := cached(t, conn); n > maxCachedStmts {
		t.Fatalf("%d statements kept, bound %d", n, maxCachedStmts)
	}
	if !open.Next() {
		t.Fatal("rows opened before the cache started over were lost")
	}
	var v int
	if err := open.Scan(&v); err != nil || v != 1 {
		t.Fatalf("%d, %v", v, err)
	}
	if err := open.Close(); err != nil {
		t.Fatal(err)
	}
}
