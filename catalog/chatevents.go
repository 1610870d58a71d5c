package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// ChatEvent is one thing a shopper was shown on a channel that keeps no
// transcript of its own (the web chat): Kind names it ("text", "cards",
// "notice", …) and Payload is the adapter's JSON, opaque to the catalog.
// IDs grow, so a reader resumes after the last one it saw.
type ChatEvent struct {
	bun.BaseModel `bun:"table:chat_events"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Channel   string    `bun:"channel,notnull"`
	Chat      string    `bun:"chat,notnull"`
	Kind      string    `bun:"kind,notnull"`
	Payload   string    `bun:"payload,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
}

// Bounds of chat events: the events one append may hold, one payload's
// size, the events one read returns.
const (
	MaxChatEventBatch = 64
	MaxChatEventBytes = 64 << 10
	MaxChatEventRead  = 500
)

// ChatEvents keeps chat events in the database; Now is the clock
// (time.Now when nil).
type ChatEvents struct {
	DB  bun.IDB
	Now func() time.Time
}

func (e ChatEvents) now() time.Time {
	if e.Now == nil {
		return time.Now().UTC()
	}
	return e.Now().UTC()
}

// Append stores events for (channel, chat) in order, in one statement,
// and returns them with their ids. An empty channel or chat, a kind
// missing or over 32 bytes, a payload that is not JSON or over
// MaxChatEventBytes, or more than MaxChatEventBatch events is ErrInvalid,
// and nothing is stored.
func (e ChatEvents) Append(ctx context.Context, channel, chat string, evs []ChatEvent) ([]ChatEvent, error) {
	if channel == "" || chat == "" || !utf8.ValidString(chat) || utf8.RuneCountInString(chat) > maxNoticeChatRunes {
		return nil, fmt.Errorf("catalog: chat events for %q %q: %w: channel and chat are required", channel, chat, ErrInvalid)
	}
	if len(evs) == 0 {
		return nil, nil
	}
	if len(evs) > MaxChatEventBatch {
		return nil, fmt.Errorf("catalog: chat events for %s: %w: %d events, at most %d at once", channel, ErrInvalid, len(evs), MaxChatEventBatch)
	}
	now := e.now()
	rows := make([]ChatEvent, len(evs))
	for i, ev := range evs {
		if ev.Kind == "" || len(ev.Kind) > 32 || len(ev.Payload) > MaxChatEventBytes || !json.Valid([]byte(ev.Payload)) {
			return nil, fmt.Errorf("catalog: chat event %q for %s: %w: a kind and a JSON payload of at most %d bytes are required", ev.Kind, channel, ErrInvalid, MaxChatEventBytes)
		}
		rows[i] = ChatEvent{Channel: channel, Chat: chat, Kind: ev.Kind, Payload: ev.Payload, CreatedAt: now}
	}
	insert := func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewInsert().Model(&rows).Returning("id").Exec(ctx)
		return err
	}
	var err error
	if e.DB.Dialect().Name() != dialect.PG {
		err = insert(ctx, e.DB) // SQLite has one writer: ids commit in order
	} else {
		// Ids come from a sequence, so two appends racing on one chat
		// could commit out of id order and a stream resuming after the
		// later id would pass over the earlier event. Appends of one chat
		// take its lock until they commit: a chat's ids commit in order.
		err = e.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", "chat_events:"+channel+":"+chat); err != nil {
				return err
			}
			return insert(ctx, tx)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: append chat events for %s: %w", channel, Unavailable(err))
	}
	return rows, nil
}

// Latest returns the last limit events of (channel, chat), oldest first.
func (e ChatEvents) Latest(ctx context.Context, channel, chat string, limit int) ([]ChatEvent, error) {
	var rows []ChatEvent
	err := e.DB.NewSelect().Model(&rows).Where("channel = ?", channel).Where("chat = ?", chat).
		Order("id DESC").Limit(int64(clampRead(limit))).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: latest chat events for %s: %w", channel, Unavailable(err))
	}
	slices.Reverse(rows)
	return rows, nil
}

// After returns the events of (channel, chat) after the id after, of the
// given kind when kind is not empty, oldest first, at most limit.
func (e ChatEvents) After(ctx context.Context, channel, chat string, after int64, kind string, limit int) ([]ChatEvent, error) {
	var rows []ChatEvent
	q := e.DB.NewSelect().Model(&rows).Where("channel = ?", channel).Where("chat = ?", chat).Where("id > ?", after)
	if kind != "" {
		q = q.Where("kind = ?", kind)
	}
	if err := q.Order("id ASC").Limit(int64(clampRead(limit))).Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: chat events for %s after %d: %w", channel, after, Unavailable(err))
	}
	return rows, nil
}

// Prune deletes the events older than age and returns how many.
func (e ChatEvents) Prune(ctx context.Context, age time.Duration) (int64, error) {
	res, err := e.DB.NewDelete().Model((*ChatEvent)(nil)).Where("created_at < ?", e.now().Add(-age)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune chat events: %w", Unavailable(err))
	}
	n, _ := res.RowsAffected()
	return n, nil
}

func clampRead(limit int) int {
	if limit < 1 || limit > MaxChatEventRead {
		return MaxChatEventRead
	}
	return limit
}
