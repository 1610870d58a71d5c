package admin

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// auditPage is /admin/audit: who changed what, newest first, filtered by
// user and by kind of change, fifty at a time.
type auditPage struct {
	Entries []catalog.AuditEntry
	User    string
	Action  string
	Query   url.Values
	Older   int64 // the id to page back from; 0 when this is the last page
	Kinds   []string
}

// auditKinds are the action prefixes the filter offers.
var auditKinds = []string{"product.", "order.", "settings.", "delivery.", "staff.", "takeover.", "page.", "promo.", "import.", "feed.", "review.", "demo."}

func (s *Server) auditPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := auditPage{User: strings.TrimSpace(q.Get("user")), Action: strings.TrimSpace(q.Get("action")), Query: url.Values{}, Kinds: auditKinds}
	before, _ := strconv.ParseInt(q.Get("before"), 10, 64)
	const per = 50
	es, err := catalog.ListAudit(r.Context(), s.db, catalog.AuditFilter{Username: p.User, Action: p.Action, Before: before, Limit: per})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Entries = es
	if len(es) == per {
		p.Older = es[len(es)-1].ID
	}
	if p.User != "" {
		p.Query.Set("user", p.User)
	}
	if p.Action != "" {
		p.Query.Set("action", p.Action)
	}
	s.render(w, r, http.StatusOK, "audit", "Audit log", "staff", p)
}
