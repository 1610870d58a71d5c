package catalog

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// A shopper's own changes of a pending order (issue 30): the delivery
// address while it has not shipped, the lines while it is new (unpaid).
// A paid order's lines are not changed from the chat: its total was
// charged, and a change would owe money one way or the other; the shopper
// asks the shop instead (request_human). Each change updates the order
// conditional on the status and revision it read, first in its
// transaction, so a merchant shipping (or cancelling, or paying) the
// order meanwhile either waits for it or makes it fail with ErrConflict
// and change nothing.

// MaxAddressLen bounds a delivery address.
const MaxAddressLen = 500

// CanChangeAddress reports whether the shopper may change the delivery
// address: before the order ships.
func (o *Order) CanChangeAddress() bool { return o.Status == StatusNew || o.Status == StatusPaid }

// CanEditItems reports whether the shopper may change the order's lines:
// while it is new (not paid, nothing refunded).
func (o *Order) CanEditItems() bool { return o.Status == StatusNew && o.RefundedTotal == 0 }

// TrimAddress is an address as an order keeps it.
func TrimAddress(address string) string { return strings.TrimSpace(address) }

// ValidAddress fails with ErrInvalid on a blank, too short or overlong
// delivery address.
func ValidAddress(address string) error {
	if n := len(TrimAddress(address)); n < 5 || n > MaxAddressLen {
		return fmt.Errorf("catalog: change address: %w: give the full delivery address (5 to %d characters)", ErrInvalid, MaxAddressLen)
	}
	return nil
}

// ChangeOrderAddress sets a pending order's delivery address. applied is
// false when it already was that address; a shipped, delivered or
// cancelled order fails with ErrInvalidTransition, a change lost to a
// concurrent one with ErrConflict, a blank or overlong address with
// ErrInvalid; none changes anything.
func ChangeOrderAddress(ctx context.Context, db bun.IDB, number, address string) (o *Order, applied bool, err error) {
	if err := ValidAddress(address); err != nil {
		return nil, false, err
	}
	address = TrimAddress(address)
	if o, err = GetOrder(ctx, db, number); err != nil {
		return nil, false, err
	}
	if o.ShippingAddress == address {
		return o, false, nil
	}
	if !o.CanChangeAddress() {
		return nil, false, fmt.Errorf("catalog: order %s: %w: a %s order's address cannot be changed", o.Number, ErrInvalidTransition, o.Status)
	}
	res, err := db.NewUpdate().Model((*Order)(nil)).
		Set("shipping_address = ?", address).Set("updated_at = ?", time.Now().UTC()).Set("revision = revision + 1").
		Where("id = ? AND revision = ? AND status IN (?)", o.ID, o.Revision, bun.List([]OrderStatus{StatusNew, StatusPaid})).Exec(ctx)
	if err := expectOneRow(res, err, "order %s", o.Number); err != nil {
		return nil, false, fmt.Errorf("catalog: order %s changed meanwhile: %w", o.Number, ErrConflict)
	}
	o, err = GetOrder(ctx, db, o.Number)
	return o, err == nil, err
}

// OrderQuote is what a change of lines makes of an order (QuoteOrderEdit):
// its lines and totals after, in the order's currency.
type OrderQuote struct {
	Lines    []QuoteLine
	Subtotal int64
	Delivery int64
	Discount int64
	Total    int64
	Currency string
	// PromoDropped: the order's promo code no longer applies to the new
	// lines (under its minimum, none of its categories), so its discount
	// is gone.
	PromoDropped bool
}

// QuoteLine is one line of an OrderQuote. Was is its quantity before (0
// for a new line); Quantity 0 is a line removed. A line kept keeps the
// price paid; a new one takes today's price.
type QuoteLine struct {
	ItemID    int64 // 0 for a new line
	ProductID *int64
	SKU       string
	Title     string
	UnitPrice int64
	Quantity  int
	Was       int
	Options   map[string]string
}

