package admin

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/panel"
)

// ordersPage is /admin/orders.
type ordersPage struct {
	Query    url.Values
	Status   string
	Channel  string
	From     string
	To       string
	Customer string // a customer id
	Orders   []catalog.Order
	Next     string
	Paged    bool
	Statuses []string
	Channels []string
	Error    string
}

var orderStatuses = []string{"new", "paid", "shipped", "delivered", "cancelled"}

const ordersPerPage = 50

// orderFilter reads the order list's filters (status, channel, dates,
// customer) from q, as the list and its CSV export share them; a bad one
// is described in the returned message and ignored.
func orderFilter(q url.Values) (p ordersPage, l catalog.OrderList) {
	p = ordersPage{
		Query: q, Status: q.Get("status"), Channel: strings.TrimSpace(q.Get("channel")),
		From: q.Get("from"), To: q.Get("to"), Customer: strings.TrimSpace(q.Get("customer")), Statuses: orderStatuses,
	}
	l = catalog.OrderList{Status: catalog.OrderStatus(p.Status), Channel: p.Channel, Limit: ordersPerPage}
	if t, ok := parseDay(p.From); ok {
		l.From = t
	} else if p.From != "" {
		p.Error = "From must be a date such as 2026-11-01."
	}
	if t, ok := parseDay(p.To); ok {
		l.Before = t.AddDate(0, 0, 1)
	} else if p.To != "" {
		p.Error = "To must be a date such as 2026-11-30."
	}
	if id, err := strconv.ParseInt(p.Customer, 10, 64); err == nil && id > 0 {
		l.Customer = id
	} else if p.Customer != "" {
		p.Error = "Customer must be a customer's number."
	}
	return p, l
}

func (s *Server) orders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p, l := orderFilter(q)
	if after, err := strconv.ParseInt(q.Get("after"), 10, 64); err == nil && after > 0 {
		l.AfterID, p.Paged = after, true
	}
	orders, next, err := catalog.ListOrderPage(r.Context(), s.db, l)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Orders = orders
	if next > 0 {
		p.Next = strconv.FormatInt(next, 10)
	}
	if p.Channels, err = panel.OrderChannels(r.Context(), s.db); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "orders", "Orders", "orders", p)
}

func parseDay(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	return t.UTC(), err == nil
}
