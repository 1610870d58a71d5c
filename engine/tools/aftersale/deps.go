package aftersale

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Deps are what the after-sale tools read and write, asked for at each
// call (engine/tools passes its methods).
type Deps struct {
	Orders func() toolkit.Orders
	// Apply makes one effect of the turn in its own transaction with its
	// journal row (toolkit.Effects.Apply).
	Apply func(ctx context.Context, s *session.Session, key string, write toolkit.EffectWrite) (bool, error)
	// Now is the clock for a session without one.
	Now func() time.Time
	// ReturnWindow is how long after delivery a return may be asked (0:
	// no limit), asked at each call.
	ReturnWindow func() time.Duration
}

func (d Deps) now(s *session.Session) time.Time {
	if s.Now.IsZero() && d.Now != nil {
		return d.Now().UTC()
	}
	if s.Now.IsZero() {
		return time.Now().UTC()
	}
	return s.Now.UTC()
}

// ownOrder is the shopper's order of that number; any other is reported
// as missing, as get_order_status does.
func (d Deps) ownOrder(ctx context.Context, s *session.Session, number string) (*catalog.Order, error) {
	number = strings.ToUpper(strings.TrimSpace(number))
	if number == "" {
		return nil, toolkit.Errorf("order_number is required")
	}
	o, err := d.Orders().Order(ctx, number)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, toolkit.Errorf("no order with that number")
	}
	if err != nil {
		return nil, fmt.Errorf("engine: after-sale: %w", err)
	}
	if o.CustomerID != s.Customer.ID && o.CartScope != s.Scope.Key() {
		return nil, toolkit.Errorf("no order with that number")
	}
	return o, nil
}

// reread is the order as it is now, after a write lost to the merchant's
// change (ErrInvalidTransition, ErrConflict); another error is returned.
func (d Deps) reread(ctx context.Context, o *catalog.Order, err error) (*catalog.Order, error) {
	if err != nil && !errors.Is(err, catalog.ErrInvalidTransition) && !errors.Is(err, catalog.ErrConflict) {
		return nil, err
	}
	return d.Orders().Order(ctx, o.Number)
}

// Brief is an order as the after-sale tools show it to the model.
type Brief struct {
	Number  string      `json:"number"`
	Status  string      `json:"status"`
	Total   string      `json:"total"`
	Address string      `json:"address,omitempty"`
	Lines   []BriefLine `json:"lines"`
}

// BriefLine is one line of a Brief.
type BriefLine struct {
	SKU   string `json:"sku"`
	Title string `json:"title"`
	Qty   int    `json:"qty"`
}

func briefOf(o *catalog.Order) Brief {
	b := Brief{Number: o.Number, Status: string(o.Status), Total: catalog.FormatPrice(o.Total, o.Currency),
		Address: o.ShippingAddress, Lines: make([]BriefLine, len(o.Items))}
	for i, it := range o.Items {
		b.Lines[i] = BriefLine{SKU: it.SKU, Title: it.Title, Qty: it.Quantity}
	}
	return b
}

// answer is an after-sale tool's result: a status, the order and extras.
func answer(status string, o *catalog.Order, extra map[string]any) toolkit.Result {
	data := map[string]any{"status": status, "order": briefOf(o)}
	for k, v := range extra {
		data[k] = v
	}
	return toolkit.Result{Data: data, Order: view.OrderViewOf(o)}
}

// noWrites is the error of a store that cannot make the change.
func noWrites() error { return toolkit.Errorf("this shop cannot change orders from the chat") }

// window is the return window now (0: no limit).
func (d Deps) window() time.Duration {
	if d.ReturnWindow == nil {
		return 0
	}
	return d.ReturnWindow()
}

// plainStr is a string of at most n bytes, without a description (the
// model reads every schema on every call).
func plainStr(n int) map[string]any { return map[string]any{"type": "string", "maxLength": n} }

// lines is a list of up to 10 {sku, qty} with qty from minQty.
func lines(minQty int) map[string]any {
	return map[string]any{"type": "array", "maxItems": 10, "items": toolkit.Object(map[string]any{
		"sku": toolkit.SKU(), "qty": map[string]any{"type": "integer", "minimum": minQty, "maximum": catalog.MaxCartQuantity},
	}, "sku", "qty")}
}