// Changed reports whether the quote changes anything.
func (q *OrderQuote) Changed() bool {
	for _, l := range q.Lines {
		if l.Quantity != l.Was {
			return true
		}
	}
	return false
}

// QuoteOrderEdit prices a change of o's lines without writing: want maps a
// SKU to the quantity wanted (0 removes the line; a SKU not in the order
// adds a line). The delivery price is asked again of the order's method
// (by name, when the shop still has it) for the new subtotal, and the
// promo code's discount is taken again on the new lines. An unknown,
// archived or parent product (with sizes or colours to choose), a
// quantity out of 0..MaxCartQuantity, more units than are in stock, or
// removing every line fails with ErrInvalid (ErrOutOfStock for stock).
func QuoteOrderEdit(ctx context.Context, db bun.IDB, o *Order, want map[string]int) (*OrderQuote, error) {
	q := &OrderQuote{Currency: o.Currency}
	seen := map[string]bool{}
	for _, it := range o.Items {
		l := QuoteLine{ItemID: it.ID, ProductID: it.ProductID, SKU: it.SKU, Title: it.Title, UnitPrice: it.UnitPrice,
			Quantity: it.Quantity, Was: it.Quantity, Options: it.Options}
		if n, ok := want[it.SKU]; ok {
			l.Quantity = n
		}
		seen[it.SKU] = true
		q.Lines = append(q.Lines, l)
	}
	skus := make([]string, 0, len(want))
	for sku := range want {
		skus = append(skus, sku)
	}
	sort.Strings(skus)
	for _, sku := range skus {
		if n := want[sku]; n < 0 || n > MaxCartQuantity {
			return nil, fmt.Errorf("catalog: change order %s: %w: quantity %d of %s (0 to %d)", o.Number, ErrInvalid, n, sku, MaxCartQuantity)
		}
		if seen[sku] || want[sku] == 0 {
			continue
		}
		l, err := newQuoteLine(ctx, db, o, sku, want[sku])
		if err != nil {
			return nil, err
		}
		q.Lines = append(q.Lines, l)
	}
	if err := q.checkStock(ctx, db, o); err != nil {
		return nil, err
	}
	return q, q.price(ctx, db, o)
}

func newQuoteLine(ctx context.Context, db bun.IDB, o *Order, sku string, n int) (QuoteLine, error) {
	p, err := GetProduct(ctx, db, sku)
	if errors.Is(err, ErrNotFound) || err == nil && !p.Active {
		return QuoteLine{}, fmt.Errorf("catalog: change order %s: %w: no product %s for sale", o.Number, ErrInvalid, sku)
	}
	if err != nil {
		return QuoteLine{}, err
	}
	if p.HasVariants() {
		return QuoteLine{}, fmt.Errorf("catalog: change order %s: %w: %s comes in options; name the one to add", o.Number, ErrInvalid, p.Title)
	}
	if p.Currency != o.Currency {
		return QuoteLine{}, fmt.Errorf("catalog: change order %s: %w: %s is priced in %s", o.Number, ErrInvalid, sku, p.Currency)
	}
	pid := p.ID
	opts := p.Options
	if opts == nil {
		opts = map[string]string{}
	}
	return QuoteLine{ProductID: &pid, SKU: p.SKU, Title: p.Title, UnitPrice: p.Price, Quantity: n, Options: opts}, nil
}

