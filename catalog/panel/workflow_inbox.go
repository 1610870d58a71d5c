package panel

import (
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// InboxView is one of the team's inbox views.
type InboxView string

// The views: every conversation, the signed-in member's, those assigned
// to no one, and those where the shopper asked for a person (not yet
// resolved).
const (
	ViewAll        InboxView = ""
	ViewMine       InboxView = "mine"
	ViewUnassigned InboxView = "unassigned"
	ViewNeedsHuman InboxView = "human"
)

// InboxWorkflow narrows the inbox by the team's workflow.
type InboxWorkflow struct {
	View   InboxView
	Me     int64                      // the staff member "mine" means
	Status catalog.ConversationStatus // "" for any; a snooze that ran out is open
	Label  string                     // "" for any
	Now    time.Time                  // when snoozes are judged; zero is time.Now
}

func (w InboxWorkflow) where(q *bun.SelectQuery) *bun.SelectQuery {
	now := w.Now
	if now.IsZero() {
		now = time.Now()
	}
	now = now.UTC()
	switch w.View {
	case ViewMine:
		q = q.Where("c.assignee_id = ?", w.Me)
	case ViewUnassigned:
		q = q.Where("c.assignee_id IS NULL")
	case ViewNeedsHuman:
		q = q.Where("c.needs_human = ?", true).Where("c.status <> ?", catalog.ConvResolved)
	}
	switch w.Status {
	case "":
	case catalog.ConvOpen:
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("c.status = ?", catalog.ConvOpen).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("c.status = ?", catalog.ConvSnoozed).Where("c.snoozed_until <= ?", now)
			})
		})
	case catalog.ConvSnoozed:
		q = q.Where("c.status = ?", catalog.ConvSnoozed).Where("c.snoozed_until > ?", now)
	default:
		q = q.Where("c.status = ?", w.Status)
	}
	// Label is ListInbox's: the page starts from the label's rows.
	return q
}
