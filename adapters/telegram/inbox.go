package telegram

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// inboxRow is an update as received, kept until it has been handled so
// that one acknowledged but not yet handled survives a crash.
type inboxRow struct {
	bun.BaseModel `bun:"table:telegram_updates"`

	UpdateID   int64      `bun:"update_id,pk"`
	ChatID     string     `bun:"chat_id,notnull"`
	Payload    string     `bun:"payload,notnull"`
	ReceivedAt time.Time  `bun:"received_at,notnull"`
	HandledAt  *time.Time `bun:"handled_at"`
}

// recordBatch stores updates in one statement and returns the ids that
// were new (a redelivered id is not).
func recordBatch(ctx context.Context, db bun.IDB, rows []inboxRow) (map[int64]bool, error) {
	var ids []int64
	err := db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("update_id").Scan(ctx, &ids)
	if err != nil && !isNoRows(err) {
		return nil, fmt.Errorf("telegram: record %d updates: %w", len(rows), err)
	}
	fresh := make(map[int64]bool, len(ids))
	for _, id := range ids {
		fresh[id] = true
	}
	return fresh, nil
}

func markHandled(ctx context.Context, db bun.IDB, id int64) error {
	_, err := db.NewUpdate().Model((*inboxRow)(nil)).Set("handled_at = ?", time.Now().UTC()).
		Where("update_id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("telegram: mark update %d handled: %w", id, err)
	}
	return nil
}

// unhandled lists recorded updates not yet handled, oldest first.
func unhandled(ctx context.Context, db bun.IDB) ([]inboxRow, error) {
	var rows []inboxRow
	err := db.NewSelect().Model(&rows).Where("handled_at IS NULL").Order("update_id").Limit(10_000).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("telegram: list unhandled updates: %w", err)
	}
	return rows, nil
}

// pruneHandled forgets handled updates received before cutoff; Telegram
// stops redelivering within a day.
func pruneHandled(ctx context.Context, db bun.IDB, cutoff time.Time) error {
	_, err := db.NewDelete().Model((*inboxRow)(nil)).
		Where("handled_at IS NOT NULL").Where("received_at < ?", cutoff.UTC()).Exec(ctx)
	if err != nil {
		return fmt.Errorf("telegram: prune handled updates: %w", err)
	}
	return nil
}

// chatRow remembers the chat's cart message, edited in place.
type chatRow struct {
	bun.BaseModel `bun:"table:telegram_chats"`

	ChatID        string    `bun:"chat_id,pk"`
	CartMessageID int64     `bun:"cart_message_id,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

func cartMessage(ctx context.Context, db bun.IDB, chat string) (int, error) {
	var row chatRow
	err := db.NewSelect().Model(&row).Where("chat_id = ?", chat).Limit(1).Scan(ctx)
	if err != nil {
		if isNoRows(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("telegram: cart message of chat %s: %w", chat, err)
	}
	return int(row.CartMessageID), nil
}

func saveCartMessage(ctx context.Context, db bun.IDB, chat string, id int) error {
	row := &chatRow{ChatID: chat, CartMessageID: int64(id), UpdatedAt: time.Now().UTC()}
	_, err := db.NewInsert().Model(row).
		On("CONFLICT (chat_id) DO UPDATE").Set("cart_message_id = EXCLUDED.cart_message_id, updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("telegram: save cart message of chat %s: %w", chat, err)
	}
	return nil
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
