package catalog

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// ChatLocks serializes the turns of one chat across every shopbot process
// sharing a Postgres database, with a session advisory lock per chat held
// for the whole turn.
//
// A held advisory lock pins its connection, so the locks use a pool of
// their own: a turn never waits for a query connection while holding one,
// and busy chats cannot starve the catalog's queries. MaxChats bounds how
// many chats can be mid-turn at once in this process; more wait in line.
type ChatLocks struct {
	db *sql.DB
}

// chatLockSpace keeps chat locks apart from other advisory locks (the
// migrator's) in pg_advisory_lock(int, int)'s first key.
const chatLockSpace = 0x5b07

// OpenChatLocks opens the lock pool for a postgres:// DATABASE_URL.
func OpenChatLocks(databaseURL string, maxChats int) *ChatLocks {
	// No read timeout: waiting for a lock lasts as long as the turn holding
	// it (a slow model), bounded by the waiting turn's context.
	connector := pgdriver.NewConnector(pgdriver.WithDSN(databaseURL), pgdriver.WithDialTimeout(5*time.Second),
		pgdriver.WithReadTimeout(0), pgdriver.WithWriteTimeout(30*time.Second))
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(maxChats)
	db.SetMaxIdleConns(min(maxChats, 16))
	db.SetConnMaxIdleTime(time.Minute)
	return &ChatLocks{db: db}
}

// Lock waits until no other process holds key's lock, then holds it until
// the returned unlock is called. A cancelled ctx stops the wait.
func (l *ChatLocks) Lock(ctx context.Context, key string) (unlock func(), err error) {
	conn, err := l.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: chat lock: %w", err)
	}
	k := chatLockKey(key)
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1, $2)", chatLockSpace, k); err != nil {
		discard(conn)
		return nil, fmt.Errorf("catalog: chat lock: %w", err)
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var released bool
		err := conn.QueryRowContext(ctx, "SELECT pg_advisory_unlock($1, $2)", chatLockSpace, k).Scan(&released)
		if err != nil || !released {
			// The lock may still be held by this session: never hand the
			// connection to another turn. Closing it ends the session,
			// which releases every lock it holds.
			discard(conn)
			return
		}
		conn.Close()
	}, nil
}

// Close closes the lock pool.
func (l *ChatLocks) Close() error { return l.db.Close() }

// discard closes conn's session instead of returning it to the pool.
func discard(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	if err := conn.Close(); err != nil && !errors.Is(err, sql.ErrConnDone) {
		_ = err // the session is gone either way
	}
}

// chatLockKey maps a chat key to pg_advisory_lock's int4 second key.
func chatLockKey(key string) int32 {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int32(h.Sum32())
}