// checkStock fails with ErrOutOfStock when a line grows by more units than
// its product has, and with ErrInvalid when no line is left.
func (q *OrderQuote) checkStock(ctx context.Context, db bun.IDB, o *Order) error {
	units := 0
	for _, l := range q.Lines {
		units += l.Quantity
		if l.Quantity <= l.Was {
			continue
		}
		if l.ProductID == nil {
			return fmt.Errorf("catalog: change order %s: %w: %s is no longer sold", o.Number, ErrInvalid, l.SKU)
		}
		p, err := GetProductByID(ctx, db, *l.ProductID)
		if err != nil {
			return err
		}
		if p.Stock < l.Quantity-l.Was || !p.Active {
			return fmt.Errorf("catalog: change order %s: %s: %d more asked, %d in stock: %w", o.Number, l.SKU, l.Quantity-l.Was, max(p.Stock, 0), ErrOutOfStock)
		}
	}
	if units == 0 {
		return fmt.Errorf("catalog: change order %s: %w: an order needs at least one line; cancel it instead", o.Number, ErrInvalid)
	}
	return nil
}

// price sets the quote's totals: the lines, the delivery of the order's
// method for that subtotal, the promo code's discount on them.
func (q *OrderQuote) price(ctx context.Context, db bun.IDB, o *Order) error {
	cart := &Cart{}
	for _, l := range q.Lines {
		q.Subtotal += l.UnitPrice * int64(l.Quantity)
		if l.Quantity == 0 {
			continue
		}
		p := &Product{Price: l.UnitPrice, Currency: o.Currency}
		if l.ProductID != nil {
			if cur, err := GetProductByID(ctx, db, *l.ProductID); err == nil {
				p.CategoryID = cur.CategoryID
			}
		}
		cart.Items = append(cart.Items, CartItem{Product: p, Quantity: l.Quantity})
	}
	q.Delivery = o.DeliveryCents
	if o.DeliveryMethod != "" {
		ms, err := ActiveDeliveryMethods(ctx, db)
		if err != nil {
			return err
		}
		for i := range ms {
			if ms[i].Name == o.DeliveryMethod {
				q.Delivery = ms[i].PriceFor(q.Subtotal)
			}
		}
	}
	if o.PromoCode != "" {
		q.Discount = min(o.DiscountCents, q.Subtotal)
		if p, err := GetPromo(ctx, db, o.PromoCode); err == nil {
			var all []Category
			if len(p.CategoryIDs) > 0 {
				if all, err = ListCategories(ctx, db); err != nil {
					return err
				}
			}
			if p.cartProblem(cart, all) != nil {
				q.Discount, q.PromoDropped = 0, true
			} else {
				q.Discount = p.discountOf(eligibleSubtotal(cart, p.eligibleCategories(all)))
			}
		}
	}
	q.Total = q.Subtotal + q.Delivery - q.Discount
	return nil
}

// ChangeOrderItems changes a new order's lines in one transaction (see
// QuoteOrderEdit for want): the order's totals move first, with an update
// conditional on its status (new) and revision, then stock is taken for
// lines that grow and given back for lines that shrink or go, the lines
// are rewritten and the promo redemption's discount follows. applied is
// false when want changes nothing. A paid, shipped, delivered or
// cancelled order fails with ErrInvalidTransition; losing a race with
// another change of the order, with ErrConflict; nothing changes then.
func ChangeOrderItems(ctx context.Context, db bun.IDB, number string, want map[string]int) (o *Order, q *OrderQuote, applied bool, err error) {
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		o, q, applied, err = changeOrderItems(ctx, tx, number, want)
		return err
	})
	if err != nil {
		return nil, nil, false, err
	}
	o, err = GetOrder(ctx, db, o.Number)
	return o, q, applied, err
}

