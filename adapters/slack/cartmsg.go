package slack

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"
)

// cartRow remembers the cart message of a channel thread (or DM), updated
// in place as the cart changes. It is stored, not kept in memory, so
// that after a restart, or on another replica, the same message is
// updated instead of a second one posted.
type cartRow struct {
	bun.BaseModel `bun:"table:slack_carts"`

	ChannelID string    `bun:"channel_id,pk"`
	ThreadTS  string    `bun:"thread_ts,pk"`
	MessageTS string    `bun:"message_ts,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
}

// cartMessage is the ts of the thread's cart message, "" when it has none
// (or it cannot be read: a new message is then posted).
func (a *Adapter) cartMessage(ctx context.Context, channel, thread string) string {
	var row cartRow
	err := a.cfg.DB.NewSelect().Model(&row).Where("channel_id = ?", channel).Where("thread_ts = ?", thread).Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		a.log.WarnContext(ctx, "slack cart message not read", "channel_id", channel, "err", err)
	}
	return row.MessageTS
}

// rememberCart stores ts as the thread's cart message; a stop does not
// cancel it, as the message is posted already.
func (a *Adapter) rememberCart(ctx context.Context, channel, thread, ts string) {
	ctx = context.WithoutCancel(ctx)
	row := cartRow{ChannelID: channel, ThreadTS: thread, MessageTS: ts, UpdatedAt: time.Now().UTC()}
	_, err := a.cfg.DB.NewInsert().Model(&row).
		On("CONFLICT (channel_id, thread_ts) DO UPDATE").
		Set("message_ts = EXCLUDED.message_ts, updated_at = EXCLUDED.updated_at").Exec(ctx)
	if err != nil {
		a.log.WarnContext(ctx, "slack cart message not stored", "channel_id", channel, "err", err)
	}
}
