package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// OpenCounted opens the conversation of key (OpenConversation) and counts
// a hit of limitKey against lim (Hit) in one round trip on Postgres: the
// count rides along as a data-modifying CTE of the conversation's read. A
// conversation seen for the first time is then created by a second
// statement. On SQLite, whose writes queue for one slot, it only opens the
// conversation and reports counted false: the caller counts the hit
// itself, where it can share a transaction with other turns' counts.
//
// A caller that finds the turn should not have counted (a replayed
// update) gives the hit back with Unhit.
func OpenCounted(ctx context.Context, db bun.IDB, key ConversationKey, customerID int64,
	limitKey string, lim Limit, now time.Time) (conv *Conversation, hit HitResult, counted bool, err error) {
	if db.Dialect().Name() != dialect.PG {
		conv, err = OpenConversation(ctx, db, key, customerID)
		return conv, HitResult{}, false, err
	}
	if key.Channel == "" || key.ChatID == "" {
		return nil, hit, false, fmt.Errorf("catalog: open conversation: %w: channel and chat id are required", ErrInvalid)
	}
	if err := checkLimit(limitKey, lim); err != nil {
		return nil, hit, false, err
	}
	start, end := limitWindow(lim, now)
	c := new(Conversation)
	var count int
	var windowEnd int64
	var found bool
	var (
		id, customer               sql.NullInt64
		channel, chat, thread      sql.NullString
		reason, state              sql.NullString
		paused, needsHuman         sql.NullBool
		lastMessage, created, read sql.NullTime
	)
	q := `WITH hit AS (` + hitSQLPostgres + `)
	SELECT hit.hits, hit.window_end, c.id IS NOT NULL, c.id, c.channel, c.chat_id, c.thread_id, c.customer_id, c.paused,
		c.needs_human, c.needs_human_reason, c.last_message_at, c.last_read_at, c.created_at, c.state
	FROM hit LEFT JOIN conversations AS c ON c.channel = $4 AND c.chat_id = $5 AND c.thread_id = $6`
	err = selectValues(ctx, db, q, []any{limitKey, start, end, key.Channel, key.ChatID, key.ThreadID},
		&count, &windowEnd, &found, &id, &channel, &chat, &thread, &customer, &paused,
		&needsHuman, &reason, &lastMessage, &read, &created, &state)
	if err != nil {
		return nil, hit, false, fmt.Errorf("catalog: open conversation %s/%s: %w", key.Channel, key.ChatID, err)
	}
	hit = hitResult(count, windowEnd, lim, now)
	if found {
		*c = Conversation{
			ID: id.Int64, Channel: channel.String, ChatID: chat.String, ThreadID: thread.String,
			Paused: paused.Bool, NeedsHuman: needsHuman.Bool, NeedsHumanReason: reason.String,
			LastMessageAt: lastMessage.Time, CreatedAt: created.Time, State: state.String,
		}
		if customer.Valid {
			c.CustomerID = &customer.Int64
		}
		if read.Valid {
			c.LastReadAt = &read.Time
		}
		return c, hit, true, nil
	}
	conv, err = OpenConversation(ctx, db, key, customerID)
	return conv, hit, true, err
}

// Unhit takes back a hit of key counted at now (one that should not have
// counted), unless its window has ended.
func Unhit(ctx context.Context, db bun.IDB, key string, lim Limit, now time.Time) error {
	if err := checkLimit(key, lim); err != nil {
		return err
	}
	start, _ := limitWindow(lim, now)
	_, err := exec(ctx, db, `UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND window_start = $2 AND hits > 0`, key, start)
	if err != nil {
		return fmt.Errorf("catalog: unhit %s: %w", key, err)
	}
	return nil
}
