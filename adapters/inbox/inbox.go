package inbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog/groupcommit"
)

// Update is one request from a chat platform as the inbox keeps it.
type Update struct {
	Key        string    // unique within the source: what makes a redelivery a no-op
	Chat       string    // the conversation it belongs to ("" when the adapter does not say)
	Kind       string    // how the adapter decodes Payload again when it resumes it
	Payload    string    // the request as received
	ReceivedAt time.Time // when it arrived
}

// row is an Update in the inbox table.
type row struct {
	bun.BaseModel `bun:"table:inbox"`

	Source     string     `bun:"source,pk"`
	Key        string     `bun:"key,pk"`
	Chat       string     `bun:"chat,notnull"`
	Kind       string     `bun:"kind,notnull"`
	Payload    string     `bun:"payload,notnull"`
	ReceivedAt time.Time  `bun:"received_at,notnull"`
	HandledAt  *time.Time `bun:"handled_at"`
	ClaimedBy  string     `bun:"claimed_by,notnull"` // the replica holding the update (lease.go)
	LeaseUntil *time.Time `bun:"lease_until"`        // until when, unless renewed
}

// ErrBadKey reports a key the inbox does not store (see Record).
var ErrBadKey = errors.New("inbox: key empty, over 200 characters or with control characters")

// MaxKeyRunes bounds a key (the platforms' ids are far shorter).
const MaxKeyRunes = 200

// maxBatch bounds the updates recorded in one statement.
const maxBatch = 500

// Inbox is one source's updates: recorded before the acknowledgement,
// marked handled after, listed again at start while unhandled, pruned
// once handled for Keep. Records and handled marks each go through a
// group-commit writer, so a burst costs a few statements, not one each.
type Inbox struct {
	db     *bun.DB
	source string
	lease  *Lease // nil: updates are not claimed (lease.go)

	records groupcommit.Batcher[arrival, bool]
	handled groupcommit.Batcher[string, struct{}]

	// The records writer holds a connection of its own, so that an
	// acknowledgement does not queue behind turns for the pool. Writes
	// of one Batcher never overlap, so conn needs no lock of its own;
	// mu guards it against the close when the inbox's context ends.
	mu     sync.Mutex
	conn   *bun.Conn
	closed bool
}

// arrival is an update waiting to be recorded, and what to do once it is
// stored and new.
type arrival struct {
	row   row
	fresh func()
}

// New returns the inbox of source (e.g. "telegram", "slack") on db. The
// connection it holds for records is given back when ctx ends.
func New(ctx context.Context, db *bun.DB, source string) *Inbox {
	return newInbox(ctx, db, source, nil)
}

func newInbox(ctx context.Context, db *bun.DB, source string, l *Lease) *Inbox {
	in := &Inbox{db: db, source: source, lease: l}
	in.records = groupcommit.Batcher[arrival, bool]{Write: in.insert, Max: maxBatch}
	in.handled = groupcommit.Batcher[string, struct{}]{Write: in.markHandled, Max: maxBatch}
	context.AfterFunc(ctx, in.closeConn)
	return in
}

// Record stores u durably and reports whether it is new; a key stored
// before (a redelivery, a retry) is not, and changes nothing. fresh, when
// not nil, is called by the writer once u is stored and new — also when
// the caller has given up waiting — so an update recorded is always
// queued; it must not block.
//
// The key is stored as given or refused (ErrBadKey): altering it could
// make two requests one. The payload is stored with invalid UTF-8 as
// U+FFFD, as decoding reads it anyway, so that it is valid text on both
// databases (Postgres refuses invalid UTF-8 in a bound parameter).
func (in *Inbox) Record(ctx context.Context, u Update, fresh func()) (bool, error) {
	if !StorableKey(u.Key) {
		return false, fmt.Errorf("%w: %q", ErrBadKey, u.Key)
	}
	if u.ReceivedAt.IsZero() {
		u.ReceivedAt = time.Now()
	}
	r := row{Source: in.source, Key: u.Key, Chat: storable(u.Chat), Kind: storable(u.Kind),
		Payload: storable(u.Payload), ReceivedAt: u.ReceivedAt.UTC()}
	if in.lease != nil {
		now, err := in.lease.now(ctx, in.db)
		if err != nil {
			return false, fmt.Errorf("inbox: record %s update %s: %w", in.source, u.Key, err)
		}
		until := now.Add(in.lease.For)
		r.ClaimedBy, r.LeaseUntil = in.lease.Holder, &until
	}
	return in.records.Do(ctx, arrival{row: r, fresh: fresh})
}

