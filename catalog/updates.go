package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ProcessedUpdate records a platform update (Telegram update_id, Slack
// event_id, …) so a redelivery is recognised and ignored.
type ProcessedUpdate struct {
	bun.BaseModel `bun:"table:processed_updates"`

	Channel    string    `bun:"channel,pk"`
	UpdateKey  string    `bun:"update_key,pk"`
	ReceivedAt time.Time `bun:"received_at,notnull"`
}

// MarkProcessed records an update. first is false when it was recorded
// before: the caller must then do nothing. The unique key makes this hold
// across replicas.
func MarkProcessed(ctx context.Context, db bun.IDB, channel, key string) (first bool, err error) {
	if channel == "" || key == "" {
		return false, fmt.Errorf("catalog: mark processed: %w: channel and key are required", ErrInvalid)
	}
	u := &ProcessedUpdate{Channel: channel, UpdateKey: key, ReceivedAt: time.Now().UTC()}
	res, err := db.NewInsert().Model(u).On("CONFLICT DO NOTHING").Returning("NULL").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("catalog: mark update %s/%s processed: %w", channel, key, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("catalog: mark update %s/%s processed: %w", channel, key, err)
	}
	return n == 1, nil
}

// PruneProcessed forgets updates received before cutoff; platforms stop
// redelivering long before.
func PruneProcessed(ctx context.Context, db bun.IDB, cutoff time.Time) (int, error) {
	res, err := db.NewDelete().Model((*ProcessedUpdate)(nil)).Where("received_at < ?", cutoff.UTC()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune processed updates: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
