package admin

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"shopbot/catalog"
)

// customerPage is /admin/customers/{id}: the customer's identity and
// contact, orders, conversations and current cart; the owner can export
// their data or erase it.
type customerPage struct {
	Customer      *catalog.Customer
	Orders        []catalog.Order
	MoreOrders    bool
	Conversations []catalog.Conversation
	Cart          *catalog.Cart
}

func (s *Server) customerByPath(r *http.Request) (*catalog.Customer, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return nil, notFound("Customer")
	}
	c, err := catalog.GetCustomer(r.Context(), s.db, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, notFound("Customer")
	}
	return c, err
}

func (s *Server) customer(w http.ResponseWriter, r *http.Request) {
	c, err := s.customerByPath(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := customerPage{Customer: c}
	orders, next, err := catalog.ListOrderPage(r.Context(), s.db, catalog.OrderList{Customer: c.ID, Limit: 20})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Orders, p.MoreOrders = orders, next > 0
	if p.Conversations, err = catalog.CustomerConversations(r.Context(), s.db, c.ID); err != nil {
		s.renderError(w, r, err)
		return
	}
	if p.Cart, err = catalog.GetCart(r.Context(), s.db, catalog.PersonalCart(c.ID)); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "customer", "Customer", "customers", p)
}

// exportCustomer downloads everything kept about the customer as JSON
// (and records who exported it).
func (s *Server) exportCustomer(w http.ResponseWriter, r *http.Request) {
	c, err := s.customerByPath(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	x, err := catalog.ExportCustomer(r.Context(), s.db, c.ID, s.cfg.Now())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	sess := sessionFrom(r.Context())
	s.recordAudit(r, sess.UserID, sess.Username, "customer.export", strconv.FormatInt(c.ID, 10), "")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="customer-%d.json"`, c.ID))
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(x)
}

// forgetCustomer erases the customer's personal data (orders are kept
// with the personal fields cleared).
func (s *Server) forgetCustomer(w http.ResponseWriter, r *http.Request) {
	c, err := s.customerByPath(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	er, err := catalog.ForgetCustomer(r.Context(), s.db, c.ID)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	redirect(w, r, fmt.Sprintf("/admin/customers/%d", c.ID), fmt.Sprintf("Customer %d forgotten: %d conversations deleted, %d orders kept without personal details.", c.ID, er.Conversations, er.Orders))
}