// Done marks the update of key handled: it is not resumed again, and no
// replica holds it any more.
func (in *Inbox) Done(ctx context.Context, key string) error {
	_, err := in.handled.Do(ctx, key)
	return err
}

// StorableKey reports whether a key, built from ids in a request, can be
// stored as given: not empty, bounded, valid UTF-8, no control characters.
func StorableKey(k string) bool {
	return k != "" && utf8.ValidString(k) && utf8.RuneCountInString(k) <= MaxKeyRunes &&
		strings.IndexFunc(k, unicode.IsControl) < 0
}

// storable is text as the inbox keeps it: invalid UTF-8 becomes U+FFFD. A
// NUL cannot be in a JSON payload (JSON allows it only escaped); one in
// another field is dropped, as neither database's text may hold it.
func storable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "")
}

// insert writes a batch in one statement and calls fresh for the new
// updates. A key twice in one batch: the first wins.
func (in *Inbox) insert(ctx context.Context, batch []arrival) ([]bool, error) {
	rows := make([]row, 0, len(batch))
	seen := make(map[string]bool, len(batch))
	for _, a := range batch {
		if !seen[a.row.Key] {
			seen[a.row.Key] = true
			rows = append(rows, a.row)
		}
	}
	// Rows go in key order: two replicas inserting overlapping keys then
	// take the unique index's locks in the same order, so Postgres never
	// finds them waiting on each other (40P01, deadlock detected).
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.Key, b.Key) })
	var keys []string
	err := in.write(ctx, func(db bun.IDB) error {
		keys = keys[:0]
		err := db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("key").Scan(ctx, &keys)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // all seen before
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("inbox: record %d %s updates: %w", len(rows), in.source, err)
	}
	fresh := make(map[string]bool, len(keys))
	for _, k := range keys {
		fresh[k] = true
	}
	first := make([]bool, len(batch))
	for i, a := range batch {
		first[i] = fresh[a.row.Key]
		delete(fresh, a.row.Key)
		if first[i] && a.fresh != nil {
			a.fresh()
		}
	}
	return first, nil
}

// write runs fn on the held connection, taking one if there is none; a
// failed connection is given back and replaced by the next write. Once
// the inbox's context has ended, fn runs on the pool.
//
// A held connection outlives its pool's Close (database/sql lets a Conn
// run queries until it is closed), so each write first asks the pool
// whether it is closed: without waiting, as the context given is already
// done — the pool reports its closing before it looks at the context.
func (in *Inbox) write(ctx context.Context, fn func(bun.IDB) error) error {
	in.mu.Lock()
	conn, closed := in.conn, in.closed
	in.mu.Unlock()
	if closed {
		return fn(in.db)
	}
	if err := in.poolClosed(); err != nil {
		in.dropConn(conn)
		return err
	}
	if conn == nil {
		c, err := in.db.Conn(ctx)
		if err != nil {
			return err
		}
		conn = &c
		in.mu.Lock()
		if in.closed {
			in.mu.Unlock()
			c.Close()
			return fn(in.db)
		}
		in.conn = conn
		in.mu.Unlock()
	}
	err := fn(conn)
	if err != nil {
		in.dropConn(conn)
	}
	return err
}

// poolClosed returns the pool's error once it is closed, nil otherwise.
func (in *Inbox) poolClosed() error {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	c, err := in.db.Conn(done)
	if err == nil {
		c.Close() // a free connection handed out all the same
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// dropConn gives conn back, if it is still the held one.
func (in *Inbox) dropConn(conn *bun.Conn) {
	if conn == nil {
		return
	}
	in.mu.Lock()
	if in.conn == conn {
		in.conn = nil
	}
	in.mu.Unlock()
	conn.Close()
}

func (in *Inbox) closeConn() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.closed = true
	if in.conn != nil {
		in.conn.Close()
		in.conn = nil
	}
}

func (in *Inbox) markHandled(ctx context.Context, keys []string) ([]struct{}, error) {
	_, err := in.db.NewUpdate().Model((*row)(nil)).Set("handled_at = ?", time.Now().UTC()).
		Set("claimed_by = ''").Set("lease_until = NULL").
		Where("source = ?", in.source).Where("key IN (?)", bun.List(keys)).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("inbox: mark %d %s updates handled: %w", len(keys), in.source, err)
	}
	return make([]struct{}, len(keys)), nil
}