func changeOrderItems(ctx context.Context, tx bun.IDB, number string, want map[string]int) (*Order, *OrderQuote, bool, error) {
	o, err := GetOrder(ctx, tx, number)
	if err != nil {
		return nil, nil, false, err
	}
	if !o.CanEditItems() {
		return nil, nil, false, fmt.Errorf("catalog: order %s: %w: a %s order's items cannot be changed", o.Number, ErrInvalidTransition, o.Status)
	}
	q, err := QuoteOrderEdit(ctx, tx, o, want)
	if err != nil || !q.Changed() {
		return o, q, false, err
	}
	now := time.Now().UTC()
	res, err := tx.NewUpdate().Model((*Order)(nil)).
		Set("total = ?", q.Total).Set("delivery_cents = ?", q.Delivery).Set("discount_cents = ?", q.Discount).
		Set("updated_at = ?", now).Set("revision = revision + 1").
		Where("id = ? AND status = ? AND revision = ? AND refunded_total = 0", o.ID, StatusNew, o.Revision).Exec(ctx)
	if err := expectOneRow(res, err, "order %s", o.Number); err != nil {
		return nil, nil, false, fmt.Errorf("catalog: order %s changed meanwhile: %w", o.Number, ErrConflict)
	}
	lines := append([]QuoteLine(nil), q.Lines...)
	sort.Slice(lines, func(i, j int) bool { return pidOf(lines[i]) < pidOf(lines[j]) }) // lock order
	var skus []string
	for _, l := range lines {
		if l.Quantity == l.Was {
			continue
		}
		skus = append(skus, l.SKU)
		if err := moveLineStock(ctx, tx, l); err != nil {
			return nil, nil, false, err
		}
		if err := writeLine(ctx, tx, o.ID, l); err != nil {
			return nil, nil, false, err
		}
	}
	if err := RollupParents(ctx, tx, skus...); err != nil {
		return nil, nil, false, err
	}
	if o.PromoCode != "" {
		if _, err := tx.NewUpdate().Model((*PromoRedemption)(nil)).Set("discount = ?", q.Discount).
			Where("order_id = ?", o.ID).Exec(ctx); err != nil {
			return nil, nil, false, fmt.Errorf("catalog: order %s: promo redemption: %w", o.Number, err)
		}
	}
	return o, q, true, nil
}

func pidOf(l QuoteLine) int64 {
	if l.ProductID == nil {
		return 0
	}
	return *l.ProductID
}

// moveLineStock takes the units a line gains from stock, or gives back
// those it loses.
func moveLineStock(ctx context.Context, tx bun.IDB, l QuoteLine) error {
	d := l.Quantity - l.Was
	switch {
	case d > 0:
		if err := ReserveStock(ctx, tx, *l.ProductID, d); err != nil {
			if errors.Is(err, ErrOutOfStock) {
				return fmt.Errorf("catalog: %s: %w", l.SKU, ErrOutOfStock)
			}
			return err
		}
	case d < 0:
		return returnUnits(ctx, tx, OrderItem{ProductID: l.ProductID, SKU: l.SKU}, -d)
	}
	return nil
}

// writeLine makes the order's line what the quote says: inserted, its
// quantity set (conditional on the one read) or deleted.
func writeLine(ctx context.Context, tx bun.IDB, orderID int64, l QuoteLine) error {
	var res interface{ RowsAffected() (int64, error) }
	var err error
	switch {
	case l.ItemID == 0:
		it := &OrderItem{OrderID: orderID, ProductID: l.ProductID, SKU: l.SKU, Title: l.Title, UnitPrice: l.UnitPrice,
			Quantity: l.Quantity, Options: l.Options}
		_, err = tx.NewInsert().Model(it).Returning("NULL").Exec(ctx)
		if err != nil {
			return fmt.Errorf("catalog: add line %s: %w", l.SKU, err)
		}
		return nil
	case l.Quantity == 0:
		res, err = tx.NewDelete().Model((*OrderItem)(nil)).Where("id = ? AND quantity = ? AND refunded_qty = 0", l.ItemID, l.Was).Exec(ctx)
	default:
		res, err = tx.NewUpdate().Model((*OrderItem)(nil)).Set("quantity = ?", l.Quantity).
			Where("id = ? AND quantity = ? AND refunded_qty = 0", l.ItemID, l.Was).Exec(ctx)
	}
	if err != nil {
		return fmt.Errorf("catalog: change line %s: %w", l.SKU, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("catalog: line %s changed meanwhile: %w", l.SKU, ErrConflict)
	}
	return nil
}
