package admin

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// inboxPage is /admin/conversations.
type inboxPage struct {
	Query    url.Values
	Q        string
	Channel  string
	Show     string // "", "human", "unread", "paused"
	Rows     []inboxRow
	Next     string
	Paged    bool
	Channels []string
}

// inboxRow is one conversation in the inbox.
type inboxRow struct {
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
}

// Unread reports a message newer than the last time staff looked.
func (r inboxRow) Unread() bool { return r.LastReadAt == nil || r.LastReadAt.Before(r.LastMessageAt) }

// Preview is the last message cut to a line.
func (r inboxRow) Preview() string {
	s := strings.Join(strings.Fields(r.LastMessage), " ")
	if rs := []rune(s); len(rs) > 120 {
		return string(rs[:120]) + "…"
	}
	return s
}

const inboxPerPage = 50

var inboxFilters = map[string]bool{"": true, "human": true, "unread": true, "paused": true}

func (s *Server) inbox(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := inboxPage{Query: q, Q: strings.TrimSpace(q.Get("q")), Channel: q.Get("channel"), Show: q.Get("show")}
	if !inboxFilters[p.Show] {
		p.Show = ""
	}
	if len(p.Q) > 200 {
		p.Q = p.Q[:200]
	}
	cur, _ := decodeCursor(q.Get("after"))
	p.Paged = cur != nil
	var err error
	if p.Rows, p.Next, err = listInbox(r.Context(), s.db, p, cur); err != nil {
		s.renderError(w, r, err)
		return
	}
	if p.Channels, err = distinctChannels(r.Context(), s.db, (*catalog.Conversation)(nil)); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "inbox", "Conversations", "conversations", p)
}

// lastMessageExpr is the newest visible message of the conversation (the
// index on messages (conversation_id, id) makes it one short scan).
const lastMessageExpr = "(SELECT m.%s FROM messages AS m WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant', 'merchant') AND m.content <> '' ORDER BY m.id DESC LIMIT 1)"

func listInbox(ctx context.Context, db bun.IDB, p inboxPage, cur *cursor) ([]inboxRow, string, error) {
	var rows []inboxRow
	q := db.NewSelect().TableExpr("conversations AS c").
		Join("LEFT JOIN customers AS cu ON cu.id = c.customer_id").
		ColumnExpr("c.id, c.channel, c.chat_id, c.thread_id, c.paused, c.needs_human, c.needs_human_reason, c.last_message_at, c.last_read_at").
		ColumnExpr("COALESCE(cu.display_name, '') AS customer, COALESCE(cu.username, '') AS username").
		ColumnExpr(strings.Replace(lastMessageExpr, "%s", "content", 1) + " AS last_message").
		ColumnExpr(strings.Replace(lastMessageExpr, "%s", "role", 1) + " AS last_role")
	if p.Channel != "" {
		q = q.Where("c.channel = ?", p.Channel)
	}
	switch p.Show {
	case "human":
		q = q.Where("c.needs_human = ?", true)
	case "paused":
		q = q.Where("c.paused = ?", true)
	case "unread":
		q = q.Where("(c.last_read_at IS NULL OR c.last_read_at < c.last_message_at)")
	}
	if p.Q != "" {
		pat, op := likePattern(p.Q), like(db)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("cu.display_name "+op+" ? ESCAPE '\\'", pat).
				WhereOr("cu.username "+op+" ? ESCAPE '\\'", pat).
				WhereOr("c.chat_id = ?", p.Q).
				WhereOr("c.id IN (SELECT m.conversation_id FROM messages AS m WHERE m.tool_name = '' AND m.content "+op+" ? ESCAPE '\\')", pat)
		})
	}
	if cur != nil {
		at := time.Unix(0, cur.Num).UTC()
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("c.last_message_at < ?", at).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("c.last_message_at = ?", at).Where("c.id < ?", cur.ID)
			})
		})
	}
	if err := q.OrderExpr("c.last_message_at DESC, c.id DESC").Limit(inboxPerPage+1).Scan(ctx, &rows); err != nil {
		return nil, "", err
	}
	next := ""
	if len(rows) > inboxPerPage {
		rows = rows[:inboxPerPage]
		last := rows[len(rows)-1]
		next = cursor{Num: last.LastMessageAt.UnixNano(), ID: last.ID}.encode()
	}
	return rows, next, nil
}
