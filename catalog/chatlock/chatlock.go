package chatlock

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"shopbot/catalog/dbstats"
	"shopbot/catalog/groupcommit"
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
// moment, so the common case is one attempt to lock and one unlock.
// Within a process the engine has already put a chat's turns in order.
//
// A holder sends its chats' attempts and unlocks in batches: those asked
// for while one statement is on its way go together in the next, one
// statement for all of them (a group commit of lock operations), so busy
// chats sharing a holder do not queue for a round trip each. An unlock
// does not wait for its answer: a turn returns as soon as it has asked.
// Session advisory locks stack, so a chat's next turn in this process may
// even take its lock again before the unlock has run (the count goes to
// two, then back); another process sees the chat locked until both ran.
//
// If a holder's session is lost (the connection broke, or a statement on
// it failed), Postgres releases every lock it held: the holder opens a new
// session for the next lock, and the turns in flight finish without the
// cross-process guard.
type Locks struct {
	db      *sql.DB
	holders []*lockHolder
	unlocks sync.WaitGroup // unlocks not yet sent
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

// maxBatch bounds the operations one lock statement carries.
const maxBatch = 128

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
		h := &lockHolder{db: db, count: l.count}
		h.batch = groupcommit.Batcher[lockOp, lockResult]{Write: h.write, Max: maxBatch}
		l.holders[i] = h
	}
	return l
}

// Lock takes key's lock, waiting while another process holds it, until
// ctx ends. unlock releases it; it must be called once.
func (l *Locks) Lock(ctx context.Context, key string) (unlock func(), err error) {
	k := lockKey(key)
	h := l.holders[uint32(k)%uint32(len(l.holders))]
	wait := lockRetryMin
	for {
		// Not cancelled while on its way: a lock taken must be known,
		// or nobody would release it. The statement has its own timeout.
		r, err := h.batch.Do(context.WithoutCancel(ctx), lockOp{key: k})
		if err != nil {
			return nil, fmt.Errorf("chatlock: %w", err)
		}
		if r.ok {
			return l.unlocker(ctx, h, k, r.session), nil
		}
		select {
		case <-time.After(wait):
			wait = min(2*wait, lockRetryMax)
		case <-ctx.Done():
			return nil, fmt.Errorf("chatlock: %w", ctx.Err())
		}
	}
}

// unlocker returns the unlock of k taken in session: it asks the holder
// to release it and returns without waiting for the answer.
func (l *Locks) unlocker(ctx context.Context, h *lockHolder, k int32, session int) func() {
	ctx = context.WithoutCancel(ctx) // keeps the turn's statement counter
	return func() {
		l.unlocks.Add(1)
		go func() {
			defer l.unlocks.Done()
			_, _ = h.batch.Do(ctx, lockOp{key: k, unlock: true, session: session})
		}()
	}
}

func (l *Locks) count(turn *dbstats.Counter, start time.Time) {
	d := time.Since(start)
	l.Stats.Add("LOCK", d)
	if turn != nil {
		turn.Add("LOCK", d)
	}
}

// Close sends the unlocks asked for and closes the sessions, releasing
// every lock still held.
func (l *Locks) Close() error {
	l.unlocks.Wait()
	for _, h := range l.holders {
		h.mu.Lock()
		h.drop()
		h.mu.Unlock()
	}
	return l.db.Close()
}

// lockOp is one attempt to take a lock, or an unlock of one taken in a
// session.
type lockOp struct {
	key     int32
	unlock  bool
	session int
}

// lockResult answers an attempt: taken or not, and in which session.
type lockResult struct {
	ok      bool
	session int
}

// lockHolder is one session holding locks, with the batches of operations
// sent on it.
type lockHolder struct {
	db      *sql.DB
	count   func(*dbstats.Counter, time.Time)
	batch   groupcommit.Batcher[lockOp, lockResult]
	mu      sync.Mutex
	conn    *sql.Conn // nil until first used, and after the session was lost
	stmt    *sql.Stmt // lockBatchSQL prepared in conn's session (nil: sent unprepared)
	session int       // counts sessions, so an unlock never reaches a later one
}

