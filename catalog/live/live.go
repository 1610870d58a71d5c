package live

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/driver/pgdriver"
)

// Event is one change an open panel should show.
type Event struct {
	bun.BaseModel `bun:"table:inbox_events"`

	ID             int64     `bun:"id,pk,autoincrement" json:"id"`
	ConversationID int64     `bun:"conversation_id" json:"conversation_id"`
	Kind           string    `bun:"kind" json:"kind"` // message, note or state
	At             time.Time `bun:"at" json:"-"`
}

// Latest is the newest event's id (0 when there is none): a new panel
// shows what is there and follows from here.
func Latest(ctx context.Context, db bun.IDB) (int64, error) {
	var id int64
	if err := db.NewSelect().Model((*Event)(nil)).ColumnExpr("COALESCE(MAX(id), 0)").Scan(ctx, &id); err != nil {
		return 0, fmt.Errorf("live: latest event: %w", err)
	}
	return id, nil
}

// Since returns up to limit events after id, oldest first.
func Since(ctx context.Context, db bun.IDB, after int64, limit int) ([]Event, error) {
	var es []Event
	if err := db.NewSelect().Model(&es).Where("id > ?", after).Order("id").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("live: events after %d: %w", after, err)
	}
	return es, nil
}

// Prune forgets events older than before.
func Prune(ctx context.Context, db bun.IDB, before time.Time) error {
	if _, err := db.NewDelete().Model((*Event)(nil)).Where("at < ?", before.UTC()).Exec(ctx); err != nil {
		return fmt.Errorf("live: prune events: %w", err)
	}
	return nil
}

// Hub wakes subscribers when new events may be in the database.
type Hub struct {
	db   *bun.DB
	log  *slog.Logger
	poll time.Duration

	mu      sync.Mutex
	changed chan struct{}
	last    int64
	done    chan struct{} // closed when Run returns
}

// NewHub makes a hub over db that polls every poll (one second when
// zero; on Postgres, where NOTIFY wakes it, the poll is only a safety
// net and runs five times as seldom).
func NewHub(db *bun.DB, log *slog.Logger, poll time.Duration) *Hub {
	if poll <= 0 {
		poll = time.Second
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{db: db, log: log, poll: poll, changed: make(chan struct{}), done: make(chan struct{})}
}

// Changed is closed at the next wake-up; take it before reading events,
// so a change between the read and the wait is not missed.
func (h *Hub) Changed() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// Done is closed when Run has returned (the process is shutting down):
// streams that follow the hub end then, so the HTTP server can stop.
func (h *Hub) Done() <-chan struct{} { return h.done }

func (h *Hub) wake() {
	h.mu.Lock()
	defer h.mu.Unlock()
	close(h.changed)
	h.changed = make(chan struct{})
}

// Run wakes subscribers until ctx ends: on Postgres on every NOTIFY, and
// on every poll that sees a newer event; it prunes events older than a
// day now and then.
func (h *Hub) Run(ctx context.Context) {
	defer close(h.done)
	poll := h.poll
	if h.db.Dialect().Name() == dialect.PG {
		poll *= 5
		go h.listen(ctx)
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	lastPrune := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		id, err := Latest(ctx, h.db)
		if err != nil {
			h.log.WarnContext(ctx, "live: poll inbox events", "err", err)
			continue
		}
		if id > h.last {
			h.last = id
			h.wake()
		}
		if time.Since(lastPrune) > time.Hour {
			lastPrune = time.Now()
			if err := Prune(ctx, h.db, time.Now().Add(-24*time.Hour)); err != nil {
				h.log.WarnContext(ctx, "live: prune inbox events", "err", err)
			}
		}
	}
}

// listen wakes subscribers on every NOTIFY shopbot_inbox, reconnecting
// after a lost connection (the poll covers the gap).
func (h *Hub) listen(ctx context.Context) {
	for ctx.Err() == nil {
		ln := pgdriver.NewListener(h.db)
		if err := ln.Listen(ctx, "shopbot_inbox"); err != nil {
			h.log.WarnContext(ctx, "live: listen", "err", err)
			_ = ln.Close()
			select {
			case <-ctx.Done():
				return
			case <-time.After(h.poll):
			}
			continue
		}
		h.wake() // anything between the connection's loss and now
		ch := ln.Channel()
	recv:
		for {
			select {
			case <-ctx.Done():
				_ = ln.Close()
				return
			case _, ok := <-ch:
				if !ok {
					break recv
				}
				h.wake()
			}
		}
		_ = ln.Close()
	}
}
