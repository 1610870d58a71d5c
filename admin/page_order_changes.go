package admin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// The order page's merchant changes: cancel (before shipping) and refund
// (the whole order or chosen lines, once paid). Each form carries a
// one-time key rendered with the page, so a double submit is applied
// once (catalog.CancelOrder, catalog.RefundOrder); the shopper is told in
// the order's chat.

// cancelOrder is POST /admin/orders/{number}/cancel.
func (s *Server) cancelOrder(w http.ResponseWriter, r *http.Request) {
	s.cancelWithKey(w, r, r.FormValue("key"))
}

func (s *Server) cancelWithKey(w http.ResponseWriter, r *http.Request, key string) {
	o, applied, err := catalog.CancelOrder(r.Context(), s.db, catalog.OrderChange{
		Number: r.PathValue("number"), FormKey: key, Staff: sessionFrom(r.Context()).Username,
	})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if !applied {
		redirect(w, r, "/admin/orders/"+o.Number, "This cancellation was already made; nothing changed.")
		return
	}
	s.log.InfoContext(r.Context(), "order cancelled", "order", o.Number, "user", sessionFrom(r.Context()).Username)
	note := ""
	if o.PaidAt != nil {
		note = fmt.Sprintf("Refund of %s: %s.", catalog.FormatPrice(o.RefundedTotal, o.Currency), catalog.RefundNote)
	}
	redirect(w, r, "/admin/orders/"+o.Number, s.tellShopper(r.Context(), o, note, "Order "+o.Number+" cancelled; its items are back in stock. "+note))
}

// refundOrder is POST /admin/orders/{number}/refund: fields qty_<line id>
// (units to refund), or all=1 for everything left; seen is the refunded
// total the page showed.
func (s *Server) refundOrder(w http.ResponseWriter, r *http.Request) {
	c, err := refundForm(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	c.Number, c.Staff = r.PathValue("number"), sessionFrom(r.Context()).Username
	before, err := catalog.GetOrder(r.Context(), s.db, c.Number)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	o, applied, err := catalog.RefundOrder(r.Context(), s.db, c)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if !applied {
		redirect(w, r, "/admin/orders/"+o.Number, "This refund was already made; nothing changed.")
		return
	}
	amount := catalog.FormatPrice(o.RefundedTotal-before.RefundedTotal, o.Currency)
	s.log.InfoContext(r.Context(), "order refunded", "order", o.Number, "amount", amount, "user", c.Staff)
	note := fmt.Sprintf("Refund of %s: %s.", amount, catalog.RefundNote)
	redirect(w, r, "/admin/orders/"+o.Number, s.tellShopper(r.Context(), o, note, "Refunded "+amount+" of order "+o.Number+"; the units are back in stock. Make the payment back yourself."))
}

func refundForm(r *http.Request) (catalog.OrderChange, error) {
	if err := r.ParseForm(); err != nil {
		return catalog.OrderChange{}, badRequest("The form could not be read.")
	}
	c := catalog.OrderChange{FormKey: r.PostForm.Get("key"), All: r.PostForm.Get("all") == "1", Lines: map[int64]int{}}
	seen, err := strconv.ParseInt(r.PostForm.Get("seen"), 10, 64)
	if err != nil {
		return c, badRequest("The form is missing what it was refunded before; reload the page.")
	}
	c.SeenRefunded = seen
	for name, vals := range r.PostForm {
		idText, ok := strings.CutPrefix(name, "qty_")
		if !ok || len(vals) == 0 || strings.TrimSpace(vals[0]) == "" {
			continue
		}
		id, err := strconv.ParseInt(idText, 10, 64)
		q, qerr := strconv.Atoi(strings.TrimSpace(vals[0]))
		if err != nil || qerr != nil || q < 0 {
			return c, badRequest("Quantities to refund must be whole numbers, 0 or more.")
		}
		c.Lines[id] = q
	}
	return c, nil
}

// tellShopper sends the order's status (with note) to the shopper and
// returns flash, saying whether they were told.
func (s *Server) tellShopper(ctx context.Context, o *catalog.Order, note, flash string) string {
	return flash + " " + s.told(ctx, "order "+o.Number+" change", o.Channel, s.notifyOrderNote(ctx, o, note), "they were not notified")
}

// orderChanges is what the order page shows of refunds and offers.
type orderChanges struct {
	CanCancel, CanRefund bool
	FormKey              string // one-time key of the cancel and refund forms
	Refunds              []catalog.OrderRefund
	Lines                []refundableLine
	Note                 string
	Returns              []catalog.OrderReturn // the shopper's returns (page_returns.go)
}

// refundableLine is an order line with units left to refund.
type refundableLine struct {
	ID      int64
	SKU     string
	Variant string // option values as sold, "42 / Navy"
	Left    int
}

func loadOrderChanges(ctx context.Context, s *Server, o *catalog.Order) (orderChanges, error) {
	ch := orderChanges{CanCancel: o.CanCancel(), CanRefund: o.CanRefund(), FormKey: randomToken(), Note: catalog.RefundNote}
	for _, it := range o.Items {
		if left := it.Quantity - it.RefundedQty; left > 0 {
			ch.Lines = append(ch.Lines, refundableLine{ID: it.ID, SKU: it.SKU, Variant: catalog.OptionLabel(it.Options, nil), Left: left})
		}
	}
	var err error
	ch.Refunds, err = catalog.ListOrderRefunds(ctx, s.db, o.ID)
	if err != nil && !errors.Is(err, catalog.ErrNotFound) {
		return ch, err
	}
	if ch.Returns, err = catalog.OrderReturns(ctx, s.db, o.ID); err != nil {
		return ch, err
	}
	return ch, nil
}
