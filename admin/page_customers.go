package admin

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// customersPage is /admin/customers: search by name, username, phone,
// e-mail or channel id.
type customersPage struct {
	Query url.Values
	Q     string
	Rows  []catalog.CustomerRow
	Next  string
	Paged bool
}

func (s *Server) customers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := customersPage{Query: q, Q: strings.TrimSpace(q.Get("q"))}
	if len(p.Q) > 200 {
		p.Q = p.Q[:200]
	}
	l := catalog.CustomerList{Text: p.Q}
	if after, err := strconv.ParseInt(q.Get("after"), 10, 64); err == nil && after > 0 {
		l.AfterID, p.Paged = after, true
	}
	rows, next, err := catalog.ListCustomers(r.Context(), s.db, l)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Rows = rows
	if next > 0 {
		p.Next = strconv.FormatInt(next, 10)
	}
	s.render(w, r, http.StatusOK, "customers", "Customers", "customers", p)
}
