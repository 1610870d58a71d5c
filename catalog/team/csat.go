package team

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// CSAT is a conversation's satisfaction rating.
type CSAT struct {
	AskedAt *time.Time `bun:"csat_asked_at"`
	Rating  *int       `bun:"csat_rating"`
	At      *time.Time `bun:"csat_at"`
	AgentID *int64     `bun:"csat_agent_id"`
	Agent   string     `bun:"agent"`
}

// GetCSAT returns the conversation's rating state; ErrNotFound if there is
// no such conversation.
func GetCSAT(ctx context.Context, db bun.IDB, conversationID int64) (*CSAT, error) {
	c := new(CSAT)
	err := db.NewSelect().TableExpr("conversations AS c").Join("LEFT JOIN staff_users AS su ON su.id = c.csat_agent_id").
		ColumnExpr("c.csat_asked_at, c.csat_rating, c.csat_at, c.csat_agent_id, COALESCE(su.username, '') AS agent").
		Where("c.id = ?", conversationID).Scan(ctx, c)
	if err != nil {
		return nil, catalog.NotFound(err, "conversation %d", conversationID)
	}
	return c, nil
}

// RateConversation stores the shopper's 1–5 rating. The first answer
// stays: a conversation rated already, or never asked (ResolveConversation
// asks), is ErrConflict and changes nothing; a rating outside 1–5 is
// ErrInvalid. Two taps at once on two replicas store one of them.
func RateConversation(ctx context.Context, db bun.IDB, conversationID int64, rating int, at time.Time) error {
	if rating < 1 || rating > 5 {
		return fmt.Errorf("catalog: rating %d: %w: 1 to 5", rating, catalog.ErrInvalid)
	}
	res, err := db.NewUpdate().Table("conversations").Set("csat_rating = ?", rating).Set("csat_at = ?", at.UTC()).
		Where("id = ?", conversationID).Where("csat_asked_at IS NOT NULL").Where("csat_rating IS NULL").Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: rate conversation %d: %w", conversationID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("catalog: rate conversation %d: %w: rated already or not asked", conversationID, catalog.ErrConflict)
	}
	return nil
}
