package team

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// SupportCase is one stretch of a conversation needing the team: opened
// by the shopper's message that needed a person (request_human, or a
// message while staff have taken the conversation over: a trigger of
// migration 0028), answered by a first staff reply, closed when resolved.
// A conversation has at most one open case.
type SupportCase struct {
	bun.BaseModel `bun:"table:support_cases"`

	ID             int64      `bun:"id,pk,autoincrement"`
	ConversationID int64      `bun:"conversation_id,notnull"`
	OpenedAt       time.Time  `bun:"opened_at,notnull"`
	FirstReplyAt   *time.Time `bun:"first_reply_at"`
	FirstReplyBy   *int64     `bun:"first_reply_by"`
	FirstReplySecs *int64     `bun:"first_reply_secs"`
	ResolvedAt     *time.Time `bun:"resolved_at"`
	ResolvedBy     *int64     `bun:"resolved_by"`
	AgentID        *int64     `bun:"agent_id"`
	ResolutionSecs *int64     `bun:"resolution_secs"`
}

// OpenSupportCase opens a case at at, unless the conversation has one
// open already (then nothing changes).
func OpenSupportCase(ctx context.Context, db bun.IDB, conversationID int64, at time.Time) error {
	c := &SupportCase{ConversationID: conversationID, OpenedAt: at.UTC()}
	if _, err := db.NewInsert().Model(c).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: open a support case on conversation %d: %w", conversationID, err)
	}
	return nil
}

// OpenCase returns the conversation's open case; ErrNotFound if none.
func OpenCase(ctx context.Context, db bun.IDB, conversationID int64) (*SupportCase, error) {
	c := new(SupportCase)
	err := db.NewSelect().Model(c).Where("conversation_id = ?", conversationID).Where("resolved_at IS NULL").Scan(ctx)
	if err != nil {
		return nil, catalog.NotFound(err, "open support case of conversation %d", conversationID)
	}
	return c, nil
}

// HandOff is request_human's write: the conversation is flagged as
// needing a person with the reason, a case opens (if none is open) at
// at, and with round robin on it is assigned to the next online staff
// member (AutoAssign). It returns the new assignee, or 0 when none was
// chosen. Run it in one transaction to make the three one change.
func HandOff(ctx context.Context, db bun.IDB, conversationID int64, reason string, at time.Time) (int64, error) {
	if err := catalog.FlagNeedsHuman(ctx, db, conversationID, reason); err != nil {
		return 0, err
	}
	if err := OpenSupportCase(ctx, db, conversationID, at); err != nil {
		return 0, err
	}
	who, err := AutoAssign(ctx, db, conversationID, at)
	if errors.Is(err, catalog.ErrNotFound) {
		return 0, nil
	}
	return who, err
}

// RecordStaffReply notes the first staff reply of the conversation's
// open case (its first response time); a later reply, or one with no
// case open, changes nothing.
func RecordStaffReply(ctx context.Context, db bun.IDB, conversationID, userID int64, at time.Time) error {
	c, err := OpenCase(ctx, db, conversationID)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if c.FirstReplyAt != nil {
		return nil
	}
	secs := max(int64(at.Sub(c.OpenedAt)/time.Second), 0)
	_, err = db.NewUpdate().Model((*SupportCase)(nil)).
		Set("first_reply_at = ?", at.UTC()).Set("first_reply_by = ?", userID).Set("first_reply_secs = ?", secs).
		Where("id = ?", c.ID).Where("first_reply_at IS NULL").Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: record the first reply on conversation %d: %w", conversationID, err)
	}
	return nil
}

// ResolveConversation moves the conversation to resolved on behalf of
// staff member by, in one transaction: its open case closes (resolution
// time, credited to the assignee, else to by), and unless the shopper
// rated the conversation before, it is marked as asked for a rating.
// ask is true when the caller should send the shopper the rating prompt:
// only the call that resolved it (a conversation resolved already, by a
// double click or another replica, answers false and changes nothing).
func ResolveConversation(ctx context.Context, db bun.IDB, conversationID, by int64, at time.Time) (ask bool, err error) {
	at = at.UTC()
	err = inTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		var assignee sql.NullInt64
		err := tx.NewSelect().Table("conversations").Column("assignee_id").Where("id = ?", conversationID).Scan(ctx, &assignee)
		if err != nil {
			return catalog.NotFound(err, "conversation %d", conversationID)
		}
		res, err := tx.NewUpdate().Table("conversations").Set("status = ?", catalog.ConvResolved).Set("snoozed_until = NULL").
			Where("id = ?", conversationID).Where("status <> ?", catalog.ConvResolved).Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: resolve conversation %d: %w", conversationID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // resolved already
		}
		agent := by
		if assignee.Valid {
			agent = assignee.Int64
		}
		if err := closeCase(ctx, tx, conversationID, by, agent, at); err != nil {
			return err
		}
		res, err = tx.NewUpdate().Table("conversations").Set("csat_asked_at = ?", at).Set("csat_agent_id = ?", agent).
			Where("id = ?", conversationID).Where("csat_rating IS NULL").Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: ask for a rating of conversation %d: %w", conversationID, err)
		}
		n, _ := res.RowsAffected()
		ask = n == 1
		return nil
	})
	return ask, err
}

func closeCase(ctx context.Context, tx bun.IDB, conversationID, by, agent int64, at time.Time) error {
	c, err := OpenCase(ctx, tx, conversationID)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	secs := max(int64(at.Sub(c.OpenedAt)/time.Second), 0)
	_, err = tx.NewUpdate().Model((*SupportCase)(nil)).Set("resolved_at = ?", at).Set("resolved_by = ?", by).
		Set("agent_id = ?", agent).Set("resolution_secs = ?", secs).Where("id = ?", c.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: close the support case of conversation %d: %w", conversationID, err)
	}
	return nil
}
