package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog/dbstats"
)

// TurnWrites is everything a chat turn writes when it ends: its messages,
// the conversation's state and last-message time, and the model tokens it
// used on its customer's daily count.
type TurnWrites struct {
	ConversationID int64
	State          string
	Messages       []*Message
	CustomerID     int64
	TokenDay       string // the day Tokens count for (tokens_day)
	Tokens         int    // 0: the customer row is not touched
}

// OneStatement reports whether SaveTurnWrites sends w to db as a single
// statement, atomic on its own: on Postgres, for a turn of 1 to
// messagesPerInsert messages. Otherwise it sends several, and the caller
// runs it in a transaction.
func (w TurnWrites) OneStatement(db bun.IDB) bool {
	return db.Dialect().Name() == dialect.PG && len(w.Messages) > 0 && len(w.Messages) <= messagesPerInsert
}

// SaveTurnWrites records a turn's end (SaveTurn plus AddTokens) and
// returns the new last_message_at, the conversation's version.
//
// On Postgres it is one round trip: the two updates ride along as
// data-modifying CTEs of the INSERT INTO messages, and Postgres runs a
// statement in its own transaction, so it saves all or nothing. A turn
// used to send BEGIN, three statements and COMMIT, each a round trip that
// waits for a pooled connection; under 100 busy conversations those waits
// were most of a turn. The conversation must exist (messages reference
// it); the token count of a customer erased meanwhile is dropped rather
// than the transcript.
func SaveTurnWrites(ctx context.Context, db bun.IDB, w TurnWrites) (time.Time, error) {
	if !w.OneStatement(db) {
		if err := AddTokens(ctx, db, w.CustomerID, w.TokenDay, w.Tokens); err != nil {
			return time.Time{}, err
		}
		return SaveTurn(ctx, db, w.ConversationID, w.State, w.Messages...)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	for _, m := range w.Messages {
		m.ConversationID = w.ConversationID
		if m.CreatedAt.IsZero() {
			m.CreatedAt = now
		}
	}
	insert, args, err := messageInsert(w.Messages, 6)
	if err != nil {
		return now, err
	}
	q := `WITH conv AS (UPDATE conversations SET state = $1, last_message_at = $2 WHERE id = $3 RETURNING id),
	tok AS (UPDATE customers SET tokens_used = CASE WHEN tokens_day = $4 THEN tokens_used + $5 ELSE $5 END, tokens_day = $4
		WHERE id = $6 AND $5 > 0 RETURNING id)
	` + insert + `, (SELECT count(*) FROM conv)`
	args = append([]any{w.State, timeArg(now), w.ConversationID, w.TokenDay, w.Tokens, w.CustomerID}, args...)
	h, err := direct(db)
	if err != nil {
		return now, err
	}
	defer dbstats.Observe(ctx, "INSERT INTO messages (with the turn's updates)", time.Now())
	rows, err := h.QueryContext(ctx, q, args...)
	if err != nil {
		return now, fmt.Errorf("catalog: save turn of conversation %d: %w", w.ConversationID, err)
	}
	defer rows.Close()
	for i, m := range w.Messages {
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return now, fmt.Errorf("catalog: save turn of conversation %d: %w", w.ConversationID, err)
			}
			return now, fmt.Errorf("catalog: save turn: %d ids returned for %d messages", i, len(w.Messages))
		}
		var convRows int
		if err := rows.Scan(&m.ID, &convRows); err != nil {
			return now, err
		}
		if convRows != 1 { // unreachable while messages reference conversations
			return now, fmt.Errorf("catalog: save turn: conversation %d: %w", w.ConversationID, ErrNotFound)
		}
	}
	return now, rows.Close()
}
