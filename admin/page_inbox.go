package admin

import (
	"net/http"
	"net/url"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/catalog/panel"
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
	// The team's views and filters (catalog/workflow_inbox.go).
	View     string // "", "mine", "unassigned", "human"
	Status   string
	Label    string
	Statuses []catalog.ConversationStatus
}

// inboxRow is one conversation in the inbox.
type inboxRow struct{ panel.InboxRow }

// Preview is the last message cut to a line.
func (r inboxRow) Preview() string {
	return clip.Shorten(strings.Join(strings.Fields(r.LastMessage), " "), 120)
}

const inboxPerPage = 50

var inboxViews = map[string]bool{"": true, "mine": true, "unassigned": true, "human": true}

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
	p.View, p.Status, p.Statuses = q.Get("view"), q.Get("status"), catalog.ConversationStatuses
	if !inboxViews[p.View] {
		p.View = ""
	}
	if !catalog.ConversationStatus(p.Status).Valid() {
		p.Status = ""
	}
	p.Label, _ = catalog.NormalizeLabel(q.Get("label")) // a bad label filters nothing
	wf := panel.InboxWorkflow{View: panel.InboxView(p.View), Me: sessionFrom(r.Context()).UserID,
		Status: catalog.ConversationStatus(p.Status), Label: p.Label, Now: s.cfg.Now()}
	cur, _ := catalog.ParseCursor(q.Get("after")) // a bad cursor is the first page
	p.Paged = cur != nil
	rows, next, err := panel.ListInbox(r.Context(), s.db, panel.Inbox{Text: p.Q, Channel: p.Channel, Show: panel.InboxShow(p.Show), After: cur, Limit: inboxPerPage, Workflow: wf})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Next = next
	for _, row := range rows {
		p.Rows = append(p.Rows, inboxRow{row})
	}
	if p.Channels, err = panel.ConversationChannels(r.Context(), s.db); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "inbox", "Conversations", "conversations", p)
}
