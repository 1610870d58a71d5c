package admin

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/engine/view"
)

// orderPage is /admin/orders/{number}.
type orderPage struct {
	Order        *catalog.Order
	Customer     *catalog.Customer
	Conversation int64 // id of the conversation the order came from, 0 if none
	Next         []string
	Changes      orderChanges // cancel and refund (page_order_changes.go)
}

func (s *Server) order(w http.ResponseWriter, r *http.Request) {
	o, err := catalog.GetOrder(r.Context(), s.db, r.PathValue("number"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := orderPage{Order: o}
	if p.Customer, err = catalog.GetCustomer(r.Context(), s.db, o.CustomerID); err != nil && !errors.Is(err, catalog.ErrNotFound) {
		s.renderError(w, r, err)
		return
	}
	p.Conversation = catalog.FindConversationID(r.Context(), s.db, catalog.ConversationKey{Channel: o.Channel, ChatID: o.ChatID, ThreadID: o.ThreadID})
	if p.Changes, err = loadOrderChanges(r.Context(), s, o); err != nil {
		s.renderError(w, r, err)
		return
	}
	for _, st := range orderStatuses {
		// Cancelling has its own form, which also records the refund.
		if st != string(catalog.StatusCancelled) && o.Status.CanBecome(catalog.OrderStatus(st)) {
			p.Next = append(p.Next, st)
		}
	}
	s.render(w, r, http.StatusOK, "order", "Order "+o.Number, "orders", p)
}

// setOrderStatus moves an order along its lifecycle (cancelling returns
// the stock, in the same transaction) and tells the shopper in the chat
// the order came from.
func (s *Server) setOrderStatus(w http.ResponseWriter, r *http.Request) {
	number := r.PathValue("number")
	next := catalog.OrderStatus(r.FormValue("status"))
	note := strings.TrimSpace(r.FormValue("tracking"))
	if len(note) > 500 {
		s.renderError(w, r, badRequest("The tracking note must be at most 500 characters."))
		return
	}
	if next == catalog.StatusCancelled {
		s.cancelWithKey(w, r, randomToken()) // the status conditional keeps it once
		return
	}
	o, err := catalog.ChangeOrderStatus(r.Context(), s.db, number, next, note)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "order status changed", "order", o.Number, "status", o.Status, "user", sessionFrom(r.Context()).Username)
	msg := "Order " + o.Number + " is now " + string(o.Status) + "."
	msg += " " + s.told(r.Context(), "order "+o.Number+" status", o.Channel, s.notifyOrder(r.Context(), o), "they were not notified")
	redirect(w, r, "/admin/orders/"+o.Number, msg)
}

// noticeTimeout bounds the delivery of a notice to a shopper.
const noticeTimeout = 10 * time.Second

func (s *Server) notifyOrder(ctx context.Context, o *catalog.Order) error {
	return s.notifyOrderNote(ctx, o, "")
}

// notifyOrderNote tells the shopper the order's status, with note (a
// refund) when not empty.
func (s *Server) notifyOrderNote(ctx context.Context, o *catalog.Order, note string) error {
	if s.cfg.Notifier == nil {
		return errNoNotifier
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), noticeTimeout)
	defer cancel()
	n := view.Notice{
		Kind:  view.NoticeOrderStatus,
		Where: catalog.ConversationKey{Channel: o.Channel, ChatID: o.ChatID, ThreadID: o.ThreadID},
		Order: orderView(o),
		Text:  note,
	}
	n.ConversationID = catalog.FindConversationID(ctx, s.db, n.Where)
	if o.Customer != nil {
		n.Customer = o.Customer.DisplayName
	}
	return s.cfg.Notifier.Notify(ctx, n)
}

// orderView renders an order as shoppers see it.
func orderView(o *catalog.Order) *view.OrderView {
	v := &view.OrderView{
		Number: o.Number, Status: string(o.Status), Total: o.Total, Currency: o.Currency,
		TotalText: catalog.FormatPrice(o.Total, o.Currency), CreatedAt: o.CreatedAt.UTC().Format(time.RFC3339),
		Tracking: o.TrackingNote, Lines: []view.OrderLine{},
	}
	for _, it := range o.Items {
		v.Lines = append(v.Lines, view.OrderLine{SKU: it.SKU, Title: it.Title, Qty: it.Quantity, UnitPrice: it.UnitPrice,
			Variant: catalog.OptionLabel(it.Options, nil)})
	}
	return v
}
