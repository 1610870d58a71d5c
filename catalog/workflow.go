package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// ConversationStatus is where a conversation stands for the team.
type ConversationStatus string

// The conversation states. A snoozed conversation whose time has come
// counts as open; a shopper's new message reopens a resolved or snoozed
// one (a database trigger, migration 0023).
const (
	ConvOpen     ConversationStatus = "open"
	ConvPending  ConversationStatus = "pending"
	ConvSnoozed  ConversationStatus = "snoozed"
	ConvResolved ConversationStatus = "resolved"
)

// ConversationStatuses lists the states in the order the panel offers them.
var ConversationStatuses = []ConversationStatus{ConvOpen, ConvPending, ConvSnoozed, ConvResolved}

// Valid reports whether s is one of ConversationStatuses.
func (s ConversationStatus) Valid() bool {
	return s == ConvOpen || s == ConvPending || s == ConvSnoozed || s == ConvResolved
}

// Workflow is a conversation's team state: status, assignee, labels and
// private notes.
type Workflow struct {
	Status       ConversationStatus `bun:"status"`
	SnoozedUntil *time.Time         `bun:"snoozed_until"`
	AssigneeID   *int64             `bun:"assignee_id"`
	Assignee     string             `bun:"assignee"`
	Labels       []string           `bun:"-"`
	Notes        []ConversationNote `bun:"-"`
}

// Effective is the status as of now: a snooze that has run out is open.
func (w Workflow) Effective(now time.Time) ConversationStatus {
	if w.Status == ConvSnoozed && (w.SnoozedUntil == nil || !w.SnoozedUntil.After(now)) {
		return ConvOpen
	}
	return w.Status
}

// ConversationNote is a private note of the team on a conversation. Notes
// live in their own table: the transcript the model and the channels read
// (messages) never contains them.
type ConversationNote struct {
	bun.BaseModel `bun:"table:conversation_notes"`

	ID             int64     `bun:"id,pk,autoincrement"`
	ConversationID int64     `bun:"conversation_id,notnull"`
	AuthorID       *int64    `bun:"author_id"`
	Author         string    `bun:"author,notnull"`
	Body           string    `bun:"body,notnull"`
	CreatedAt      time.Time `bun:"created_at,notnull"`
}

// GetWorkflow loads a conversation's workflow; ErrNotFound when there is
// no such conversation.
func GetWorkflow(ctx context.Context, db bun.IDB, conversationID int64) (*Workflow, error) {
	w := new(Workflow)
	err := db.NewSelect().TableExpr("conversations AS c").Join("LEFT JOIN staff_users AS su ON su.id = c.assignee_id").
		ColumnExpr("c.status, c.snoozed_until, c.assignee_id, COALESCE(su.username, '') AS assignee").
		Where("c.id = ?", conversationID).Scan(ctx, w)
	if err != nil {
		return nil, notFound(err, "conversation %d", conversationID)
	}
	if err := db.NewSelect().Table("conversation_labels").Column("label").Where("conversation_id = ?", conversationID).
		Order("label").Scan(ctx, &w.Labels); err != nil {
		return nil, fmt.Errorf("catalog: labels of conversation %d: %w", conversationID, err)
	}
	if err := db.NewSelect().Model(&w.Notes).Where("conversation_id = ?", conversationID).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: notes of conversation %d: %w", conversationID, err)
	}
	return w, nil
}

// SetConversationStatus moves a conversation to status; snoozed needs a
// time after now, and any other status forgets the snooze. A bad status
// or time is ErrInvalid and changes nothing.
func SetConversationStatus(ctx context.Context, db bun.IDB, conversationID int64, status ConversationStatus, until *time.Time, now time.Time) error {
	if !status.Valid() {
		return fmt.Errorf("catalog: conversation status %q: %w", status, ErrInvalid)
	}
	q := db.NewUpdate().Table("conversations").Set("status = ?", status).Where("id = ?", conversationID)
	if status == ConvSnoozed {
		if until == nil || !until.After(now) {
			return fmt.Errorf("catalog: snooze conversation %d: %w: the time must be in the future", conversationID, ErrInvalid)
		}
		q = q.Set("snoozed_until = ?", until.UTC())
	} else {
		q = q.Set("snoozed_until = NULL")
	}
	res, err := q.Exec(ctx)
	return expectOneRow(res, err, "conversation %d", conversationID)
}

// AddConversationNote stores a private note (1–4,000 characters).
func AddConversationNote(ctx context.Context, db bun.IDB, n *ConversationNote) error {
	n.Body = strings.TrimSpace(n.Body)
	if n.Body == "" || utf8.RuneCountInString(n.Body) > 4000 || n.Author == "" {
		return fmt.Errorf("catalog: note on conversation %d: %w: 1–4,000 characters and an author", n.ConversationID, ErrInvalid)
	}
	n.CreatedAt = n.CreatedAt.UTC()
	if err := conversationExists(ctx, db, n.ConversationID); err != nil {
		return err
	}
	if _, err := db.NewInsert().Model(n).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: note on conversation %d: %w", n.ConversationID, err)
	}
	return nil
}

// NormalizeLabel is a label as stored: trimmed, lower case, 1–32 letters,
// digits, '-' or '_'; anything else is ErrInvalid.
func NormalizeLabel(label string) (string, error) {
	l := strings.ToLower(strings.TrimSpace(label))
	bad := strings.IndexFunc(l, func(r rune) bool { return !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) })
	if l == "" || utf8.RuneCountInString(l) > 32 || bad >= 0 {
		return "", fmt.Errorf("catalog: label %q: %w: 1–32 letters, digits, - or _", label, ErrInvalid)
	}
	return l, nil
}

// AddConversationLabel labels a conversation (once: a label already there
// is no error).
func AddConversationLabel(ctx context.Context, db bun.IDB, conversationID int64, label string) error {
	l, err := NormalizeLabel(label)
	if err != nil {
		return err
	}
	if err := conversationExists(ctx, db, conversationID); err != nil {
		return err
	}
	_, err = db.NewInsert().Model(&conversationLabel{ConversationID: conversationID, Label: l}).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: label conversation %d: %w", conversationID, err)
	}
	return nil
}

// RemoveConversationLabel takes a label off; one not there is no error.
func RemoveConversationLabel(ctx context.Context, db bun.IDB, conversationID int64, label string) error {
	l := strings.ToLower(strings.TrimSpace(label))
	if _, err := db.NewDelete().Model((*conversationLabel)(nil)).Where("conversation_id = ?", conversationID).Where("label = ?", l).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: unlabel conversation %d: %w", conversationID, err)
	}
	return nil
}

// conversationExists is ErrNotFound for an unknown conversation.
func conversationExists(ctx context.Context, db bun.IDB, id int64) error {
	ok, err := db.NewSelect().Table("conversations").Where("id = ?", id).Exists(ctx)
	if err != nil {
		return fmt.Errorf("catalog: look up conversation %d: %w", id, err)
	}
	if !ok {
		return fmt.Errorf("catalog: conversation %d: %w", id, ErrNotFound)
	}
	return nil
}

type conversationLabel struct {
	bun.BaseModel `bun:"table:conversation_labels"`

	ConversationID int64  `bun:"conversation_id,pk"`
	Label          string `bun:"label,pk"`
}
