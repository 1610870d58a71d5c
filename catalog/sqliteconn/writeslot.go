package sqliteconn

import (
	"context"
	"database/sql/driver"
	"errors"
	"sync"
	"time"
)

// SQLite has one writer at a time. A connection that finds the write lock
// taken waits in SQLite's busy handler, which sleeps 1, 2, 5, 10… ms
// between attempts: under many concurrent chats the cores idle while
// writers sleep, and a turn's tail latency grows by those sleeps. So this
// process queues its own writers in Go instead: a write transaction (every
// transaction is one: _txlock=immediate) and a statement executed outside
// one (an Exec, or a query that writes: INSERT … RETURNING) first take the
// process's write slot, which is handed straight to the
// next waiter when released. The busy handler still arbitrates between
// processes sharing the file.

// NewConnector wraps the SQLite driver's connector (modernc.org/sqlite's,
// opened with _txlock=immediate) so that its connections take one write
// slot shared by all of them and keep their hot statements prepared
// (stmts.go). writeWait bounds a writer's wait for the slot; give it the
// busy_timeout the DSN sets, which it stands in for. A connection of
// another driver is passed through unchanged.
func NewConnector(sqlite driver.Connector, writeWait time.Duration) driver.Connector {
	return queuedConnector{Connector: sqlite, q: newWriterQueue(writeWait)}
}

// writerQueue is the process's single write slot for one database file.
type writerQueue struct {
	slot chan struct{}
	// timeout bounds the wait like the busy_timeout it stands in for, so
	// a writer that waits on itself (a statement on the pool inside its
	// own transaction) fails instead of hanging.
	timeout time.Duration
}

func newWriterQueue(timeout time.Duration) *writerQueue {
	return &writerQueue{slot: make(chan struct{}, 1), timeout: timeout}
}

// ErrWriteSlot is what a writer gets after waiting the whole timeout.
var ErrWriteSlot = errors.New("sqlite: database is locked (waited too long for the write slot)")

func (q *writerQueue) acquire(ctx context.Context) error {
	select {
	case q.slot <- struct{}{}:
		return nil
	default:
	}
	timer := time.NewTimer(q.timeout)
	defer timer.Stop()
	select {
	case q.slot <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return ErrWriteSlot
	}
}

func (q *writerQueue) release() { <-q.slot }

// queuedConnector wraps the SQLite driver's connector.
type queuedConnector struct {
	driver.Connector
	q *writerQueue
}

func (c queuedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	inner, ok := conn.(sqliteConn)
	if !ok {
		return conn, nil // not the driver we know: no queue, still correct
	}
	if err := walMode(ctx, inner, c.q.timeout); err != nil {
		inner.Close()
		return nil, err
	}
	return &queuedConn{sqliteConn: inner, q: c.q}, nil
}

// sqliteConn is what database/sql uses of modernc's connection.
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

// queuedConn is a connection whose write transactions, and statements
// executed outside a transaction, wait for the write slot.
type queuedConn struct {
	sqliteConn
	q     *writerQueue
	inTx  bool // only ever touched by the goroutine holding the conn
	stmts stmtCache
}

func (c *queuedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := c.q.acquire(ctx); err != nil {
		return nil, err
	}
	tx, err := c.sqliteConn.BeginTx(ctx, opts)
	if err != nil {
		c.q.release()
		return nil, err
	}
	c.inTx = true
	return &queuedTx{Tx: tx, done: func() { c.inTx = false; c.q.release() }}, nil
}

// Begin is the pre-context entry point; database/sql prefers BeginTx.
func (c *queuedConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *queuedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.inTx {
		return c.exec(ctx, query, args)
	}
	if err := c.q.acquire(ctx); err != nil {
		return nil, err
	}
	defer c.q.release()
	return c.exec(ctx, query, args)
}

// queuedTx releases the write slot once, at commit or rollback.
type queuedTx struct {
	driver.Tx
	once sync.Once
	done func()
}

func (t *queuedTx) Commit() error {
	defer t.once.Do(t.done)
	return t.Tx.Commit()
}

func (t *queuedTx) Rollback() error {
	defer t.once.Do(t.done)
	return t.Tx.Rollback()
}
