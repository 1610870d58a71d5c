package team

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// MarkConversationRead records that staff read the conversation up to at,
// so the inbox no longer shows it as unread.
func MarkConversationRead(ctx context.Context, db bun.IDB, conversationID int64, at time.Time) error {
	res, err := db.NewUpdate().Model((*catalog.Conversation)(nil)).Set("last_read_at = ?", at.UTC()).Where("id = ?", conversationID).Exec(ctx)
	return catalog.ExpectOneRow(res, err, "conversation %d", conversationID)
}

// HandBack lets the bot answer a paused conversation again and clears its
// needs-human flag, both or neither.
func HandBack(ctx context.Context, db bun.IDB, conversationID int64) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := catalog.SetPaused(ctx, tx, conversationID, false); err != nil {
			return err
		}
		_, err := tx.NewUpdate().Model((*catalog.Conversation)(nil)).
			Set("needs_human = ?", false).Set("needs_human_reason = ''").Where("id = ?", conversationID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: clear needs-human of conversation %d: %w", conversationID, err)
		}
		return nil
	})
}

// AddMerchantReply stores a merchant's message in the transcript (role
// merchant, model "staff:<username>") and pauses the bot there, both or
// neither; the first reply of an open support case is its first response
// (RecordStaffReply).
func AddMerchantReply(ctx context.Context, db bun.IDB, conversationID int64, username, text string) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := catalog.SetPaused(ctx, tx, conversationID, true); err != nil {
			return err
		}
		if err := catalog.AppendMessages(ctx, tx, conversationID, &catalog.Message{Role: catalog.RoleMerchant, Content: text, Model: "staff:" + username}); err != nil {
			return err
		}
		u, err := FindStaffUser(ctx, tx, username)
		if err != nil {
			return nil // a reply not from a staff user (a script) answers no case
		}
		return RecordStaffReply(ctx, tx, conversationID, u.ID, time.Now())
	})
}
