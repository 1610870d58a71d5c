package admin

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// ordersPage is /admin/orders.
type ordersPage struct {
	Query    url.Values
	Status   string
	Channel  string
	From     string
	To       string
	Orders   []catalog.Order
	Next     string
	Paged    bool
	Statuses []string
	Channels []string
	Error    string
}

var orderStatuses = []string{"new", "paid", "shipped", "delivered", "cancelled"}

const ordersPerPage = 50

func (s *Server) orders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := ordersPage{
		Query: q, Status: q.Get("status"), Channel: strings.TrimSpace(q.Get("channel")),
		From: q.Get("from"), To: q.Get("to"), Statuses: orderStatuses,
	}
	sel := s.db.NewSelect().Model(&p.Orders).Relation("Customer")
	if p.Status != "" {
		sel = sel.Where("?TableAlias.status = ?", p.Status)
	}
	if p.Channel != "" {
		sel = sel.Where("?TableAlias.channel = ?", p.Channel)
	}
	if t, ok := parseDay(p.From); ok {
		sel = sel.Where("?TableAlias.created_at >= ?", t)
	} else if p.From != "" {
		p.Error = "From must be a date such as 2026-11-01."
	}
	if t, ok := parseDay(p.To); ok {
		sel = sel.Where("?TableAlias.created_at < ?", t.AddDate(0, 0, 1))
	} else if p.To != "" {
		p.Error = "To must be a date such as 2026-11-30."
	}
	if after, err := strconv.ParseInt(q.Get("after"), 10, 64); err == nil && after > 0 {
		sel = sel.Where("?TableAlias.id < ?", after)
		p.Paged = true
	}
	if err := sel.OrderExpr("?TableAlias.id DESC").Limit(ordersPerPage + 1).Scan(r.Context()); err != nil {
		s.renderError(w, r, err)
		return
	}
	if len(p.Orders) > ordersPerPage {
		p.Orders = p.Orders[:ordersPerPage]
		p.Next = strconv.FormatInt(p.Orders[len(p.Orders)-1].ID, 10)
	}
	var err error
	if p.Channels, err = distinctChannels(r.Context(), s.db, (*catalog.Order)(nil)); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "orders", "Orders", "orders", p)
}

func parseDay(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	return t.UTC(), err == nil
}

// distinctChannels lists the channels seen in a table (orders or
// conversations), for filters.
func distinctChannels(ctx context.Context, db bun.IDB, model any) ([]string, error) {
	var out []string
	err := db.NewSelect().Model(model).Distinct().Column("channel").Order("channel").Scan(ctx, &out)
	return out, err
}