// lockBatchSQL runs a batch in its order: each row an unlock
// (pg_advisory_unlock) or an attempt (pg_try_advisory_lock).
const lockBatchSQL = `SELECT CASE WHEN b.u THEN pg_advisory_unlock($3, b.k) ELSE pg_try_advisory_lock($3, b.k) END
	FROM unnest($1::int[], $2::bool[]) WITH ORDINALITY AS b(k, u, i) ORDER BY b.i`

// write sends one batch as one statement. Unlocks of a lost session are
// left out (its locks went with it). An unlock Postgres did not find, or
// a failed statement, drops the session: whatever it held is released,
// and the next batch opens a new one.
func (h *lockHolder) write(ctx context.Context, ops []lockOp) ([]lockResult, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	res := make([]lockResult, len(ops))
	var keys, unlocks strings.Builder
	var sent []int
	for i, op := range ops {
		if op.unlock && (h.conn == nil || op.session != h.session) {
			continue
		}
		if len(sent) > 0 {
			keys.WriteByte(',')
			unlocks.WriteByte(',')
		}
		keys.WriteString(strconv.Itoa(int(op.key)))
		unlocks.WriteString(strconv.FormatBool(op.unlock))
		sent = append(sent, i)
	}
	if len(sent) == 0 {
		return res, nil
	}
	if h.conn == nil {
		conn, err := h.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		h.conn = conn
		h.session++
		// Prepared once per session: Postgres then neither parses nor
		// plans the batch statement again (with arguments, pgdriver
		// would otherwise send it as a new simple query each time).
		if st, err := conn.PrepareContext(ctx, lockBatchSQL); err == nil {
			h.stmt = st
		}
	}
	sctx, cancel := context.WithTimeout(ctx, lockStatementTimeout)
	defer cancel()
	defer h.count(dbstats.From(ctx), time.Now())
	oks, err := h.query(sctx, "{"+keys.String()+"}", "{"+unlocks.String()+"}", len(sent))
	if err != nil {
		h.drop()
		return nil, err
	}
	lost := false
	for j, i := range sent {
		if ops[i].unlock {
			lost = lost || !oks[j]
			continue
		}
		res[i] = lockResult{ok: oks[j], session: h.session}
	}
	if lost {
		h.drop()
	}
	return res, nil
}

// query runs lockBatchSQL and reads its n answers.
func (h *lockHolder) query(ctx context.Context, keys, unlocks string, n int) ([]bool, error) {
	var rows *sql.Rows
	var err error
	if h.stmt != nil {
		rows, err = h.stmt.QueryContext(ctx, keys, unlocks, lockSpace)
	} else {
		rows, err = h.conn.QueryContext(ctx, lockBatchSQL, keys, unlocks, lockSpace)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	oks := make([]bool, 0, n)
	for rows.Next() {
		var ok bool
		if err := rows.Scan(&ok); err != nil {
			return nil, err
		}
		oks = append(oks, ok)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(oks) != n {
		return nil, fmt.Errorf("%d answers to %d lock operations", len(oks), n)
	}
	return oks, rows.Close()
}

// drop closes the session for good: Postgres releases its locks.
func (h *lockHolder) drop() {
	if h.conn == nil {
		return
	}
	if h.stmt != nil {
		_ = h.stmt.Close()
		h.stmt = nil
	}
	_ = h.conn.Raw(func(any) error { return driver.ErrBadConn }) // never back to the pool
	if err := h.conn.Close(); err != nil && !errors.Is(err, sql.ErrConnDone) {
		_ = err // the session is gone either way
	}
	h.conn = nil
}

// lockKey hashes a chat key into the second int of the advisory lock.
func lockKey(key string) int32 {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int32(h.Sum32())
}
