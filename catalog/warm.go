package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// warmStatements ready a new Postgres backend for turns. Planning a read
// of each table a turn touches loads its catalog entries and its indexes;
// a save that inserts and updates nothing still fires the statement-level
// triggers of messages and conversations, which compiles their PL/pgSQL.
// They run in a transaction that is rolled back, and change nothing.
const warmStatements = `SELECT 1 FROM customers LIMIT 0;
SELECT 1 FROM conversations LIMIT 0;
SELECT 1 FROM messages LIMIT 0;
SELECT 1 FROM rate_limits LIMIT 0;
SELECT 1 FROM carts LIMIT 0;
SELECT 1 FROM cart_items LIMIT 0;
SELECT 1 FROM products LIMIT 0;
SELECT 1 FROM inbox_events LIMIT 0;
SELECT 1 FROM support_cases LIMIT 0;
SELECT 1 FROM conversation_labels LIMIT 0;
INSERT INTO messages (conversation_id, role, content, created_at) SELECT 0, 'user', '', now() WHERE false;
UPDATE conversations SET state = state WHERE false`

// WarmPool opens all of a Postgres pool's connections at once and readies
// each backend for turns; it returns once every connection is back in the
// pool, idle. `shopbot bench` warms its pool before its clock starts, so
// that it measures turns rather than new backends loading the schema and
// compiling the triggers (100 conversations' first turns: 0.87 s on cold
// connections, 0.46 s on warm ones). serve does not: its replicas would
// hold DB_MAX_CONNS connections each from the start. SQLite has nothing
// to warm.
func WarmPool(ctx context.Context, db *bun.DB) error {
	n := db.Stats().MaxOpenConnections
	if db.Dialect().Name() != dialect.PG || n <= 0 {
		return nil
	}
	// Every connection is held until all are warm: returned earlier, one
	// would be handed out again instead of a new one being opened.
	var (
		warmed  sync.WaitGroup
		release = make(chan struct{})
		errs    = make([]error, n)
	)
	var held sync.WaitGroup
	for i := range n {
		warmed.Add(1)
		held.Go(func() {
			conn, err := db.DB.Conn(ctx)
			if err == nil {
				err = warmConn(ctx, conn)
			}
			errs[i] = err
			warmed.Done()
			<-release
			if conn != nil {
				_ = conn.Close()
			}
		})
	}
	warmed.Wait()
	close(release)
	held.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("catalog: warm the pool: %w", err)
	}
	return nil
}

func warmConn(ctx context.Context, conn *sql.Conn) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	_, err = tx.ExecContext(ctx, warmStatements)
	return err
}
