package catalog

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// On Postgres the driver (pgdriver) writes a statement's arguments into
// its text and sends it with the simple protocol, so the server parsed and
// planned every hot statement anew on every turn. There the hot statements
// run as prepared statements instead: database/sql's *sql.Stmt prepares a
// statement once on each pooled connection it runs on and keeps it, and
// pgdriver sends a prepared statement's Bind, Execute and Sync in one
// write, so it stays one round trip. SQLite keeps its own per-connection
// statements (catalog/sqliteconn).

// maxPreparedPerDB bounds the statement texts kept prepared per pool: the
// hot statements are a handful, each in a few shapes (a turn saves 1 to
// about 12 messages; each count is its own text).
const maxPreparedPerDB = 256

// preparedKey names a statement text of one pool.
type preparedKey struct {
	db    *sql.DB
	query string
}

// prepared maps preparedKey → *sql.Stmt, or nil for a text Postgres
// would not prepare (it then runs unprepared, as before).
var prepared sync.Map

// preparedCounts counts the texts kept per pool (*sql.DB → *atomic.Int32).
var preparedCounts sync.Map

// stmtFor returns db's prepared statement for query, preparing it the
// first time; nil when it is not kept (too many texts, or Postgres
// refused to prepare it: the caller then sends it unprepared).
func stmtFor(ctx context.Context, db *sql.DB, query string) *sql.Stmt {
	key := preparedKey{db, query}
	if v, ok := prepared.Load(key); ok {
		return v.(*sql.Stmt)
	}
	n, _ := preparedCounts.LoadOrStore(db, new(atomic.Int32))
	if n.(*atomic.Int32).Load() >= maxPreparedPerDB {
		return nil
	}
	st, err := db.PrepareContext(context.WithoutCancel(ctx), query)
	if err != nil {
		st = nil // e.g. a parameter whose type Postgres cannot infer
	}
	v, loaded := prepared.LoadOrStore(key, st)
	if loaded {
		if st != nil {
			st.Close()
		}
		return v.(*sql.Stmt)
	}
	n.(*atomic.Int32).Add(1)
	return st
}

// preparedPool runs hot statements on a Postgres pool through prepared
// statements.
type preparedPool struct{ db *sql.DB }

func (p preparedPool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if len(args) > 0 {
		if st := stmtFor(ctx, p.db, query); st != nil {
			return st.ExecContext(ctx, args...)
		}
	}
	return p.db.ExecContext(ctx, query, args...)
}

func (p preparedPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if len(args) > 0 {
		if st := stmtFor(ctx, p.db, query); st != nil {
			return st.QueryContext(ctx, args...)
		}
	}
	return p.db.QueryContext(ctx, query, args...)
}

// preparedTx runs hot statements in a Postgres transaction through the
// pool's prepared statements (kept on the transaction's connection).
type preparedTx struct {
	db *sql.DB
	tx *sql.Tx
}

func (p preparedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if len(args) > 0 {
		if st := stmtFor(ctx, p.db, query); st != nil {
			return p.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
		}
	}
	return p.tx.ExecContext(ctx, query, args...)
}

func (p preparedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if len(args) > 0 {
		if st := stmtFor(ctx, p.db, query); st != nil {
			return p.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
		}
	}
	return p.tx.QueryContext(ctx, query, args...)
}

// preparedHandle returns the handle hot statements use on db: prepared
// ones on Postgres, h itself elsewhere.
func preparedHandle(db bun.IDB, h sqlHandle) sqlHandle {
	if db.Dialect().Name() != dialect.PG {
		return h
	}
	switch h := h.(type) {
	case *sql.DB:
		return preparedPool{h}
	case *sql.Tx:
		return preparedTx{db: db.NewSelect().DB().DB, tx: h}
	}
	return h
}
