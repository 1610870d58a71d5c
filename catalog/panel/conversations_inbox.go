package panel

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// InboxRow is one conversation of the merchant's inbox, with its customer
// and newest visible message.
type InboxRow struct {
	ID               int64      `bun:"id"`
	Channel          string     `bun:"channel"`
	ChatID           string     `bun:"chat_id"`
	ThreadID         string     `bun:"thread_id"`
	Paused           bool       `bun:"paused"`
	NeedsHuman       bool       `bun:"needs_human"`
	NeedsHumanReason string     `bun:"needs_human_reason"`
	LastMessageAt    time.Time  `bun:"last_message_at"`
	LastReadAt       *time.Time `bun:"last_read_at"`
	Customer         string     `bun:"customer"`
	Username         string     `bun:"username"`
	LastMessage      string     `bun:"last_message"`
	LastRole         string     `bun:"last_role"`
	// The team's workflow (workflow.go).
	Status       catalog.ConversationStatus `bun:"status"`
	SnoozedUntil *time.Time                 `bun:"snoozed_until"`
	Assignee     string                     `bun:"assignee"`
}

// Unread reports a message newer than the last time staff looked.
func (r InboxRow) Unread() bool { return r.LastReadAt == nil || r.LastReadAt.Before(r.LastMessageAt) }

// InboxShow narrows the inbox; the zero value shows every conversation.
type InboxShow string

const (
	InboxAll        InboxShow = ""
	InboxNeedsHuman InboxShow = "human"
	InboxUnread     InboxShow = "unread"
	InboxPaused     InboxShow = "paused"
)

// Inbox selects a page of the inbox, newest message first.
type Inbox struct {
	// Text matches the customer's name or username (substring, any
	// case), the chat id exactly, or any shopper, assistant or merchant
	// message (substring).
	Text    string
	Channel string
	Show    InboxShow
	After   *catalog.Cursor // ListInbox's previous next; nil for the first page
	Limit   int             // default 50, at most 500
	// The team's views (workflow_inbox.go).
	Workflow InboxWorkflow
}

// lastMessageExpr is the newest visible message of the conversation (the
// index on messages (conversation_id, id) makes it one short scan).
const lastMessageExpr = "(SELECT m.%s FROM messages AS m WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant', 'merchant') AND m.content <> '' ORDER BY m.id DESC LIMIT 1)"

// ListInbox returns one page of the conversations in selects and the
// cursor of the next page ("" on the last).
func ListInbox(ctx context.Context, db bun.IDB, in Inbox) ([]InboxRow, string, error) {
	limit := in.Limit
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	var rows []InboxRow
	// A label's page walks that label's rows newest first (their copy of
	// last_message_at, migration 0028), not every conversation.
	q, at, id := db.NewSelect().TableExpr("conversations AS c"), "c.last_message_at", "c.id"
	if in.Workflow.Label != "" {
		q = db.NewSelect().TableExpr("conversation_labels AS l").Join("JOIN conversations AS c ON c.id = l.conversation_id").
			Where("l.label = ?", in.Workflow.Label)
		at, id = "l.last_message_at", "l.conversation_id"
	}
	q = q.Join("LEFT JOIN customers AS cu ON cu.id = c.customer_id").
		ColumnExpr("c.id, c.channel, c.chat_id, c.thread_id, c.paused, c.needs_human, c.needs_human_reason, c.last_message_at, c.last_read_at").
		ColumnExpr("COALESCE(cu.display_name, '') AS customer, COALESCE(cu.username, '') AS username").
		ColumnExpr("c.status, c.snoozed_until, COALESCE((SELECT su.username FROM staff_users AS su WHERE su.id = c.assignee_id), '') AS assignee").
		ColumnExpr(strings.Replace(lastMessageExpr, "%s", "content", 1) + " AS last_message").
		ColumnExpr(strings.Replace(lastMessageExpr, "%s", "role", 1) + " AS last_role")
	q = in.after(in.where(db, q), at, id)
	if err := q.OrderExpr(at+" DESC, "+id+" DESC").Limit(int64(limit+1)).Scan(ctx, &rows); err != nil {
		return nil, "", fmt.Errorf("catalog: list inbox: %w", err)
	}
	if len(rows) <= limit {
		return rows, "", nil
	}
	rows = rows[:limit]
	last := rows[len(rows)-1]
	return rows, catalog.Cursor{Num: last.LastMessageAt.UnixNano(), ID: last.ID}.String(), nil
}

func (in Inbox) where(db bun.IDB, q *bun.SelectQuery) *bun.SelectQuery {
	if in.Channel != "" {
		q = q.Where("c.channel = ?", in.Channel)
	}
	switch in.Show {
	case InboxNeedsHuman:
		q = q.Where("c.needs_human = ?", true)
	case InboxPaused:
		q = q.Where("c.paused = ?", true)
	case InboxUnread:
		q = q.Where("(c.last_read_at IS NULL OR c.last_read_at < c.last_message_at)")
	}
	q = in.Workflow.where(q)
	if in.Text != "" {
		pat, op := catalog.LikePattern(in.Text), catalog.LikeOp(db)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("cu.display_name "+op+" ? ESCAPE '\\'", pat).
				WhereOr("cu.username "+op+" ? ESCAPE '\\'", pat).
				WhereOr("c.chat_id = ?", in.Text).
				WhereOr("c.id IN (SELECT m.conversation_id FROM messages AS m WHERE m.tool_name = '' AND m.content "+op+" ? ESCAPE '\\')", pat)
		})
	}
	return q
}

// after narrows to the rows after the cursor in the order of the
// columns atCol, idCol (the conversation's time and id, or a label
// row's copies of them).
func (in Inbox) after(q *bun.SelectQuery, atCol, idCol string) *bun.SelectQuery {
	cur := in.After
	if cur == nil {
		return q
	}
	at := time.Unix(0, cur.Num).UTC()
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("? < ?", bun.Safe(atCol), at).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("? = ?", bun.Safe(atCol), at).Where("? < ?", bun.Safe(idCol), cur.ID)
		})
	})
}

// ConversationChannels lists the channels that have conversations, for
// the inbox's filter.
func ConversationChannels(ctx context.Context, db bun.IDB) ([]string, error) {
	return distinctChannels(ctx, db, (*catalog.Conversation)(nil))
}

// OrderChannels lists the channels that have orders, for the order
// list's filter.
func OrderChannels(ctx context.Context, db bun.IDB) ([]string, error) {
	return distinctChannels(ctx, db, (*catalog.Order)(nil))
}

// distinctChannels lists the channels seen in a table, by name.
func distinctChannels(ctx context.Context, db bun.IDB, model any) ([]string, error) {
	var out []string
	if err := db.NewSelect().Model(model).Distinct().Column("channel").Order("channel").Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("catalog: list channels: %w", err)
	}
	return out, nil
}
