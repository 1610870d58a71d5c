package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/clip"
)

// OutboxKind says what happened to a product.
type OutboxKind string

// OutboxProductUpsert is the one kind written: the index re-reads the
// product and removes it if it is gone or archived, so a deletion needs no
// kind of its own (the schema still admits 'product.delete').
const OutboxProductUpsert OutboxKind = "product.upsert"

// OutboxEvent is a pending search-index change. It is written in the same
// transaction as the catalog change, so the index can lag but never miss one.
type OutboxEvent struct {
	bun.BaseModel `bun:"table:outbox"`

	ID          int64      `bun:"id,pk,autoincrement"`
	Kind        OutboxKind `bun:"kind,notnull"`
	SKU         string     `bun:"sku,notnull"`
	Attempts    int        `bun:"attempts,notnull"`
	LastError   string     `bun:"last_error,notnull"`
	AvailableAt time.Time  `bun:"available_at,notnull"`
	CreatedAt   time.Time  `bun:"created_at,notnull"`
}

// EnqueueOutbox records one event per SKU.
func EnqueueOutbox(ctx context.Context, db bun.IDB, kind OutboxKind, skus ...string) error {
	if len(skus) == 0 {
		return nil
	}
	now := time.Now().UTC()
	evs := make([]OutboxEvent, len(skus))
	for i, s := range skus {
		evs[i] = OutboxEvent{Kind: kind, SKU: s, AvailableAt: now, CreatedAt: now}
	}
	if _, err := db.NewInsert().Model(&evs).Returning("NULL").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: enqueue outbox: %w", err)
	}
	return nil
}

// PendingOutbox returns up to limit events that are due, oldest first.
func PendingOutbox(ctx context.Context, db bun.IDB, limit int) ([]OutboxEvent, error) {
	var evs []OutboxEvent
	err := db.NewSelect().Model(&evs).
		Where("available_at <= ?", time.Now().UTC()).
		Order("id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: pending outbox: %w", err)
	}
	return evs, nil
}

// AckOutbox deletes delivered events.
func AckOutbox(ctx context.Context, db bun.IDB, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := db.NewDelete().Model((*OutboxEvent)(nil)).Where("id IN (?)", bun.List(ids)).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: ack outbox: %w", err)
	}
	return nil
}

// RetryOutbox records a failed delivery and makes the event due again after
// delay.
func RetryOutbox(ctx context.Context, db bun.IDB, id int64, cause error, delay time.Duration) error {
	res, err := db.NewUpdate().Model((*OutboxEvent)(nil)).
		Set("attempts = attempts + 1").
		Set("last_error = ?", clip.Bytes(cause.Error(), 500)).
		Set("available_at = ?", time.Now().UTC().Add(delay)).
		Where("id = ?", id).Exec(ctx)
	return expectOneRow(res, err, "outbox event %d", id)
}

// CountOutbox returns how many events wait for delivery.
func CountOutbox(ctx context.Context, db bun.IDB) (int, error) {
	n, err := db.NewSelect().Model((*OutboxEvent)(nil)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count outbox: %w", err)
	}
	return int(n), nil
}
