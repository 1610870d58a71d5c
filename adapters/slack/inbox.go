package slack

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/uptrace/bun"
)

// inboxRow is a request from Slack as received, kept until its work is
// done so that one acknowledged but not yet handled survives a crash.
type inboxRow struct {
	bun.BaseModel `bun:"table:slack_inbox"`

	Key        string     `bun:"event_key,pk"`
	Kind       string     `bun:"kind,notnull"`
	Payload    string     `bun:"payload,notnull"`
	ReceivedAt time.Time  `bun:"received_at,notnull"`
	HandledAt  *time.Time `bun:"handled_at"`
}

// Kinds of requests: what the payload is, and so how it becomes work
// again when resumed.
const (
	kindEvent   = "event"   // an Events API envelope
	kindAction  = "action"  // an interaction payload
	kindCommand = "command" // a slash command, as slack.SlashCommand JSON
)

// keepHandled is how long handled requests stay in the inbox; Slack
// retries for minutes, not days.
const keepHandled = 7 * 24 * time.Hour

// inbox stores requests before they are acknowledged and marks them
// handled after, both with group commit: requests that arrive while a
// write is in flight are written together by the next one, so a burst
// costs a few commits instead of one each (on SQLite every commit takes
// the single write lock).
type inbox struct {
	db      *bun.DB
	records groupWriter[inboxRow]
	handled groupWriter[string]
}

func newInbox(db *bun.DB) *inbox {
	in := &inbox{db: db}
	in.records.write = in.insert
	in.handled.write = in.markHandled
	return in
}

// record stores row; first is false when its key was stored before (a
// retry).
func (in *inbox) record(ctx context.Context, row inboxRow) (first bool, err error) {
	return in.records.do(ctx, row)
}

// done marks the request of key handled.
func (in *inbox) done(ctx context.Context, key string) error {
	_, err := in.handled.do(ctx, key)
	return err
}

func (in *inbox) insert(ctx context.Context, rows []inboxRow) ([]bool, error) {
	var keys []string
	err := in.db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("event_key").Scan(ctx, &keys)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("slack: record %d requests: %w", len(rows), err)
	}
	fresh := make(map[string]bool, len(keys))
	for _, k := range keys {
		fresh[k] = true
	}
	first := make([]bool, len(rows))
	for i, r := range rows {
		first[i] = fresh[r.Key]
		delete(fresh, r.Key) // a key twice in one batch: the first wins
	}
	return first, nil
}

func (in *inbox) markHandled(ctx context.Context, keys []string) ([]bool, error) {
	_, err := in.db.NewUpdate().Model((*inboxRow)(nil)).Set("handled_at = ?", time.Now().UTC()).
		Where("event_key IN (?)", bun.In(keys)).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("slack: mark %d requests handled: %w", len(keys), err)
	}
	return make([]bool, len(keys)), nil
}

// unhandled lists recorded requests not yet handled, oldest first.
func (in *inbox) unhandled(ctx context.Context) ([]inboxRow, error) {
	var rows []inboxRow
	err := in.db.NewSelect().Model(&rows).Where("handled_at IS NULL").
		Order("received_at", "event_key").Limit(10_000).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("slack: list unhandled requests: %w", err)
	}
	return rows, nil
}

// prune forgets handled requests received before cutoff.
func (in *inbox) prune(ctx context.Context, cutoff time.Time) error {
	_, err := in.db.NewDelete().Model((*inboxRow)(nil)).
		Where("handled_at IS NOT NULL").Where("received_at < ?", cutoff.UTC()).Exec(ctx)
	if err != nil {
		return fmt.Errorf("slack: prune handled requests: %w", err)
	}
	return nil
}

// maxBatch bounds the items written in one statement.
const maxBatch = 256

// groupWriter writes items with group commit: the first caller writes
// batches until none is waiting; the others wait for their result.
type groupWriter[T any] struct {
	write func(ctx context.Context, items []T) ([]bool, error) // a result per item

	mu      sync.Mutex
	pending []groupReq[T]
	busy    bool
}

type groupReq[T any] struct {
	item T
	done chan groupRes
}

type groupRes struct {
	ok  bool
	err error
}

// do writes item with the others waiting and returns its result.
func (g *groupWriter[T]) do(ctx context.Context, item T) (bool, error) {
	req := groupReq[T]{item: item, done: make(chan groupRes, 1)}
	g.mu.Lock()
	g.pending = append(g.pending, req)
	lead := !g.busy
	g.busy = true
	g.mu.Unlock()
	if lead {
		g.flush(context.WithoutCancel(ctx))
	}
	select {
	case res := <-req.done:
		return res.ok, res.err
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

func (g *groupWriter[T]) flush(ctx context.Context) {
	for {
		g.mu.Lock()
		n := min(len(g.pending), maxBatch)
		batch := g.pending[:n:n]
		g.pending = g.pending[n:]
		if n == 0 {
			g.busy = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		items := make([]T, n)
		for i, r := range batch {
			items[i] = r.item
		}
		ok, err := g.write(ctx, items)
		for i, r := range batch {
			res := groupRes{err: err}
			if err == nil {
				res.ok = ok[i]
			}
			r.done <- res
		}
	}
}
