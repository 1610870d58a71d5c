package catalog

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// ShopperTranscript is what a shopper may see again of a conversation:
// its latest limit messages that the shopper, the assistant or a merchant
// wrote with text (no tool calls or results, no system prompts), oldest
// first. A conversation that does not exist yet has none.
func ShopperTranscript(ctx context.Context, db bun.IDB, key ConversationKey, limit int) ([]Message, error) {
	var ms []Message
	sub := db.NewSelect().Model((*Conversation)(nil)).Column("id").
		Where("channel = ? AND chat_id = ? AND thread_id = ?", key.Channel, key.ChatID, key.ThreadID)
	err := db.NewSelect().Model(&ms).
		Where("conversation_id IN (?)", sub).
		Where("role IN (?)", bun.List([]Role{RoleUser, RoleAssistant, RoleMerchant})).
		Where("content <> ''").
		Order("id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: transcript of %s %s: %w", key.Channel, key.ChatID, err)
	}
	for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
		ms[i], ms[j] = ms[j], ms[i]
	}
	return ms, nil
}
