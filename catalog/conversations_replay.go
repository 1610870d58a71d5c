package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ConversationsWithTurnsSince lists, oldest first, the conversations with
// a shopper message at or after since: what shopbot replay replays.
func ConversationsWithTurnsSince(ctx context.Context, db bun.IDB, since time.Time) ([]int64, error) {
	var ids []int64
	err := db.NewSelect().Model((*Message)(nil)).ColumnExpr("DISTINCT conversation_id").
		Where("role = ?", RoleUser).Where("created_at >= ?", since.UTC()).
		Order("conversation_id").Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("catalog: conversations since %s: %w", since.Format(time.RFC3339), err)
	}
	return ids, nil
}
