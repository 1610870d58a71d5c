package catalog

import (
	"context"

	"github.com/uptrace/bun"
)

// FindConversation returns the conversation for key without creating it,
// or ErrNotFound; the Slack adapter asks it whether a thread is one the
// assistant takes part in.
func FindConversation(ctx context.Context, db bun.IDB, key ConversationKey) (*Conversation, error) {
	c := new(Conversation)
	err := db.NewSelect().Model(c).
		Where("channel = ?", key.Channel).Where("chat_id = ?", key.ChatID).Where("thread_id = ?", key.ThreadID).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "conversation %s/%s/%s", key.Channel, key.ChatID, key.ThreadID)
	}
	return c, nil
}
