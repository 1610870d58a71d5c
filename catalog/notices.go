package catalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// ShopperNotice is a notice waiting for a shopper the shop cannot reach
// between requests (a web chat session): whichever replica made it puts
// it here, whichever replica the shopper's next request reaches takes it.
// Payload is the adapter's JSON, opaque to the catalog.
type ShopperNotice struct {
	bun.BaseModel `bun:"table:shopper_notices"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Channel   string    `bun:"channel,notnull"`
	Chat      string    `bun:"chat,notnull"`
	Payload   string    `bun:"payload,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
	ExpiresAt time.Time `bun:"expires_at,notnull"`
}

// Bounds of shopper notices: per chat waiting at once, and the size of
// one payload.
const (
	MaxChatNotices     = 20
	MaxNoticeBytes     = 16 << 10
	maxNoticeChatRunes = 128
)

// NoticeBox keeps shopper notices in the database for TTL; Now is the
// clock (time.Now when nil).
type NoticeBox struct {
	DB  bun.IDB
	TTL time.Duration
	Now func() time.Time
}

func (b NoticeBox) now() time.Time {
	if b.Now == nil {
		return time.Now().UTC()
	}
	return b.Now().UTC()
}

// Put stores a notice for (channel, chat) until TTL from now. A chat with
// MaxChatNotices waiting refuses more (ErrConflict); an empty channel or
// chat, a payload that is not a JSON value or over MaxNoticeBytes, or a
// TTL not above zero is ErrInvalid. A refused notice changes nothing.
// The bound holds across replicas: the row is inserted, then the chat's
// notices counted, and the row taken back when they are too many — two
// racing at the bound may both be refused, never both kept.
func (b NoticeBox) Put(ctx context.Context, channel, chat string, payload []byte) error {
	switch {
	case channel == "" || chat == "" || !utf8.ValidString(chat) || utf8.RuneCountInString(chat) > maxNoticeChatRunes:
		return fmt.Errorf("catalog: notice for %q %q: %w: channel and chat are required", channel, chat, ErrInvalid)
	case len(payload) > MaxNoticeBytes || !json.Valid(payload):
		return fmt.Errorf("catalog: notice for %s: %w: payload must be JSON of at most %d bytes", channel, ErrInvalid, MaxNoticeBytes)
	case b.TTL <= 0:
		return fmt.Errorf("catalog: notice for %s: %w: TTL must be above zero", channel, ErrInvalid)
	}
	now := b.now()
	n := &ShopperNotice{Channel: channel, Chat: chat, Payload: string(payload), CreatedAt: now, ExpiresAt: now.Add(b.TTL)}
	if _, err := b.DB.NewInsert().Model(n).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: put notice for %s: %w", channel, Unavailable(err))
	}
	waiting, err := b.DB.NewSelect().Model((*ShopperNotice)(nil)).Where("channel = ?", channel).
		Where("chat = ?", chat).Where("expires_at > ?", now).Count(ctx)
	if err == nil && waiting <= MaxChatNotices {
		return nil
	}
	if _, derr := b.DB.NewDelete().Model((*ShopperNotice)(nil)).Where("id = ?", n.ID).Exec(ctx); derr != nil {
		return fmt.Errorf("catalog: take back notice for %s: %w", channel, Unavailable(derr))
	}
	if err != nil {
		return fmt.Errorf("catalog: count notices for %s: %w", channel, Unavailable(err))
	}
	return fmt.Errorf("catalog: notice for %s: %w: %d notices already waiting for this chat", channel, ErrConflict, MaxChatNotices)
}

// Take removes and returns the unexpired notices of (channel, chat), in
// the order they were put. Each notice is taken once: two requests at
// once each get their own (DELETE ... RETURNING).
func (b NoticeBox) Take(ctx context.Context, channel, chat string) ([]json.RawMessage, error) {
	var rows []ShopperNotice
	err := b.DB.NewDelete().Model(&rows).Where("channel = ?", channel).Where("chat = ?", chat).
		Where("expires_at > ?", b.now()).Returning("id, payload").Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("catalog: take notices for %s: %w", channel, Unavailable(err))
	}
	slices.SortFunc(rows, func(a, b ShopperNotice) int { return int(a.ID - b.ID) })
	out := make([]json.RawMessage, len(rows))
	for i, r := range rows {
		out[i] = json.RawMessage(r.Payload)
	}
	return out, nil
}

// Prune deletes the expired notices and returns how many.
func (b NoticeBox) Prune(ctx context.Context) (int64, error) {
	res, err := b.DB.NewDelete().Model((*ShopperNotice)(nil)).Where("expires_at <= ?", b.now()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune notices: %w", Unavailable(err))
	}
	n, _ := res.RowsAffected()
	return n, nil
}
