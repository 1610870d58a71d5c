package chatlock

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"shopbot/catalog/dbstats"
)

// Locks serializes the turns of one chat across every shopbot process
// sharing a Postgres database, with a session advisory lock per chat held
// for the whole turn.
//
// A Postgres session holds any number of advisory locks, so the locks are
// multiplexed on a few long-lived sessions of their own (holders): a
// process can have thousands of chats mid-turn, each waiting on its model,
// on a handful of connections, and the catalog's queries never wait behind
// them. A chat always maps to the same holder. It is taken with
// pg_try_advisory_lock; when another process holds it, the attempt is
// repeated with backoff (10 ms doubling to 200 ms) until the waiting turn's
// context ends. Two replicas rarely receive one chat's updates at the same
// moment, so the common case is one round trip to lock and one to unlock.
// Within a process the engine has already put a chat's turns in order.
//
// If a holder's session is lost (the connection broke, or a statement on
// it failed), Postgres releases every lock it held: the holder opens a new
// session for the next lock, and the turns in flight finish without the
// cross-process guard.
type Locks struct {
	db      *sql.DB
	holders []*lockHolder
	// Stats counts the lock sessions' statements (each a round trip).
	Stats dbstats.Counter
}

// lockSpace keeps chat locks apart from other advisory locks (the
// migrator's) in pg_advisory_lock(int, int)'s first key.
const lockSpace = 0x5b07

// Lock statements are non-blocking; this bounds a round trip.
const lockStatementTimeout = 5 * time.Second

// Backoff between attempts while another process holds a chat's lock.
const (
	lockRetryMin = 10 * time.Millisecond
	lockRetryMax = 200 * time.Millisecond
)

// Open opens the lock sessions (holders of them) for a postgres://
// DATABASE_URL. Nothing connects until the first Lock.
func Open(databaseURL string, holders int) *Locks {
	holders = max(holders, 1)
	connector := pgdriver.NewConnector(pgdriver.WithDSN(databaseURL), pgdriver.WithDialTimeout(5*time.Second),
		pgdriver.WithReadTimeout(lockStatementTimeout), pgdriver.WithWriteTimeout(lockStatementTimeout))
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(holders)
	db.SetMaxIdleConns(holders)
	l := &Locks{db: db, holders: make([]*lockHolder, holders)}
	for i := range l.holders {
		l.holders[i] = &lockHolder{db: db}
	}
	return l
}

// Lock waits until no other process holds key's lock, then holds it until
// the returned unlock is called. A cancelled ctx stops the wait.
func (l *Locks) Lock(ctx context.Context, key string) (unlock func(), err error) {
	k := lockKey(key)
	h := l.holders[uint32(k)%uint32(len(l.holders))]
	wait := lockRetryMin
	turn := dbstats.From(ctx)
	for {
		start := time.Now()
		session, ok, err := h.try(ctx, k)
		l.count(turn, start)
		if err != nil {
			return nil, fmt.Errorf("chatlock: %w", err)
		}
		if ok {
			return func() {
				start := time.Now()
				h.unlock(k, session)
				l.count(turn, start)
			}, nil
		}
		select {
		case <-time.After(wait):
			wait = min(2*wait, lockRetryMax)
		case <-ctx.Done():
			return nil, fmt.Errorf("chatlock: %w", ctx.Err())
		}
	}
}

// count tallies one lock statement, on the turn's counter too if any.
func (l *Locks) count(turn *dbstats.Counter, start time.Time) {
	d := time.Since(start)
	l.Stats.Add("LOCK", d)
	if turn != nil {
		turn.Add("LOCK", d)
	}
}

// Close closes the lock sessions, which releases any lock still held.
func (l *Locks) Close() error {
	for _, h := range l.holders {
		h.mu.Lock()
		h.drop()
		h.mu.Unlock()
	}
	return l.db.Close()
}

// lockHolder is one session holding chat locks. Its statements run one at
// a time (a session is one connection).
type lockHolder struct {
	db      *sql.DB
	mu      sync.Mutex
	conn    *sql.Conn // nil until first used, and after the session was lost
	session int       // counts sessions, so an unlock never reaches a later one
}

// try takes k's lock if no other session holds it, and says in which of
// the holder's sessions.
func (h *lockHolder) try(ctx context.Context, k int32) (session int, ok bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conn == nil {
		conn, err := h.db.Conn(ctx)
		if err != nil {
			return 0, false, err
		}
		h.conn = conn
		h.session++
	}
	// The statement itself never waits, so it does not take ctx: a turn
	// giving up must not cut a statement short on a shared session.
	sctx, cancel := context.WithTimeout(context.Background(), lockStatementTimeout)
	defer cancel()
	if err := h.conn.QueryRowContext(sctx, "SELECT pg_try_advisory_lock($1, $2)", lockSpace, k).Scan(&ok); err != nil {
		h.drop()
		return 0, false, err
	}
	return h.session, ok, nil
}

func (h *lockHolder) unlock(k int32, session int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conn == nil || h.session != session {
		return // that session is gone, and its locks with it
	}
	ctx, cancel := context.WithTimeout(context.Background(), lockStatementTimeout)
	defer cancel()
	var released bool
	if err := h.conn.QueryRowContext(ctx, "SELECT pg_advisory_unlock($1, $2)", lockSpace, k).Scan(&released); err != nil || !released {
		// The lock may still be held: ending the session is the one sure
		// way to release it.
		h.drop()
	}
}

// drop ends the holder's session, releasing every lock it holds. The
// caller holds h.mu.
func (h *lockHolder) drop() {
	if h.conn == nil {
		return
	}
	_ = h.conn.Raw(func(any) error { return driver.ErrBadConn }) // never back to the pool
	if err := h.conn.Close(); err != nil && !errors.Is(err, sql.ErrConnDone) {
		_ = err // the session is gone either way
	}
	h.conn = nil
}

// lockKey maps a chat key to pg_advisory_lock's int4 second key.
func lockKey(key string) int32 {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int32(h.Sum32())
}
