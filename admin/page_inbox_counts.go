package admin

import (
	"encoding/json"
	"net/http"

	"shopbot/catalog/panel"
)

// inboxCounts is /admin/conversations/counts: the unread and needs-human
// counts as JSON ({"unread", "needs_human"}, each capped at
// panel.InboxCountCap), which static/live.js puts in the page title
// and watches for the opt-in notification.
func (s *Server) inboxCounts(w http.ResponseWriter, r *http.Request) {
	n, err := panel.InboxCounts(r.Context(), s.db)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(n)
}
