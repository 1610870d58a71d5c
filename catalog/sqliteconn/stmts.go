package sqliteconn

import (
	"context"
	"database/sql/driver"
	"strings"
	"sync"
)

// bun writes every argument into the SQL text, so SQLite parses each of
// its statements anew: about a tenth of a chat turn's CPU went to SQLite's
// parser. The few statements every turn runs (catalog/hot.go) are written
// with $N placeholders and sent with their arguments instead, and each
// SQLite connection keeps those prepared, by SQL text: the second time,
// SQLite only binds and steps. Statements without arguments (all of bun's) are
// not kept, as their text is rarely seen twice.

// maxCachedStmts bounds a connection's prepared statements; the hot ones
// are a handful, each in a few shapes (a turn saves 1 to 12 messages).
const maxCachedStmts = 64

// stmtCache is one connection's prepared statements. database/sql hands a
// connection to one goroutine at a time, so it needs no lock.
type stmtCache struct {
	m map[string]*cachedStmt
}

// cachedStmt is a prepared statement and whether rows still read from it:
// the same text asked for again while they do gets a statement of its own.
type cachedStmt struct {
	stmt interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	}
	busy bool
}

// get returns the prepared statement for query, preparing it on conn the
// first time; nil when it is busy or the driver's statement cannot run
// with a context (then the caller runs query the uncached way).
func (c *stmtCache) get(ctx context.Context, conn driver.ConnPrepareContext, query string) (*cachedStmt, error) {
	if s, ok := c.m[query]; ok {
		if s.busy {
			return nil, nil
		}
		return s, nil
	}
	st, err := conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s := &cachedStmt{}
	var ok bool
	if s.stmt, ok = st.(interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	}); !ok {
		st.Close()
		return nil, nil
	}
	if c.m == nil {
		c.m = make(map[string]*cachedStmt)
	}
	if len(c.m) >= maxCachedStmts {
		c.close() // rare: more shapes than expected; start over
	}
	c.m[query] = s
	return s, nil
}

// close finalizes every statement kept.
func (c *stmtCache) close() {
	for q, s := range c.m {
		if !s.busy {
			s.stmt.Close()
		}
		// a busy one is closed with its rows (cachedRows.Close)
		delete(c.m, q)
	}
}

// cachedRows marks its statement free again when closed, and closes it if
// the cache dropped it meanwhile.
type cachedRows struct {
	driver.Rows
	s       *cachedStmt
	dropped func() bool
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.s.busy = false
	if r.dropped() {
		r.s.stmt.Close()
	}
	return err
}

// QueryContext runs a query; one that writes (INSERT … RETURNING)
// outside a transaction holds the write slot until its rows are closed,
// which is when SQLite commits it.
func (c *queuedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.inTx || !writes(query) {
		return c.query(ctx, query, args)
	}
	if err := c.q.acquire(ctx); err != nil {
		return nil, err
	}
	rows, err := c.query(ctx, query, args)
	if err != nil {
		c.q.release()
		return nil, err
	}
	return &slotRows{Rows: rows, release: c.q.release}, nil
}

// writes reports whether query starts with a statement that writes.
func writes(query string) bool {
	query = strings.TrimLeft(query, " \t\r\n")
	for _, verb := range []string{"INSERT", "UPDATE", "DELETE", "REPLACE"} {
		if len(query) >= len(verb) && strings.EqualFold(query[:len(verb)], verb) {
			return true
		}
	}
	return false
}

// slotRows releases the write slot once, when closed.
type slotRows struct {
	driver.Rows
	release func()
	once    sync.Once
}

func (r *slotRows) Close() error {
	defer r.once.Do(r.release)
	return r.Rows.Close()
}

func (c *queuedConn) query(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if len(args) == 0 {
		return c.sqliteConn.QueryContext(ctx, query, args)
	}
	s, err := c.stmts.get(ctx, c.sqliteConn, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.sqliteConn.QueryContext(ctx, query, args)
	}
	rows, err := s.stmt.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	s.busy = true
	return &cachedRows{Rows: rows, s: s, dropped: func() bool { return c.stmts.m[query] != s }}, nil
}

// exec runs a statement executed with arguments on its prepared statement.
func (c *queuedConn) exec(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if len(args) == 0 {
		return c.sqliteConn.ExecContext(ctx, query, args)
	}
	s, err := c.stmts.get(ctx, c.sqliteConn, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.sqliteConn.ExecContext(ctx, query, args)
	}
	return s.stmt.ExecContext(ctx, args)
}

func (c *queuedConn) Close() error {
	c.stmts.close()
	return c.sqliteConn.Close()
}
