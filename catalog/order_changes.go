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

// RefundNote is what a refund records about the money: the shop pays it
// back by its own means (Telegram Payments refunds are not made from here).
const RefundNote = "refund to be made by the merchant"

// RefundKind says what made a refund row.
type RefundKind string

const (
	RefundLines  RefundKind = "refund" // the merchant refunded lines or the whole order
	RefundCancel RefundKind = "cancel" // the merchant cancelled the order
)

// OrderRefund records one merchant change of an order: which lines and
// how many units came back, the amount owed to the shopper, who did it
// and when. FormKey is the key of the admin form that asked for it, unique
// per order, so submitting the same form twice changes nothing.
type OrderRefund struct {
	bun.BaseModel `bun:"table:order_refunds,alias:order_refund"`

	ID        int64        `bun:"id,pk,autoincrement"`
	OrderID   int64        `bun:"order_id,notnull"`
	FormKey   string       `bun:"form_key,notnull"`
	Kind      RefundKind   `bun:"kind,notnull"`
	Amount    int64        `bun:"amount,notnull"`
	Lines     []RefundLine `bun:"lines,notnull"`
	Staff     string       `bun:"staff,notnull"`
	Note      string       `bun:"note,notnull"`
	CreatedAt time.Time    `bun:"created_at,notnull"`
}

// RefundLine is one order line's units taken back.
type RefundLine struct {
	ItemID int64  `json:"item_id"`
	SKU    string `json:"sku"`
	Qty    int    `json:"qty"`
	Amount int64  `json:"amount"`
}

// CanCancel reports whether the merchant may cancel the order: only
// before it ships.
func (o *Order) CanCancel() bool { return o.Status == StatusNew || o.Status == StatusPaid }

// CanRefund reports whether the merchant may refund (part of) the order:
// once it is paid, shipped or delivered, while something is left to
// refund. A cancelled order was settled by its cancellation.
func (o *Order) CanRefund() bool {
	switch o.Status {
	case StatusPaid, StatusShipped, StatusDelivered:
		return o.RefundedTotal < o.Total || o.refundableUnits() > 0
	}
	return false
}

func (o *Order) refundableUnits() int {
	n := 0
	for _, it := range o.Items {
		n += it.Quantity - it.RefundedQty
	}
	return n
}

// OrderChange is a merchant's cancel or refund as the admin form sends it.
type OrderChange struct {
	Number  string
	FormKey string // the form's one-time key (idempotency)
	Staff   string // who
	// Lines maps order item ids to units to refund; empty with All.
	Lines map[int64]int
	All   bool // refund every unit not refunded yet, and the rest of the total
	// SeenRefunded is the order's RefundedTotal the form showed: a refund
	// made meanwhile from another form fails with ErrConflict.
	SeenRefunded int64
}

func (c *OrderChange) validate() error {
	c.FormKey = strings.TrimSpace(c.FormKey)
	if c.FormKey == "" || len(c.FormKey) > 64 {
		return fmt.Errorf("%w: the form key is missing; reload the page", ErrInvalid)
	}
	for id, q := range c.Lines {
		if q < 0 || q > 1_000_000 {
			return fmt.Errorf("%w: quantity %d for line %d", ErrInvalid, q, id)
		}
		if q == 0 {
			delete(c.Lines, id)
		}
	}
	return nil
}

// CancelOrder cancels a new or paid order in one transaction: the status
// moves with a conditional update, every unit not refunded yet goes back
// to stock, and a refund row records who and when (and, for a paid order,
// the amount owed). The same form key again returns the order with
// applied false and changes nothing; a shipped, delivered or cancelled
// order fails with ErrInvalidTransition.
func CancelOrder(ctx context.Context, db bun.IDB, c OrderChange) (o *Order, applied bool, err error) {
	if err := c.validate(); err != nil {
		return nil, false, fmt.Errorf("catalog: cancel order: %w", err)
	}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		o, applied, err = cancelOrder(ctx, tx, c)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	o, err = GetOrder(ctx, db, o.Number)
	return o, applied, err
}

// StatusCancelKey is the form key of the refund row a cancellation by
// SetOrderStatus records (an order is cancelled at most once, so one key
// per order is enough). A merchant form's keys differ from it.
const StatusCancelKey = "status:cancelled"

// cancelOrder is the one way an order becomes cancelled, for CancelOrder
// and SetOrderStatus alike; run it in a transaction. The refund row goes
// in first, so the same form key again finds it and changes nothing
// (applied false); then the status moves with an update conditional on
// the status and refunded total read, so of two concurrent
// cancellations (by either path) one applies and the other fails with
// ErrConflict, and stock and the promo code's use come back once.
func cancelOrder(ctx context.Context, tx bun.IDB, c OrderChange) (*Order, bool, error) {
	o, err := GetOrder(ctx, tx, c.Number)
	if err != nil {
		return nil, false, err
	}
	now := time.Now().UTC()
	ref := &OrderRefund{OrderID: o.ID, FormKey: c.FormKey, Kind: RefundCancel, Lines: []RefundLine{}, Staff: c.Staff, CreatedAt: now}
	if o.Status == StatusPaid {
		ref.Amount, ref.Note = o.Total-o.RefundedTotal, RefundNote
	}
	if first, err := insertRefund(ctx, tx, ref); err != nil || !first {
		return o, false, err
	}
	if !o.CanCancel() {
		return nil, false, fmt.Errorf("catalog: order %s: %w: a %s order cannot be cancelled", o.Number, ErrInvalidTransition, o.Status)
	}
	res, err := tx.NewUpdate().Model((*Order)(nil)).
		Set("status = ?", StatusCancelled).Set("cancelled_at = ?", now).Set("updated_at = ?", now).
		Set("refunded_total = refunded_total + ?", ref.Amount).Set("revision = revision + 1").
		Where("id = ? AND status = ? AND refunded_total = ? AND revision = ?", o.ID, o.Status, o.RefundedTotal, o.Revision).Exec(ctx)
	if err := expectOneRow(res, err, "order %s in status %s", o.Number, o.Status); err != nil {
		return nil, false, fmt.Errorf("catalog: order %s changed meanwhile: %w", o.Number, ErrConflict)
	}
	for _, it := range o.Items {
		if err := returnUnits(ctx, tx, it, it.Quantity-it.RefundedQty); err != nil {
			return nil, false, err
		}
	}
	if err := RollupParents(ctx, tx, o.itemSKUs()...); err != nil {
		return nil, false, err
	}
	if err := releasePromoUse(ctx, tx, o); err != nil {
		return nil, false, err
	}
	return o, true, nil
}

// RefundOrder refunds chosen lines (or, with All, everything left) of a
// paid, shipped or delivered order in one transaction: each line's
// refunded count grows with a conditional update that cannot pass its
// quantity, the units go back to stock, the order's refunded total grows
// only from the value the form saw, and a refund row records lines,
// amount, who and when. The same form key again changes nothing
// (applied false). Refunding more than was bought, a line of another
// order or nothing at all fails with ErrInvalid and changes nothing.
func RefundOrder(ctx context.Context, db bun.IDB, c OrderChange) (o *Order, applied bool, err error) {
	if err := c.validate(); err != nil {
		return nil, false, fmt.Errorf("catalog: refund order: %w", err)
	}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		o, applied, err = refundOrder(ctx, tx, c)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	o, err = GetOrder(ctx, db, o.Number)
	return o, applied, err
}

func refundOrder(ctx context.Context, tx bun.IDB, c OrderChange) (*Order, bool, error) {
	o, err := GetOrder(ctx, tx, c.Number)
	if err != nil {
		return nil, false, err
	}
	// A form submitted again finds its refund made, before its lines are
	// checked against what is now left.
	done, err := tx.NewSelect().Model((*OrderRefund)(nil)).Where("order_id = ? AND form_key = ?", o.ID, c.FormKey).Exists(ctx)
	if err != nil || done {
		return o, false, err
	}
	held, err := openReturnUnits(ctx, tx, o.ID)
	if err != nil {
		return nil, false, err
	}
	lines, amount, err := refundLines(o, c, held)
	if err != nil {
		return nil, false, err
	}
	ref := &OrderRefund{OrderID: o.ID, FormKey: c.FormKey, Kind: RefundLines, Amount: amount, Lines: lines,
		Staff: c.Staff, Note: RefundNote, CreatedAt: time.Now().UTC()}
	if first, err := insertRefund(ctx, tx, ref); err != nil || !first {
		return o, false, err
	}
	if !o.CanRefund() {
		return nil, false, fmt.Errorf("catalog: order %s: %w: a %s order cannot be refunded", o.Number, ErrInvalidTransition, o.Status)
	}
	if o.RefundedTotal != c.SeenRefunded {
		return nil, false, fmt.Errorf("catalog: order %s was refunded meanwhile; reload the page: %w", o.Number, ErrConflict)
	}
	res, err := tx.NewUpdate().Model((*Order)(nil)).
		Set("refunded_total = refunded_total + ?", amount).Set("updated_at = ?", ref.CreatedAt).Set("revision = revision + 1").
		Where("id = ? AND refunded_total = ? AND revision = ? AND status IN (?)", o.ID, c.SeenRefunded, o.Revision,
			bun.List([]OrderStatus{StatusPaid, StatusShipped, StatusDelivered})).
		Where("refunded_total + ? <= total", amount).Exec(ctx)
	if err := expectOneRow(res, err, "order %s", o.Number); err != nil {
		return nil, false, fmt.Errorf("catalog: order %s changed meanwhile; reload the page: %w", o.Number, ErrConflict)
	}
	items := make(map[int64]OrderItem, len(o.Items))
	for _, it := range o.Items {
		items[it.ID] = it
	}
	for _, l := range lines {
		res, err := tx.NewUpdate().Model((*OrderItem)(nil)).
			Set("refunded_qty = refunded_qty + ?", l.Qty).
			Where("id = ? AND order_id = ? AND refunded_qty + ? <= quantity", l.ItemID, o.ID, l.Qty).Exec(ctx)
		if err := expectOneRow(res, err, "line %d of order %s", l.ItemID, o.Number); err != nil {
			return nil, false, fmt.Errorf("catalog: order %s changed meanwhile; reload the page: %w", o.Number, ErrConflict)
		}
		if err := returnUnits(ctx, tx, items[l.ItemID], l.Qty); err != nil {
			return nil, false, err
		}
	}
	if err := RollupParents(ctx, tx, o.itemSKUs()...); err != nil {
		return nil, false, err
	}
	return o, true, nil
}

// refundLines checks a refund request against the order and prices it:
// the units at the price paid, capped at what is left of the total (a
// discount may have made the total less than the lines). Units held by an
// open return (held, returns.go) are refunded through it, not here.
func refundLines(o *Order, c OrderChange, held map[int64]int) ([]RefundLine, int64, error) {
	byID := make(map[int64]OrderItem, len(o.Items))
	for _, it := range o.Items {
		byID[it.ID] = it
	}
	want := c.Lines
	if c.All {
		want = map[int64]int{}
		for _, it := range o.Items {
			if left := it.Quantity - it.RefundedQty - held[it.ID]; left > 0 {
				want[it.ID] = left
			}
		}
	}
	var lines []RefundLine
	var amount int64
	for id, q := range want {
		it, ok := byID[id]
		if !ok {
			return nil, 0, fmt.Errorf("catalog: refund order %s: %w: line %d is not part of it", o.Number, ErrInvalid, id)
		}
		if left := it.Quantity - it.RefundedQty - held[it.ID]; q > left {
			return nil, 0, fmt.Errorf("catalog: refund order %s: %w: %d of %s asked, %d left to refund (%d held by an open return)", o.Number, ErrInvalid, q, it.SKU, max(left, 0), held[it.ID])
		}
		lines = append(lines, RefundLine{ItemID: id, SKU: it.SKU, Qty: q, Amount: it.UnitPrice * int64(q)})
		amount += it.UnitPrice * int64(q)
	}
	left := o.Total - o.RefundedTotal
	if c.All {
		amount = left
		for _, it := range o.Items {
			amount -= it.UnitPrice * int64(held[it.ID])
		}
		amount = max(amount, 0)
	}
	if len(lines) == 0 && amount <= 0 {
		return nil, 0, fmt.Errorf("catalog: refund order %s: %w: choose at least one unit to refund", o.Number, ErrInvalid)
	}
	amount = min(amount, left)
	// A fixed order (by item id) keeps concurrent refunds from deadlocking.
	sort.Slice(lines, func(i, j int) bool { return lines[i].ItemID < lines[j].ItemID })
	if lines == nil {
		lines = []RefundLine{}
	}
	return lines, amount, nil
}

// insertRefund records a refund under its form key, reporting false if
// that form was applied before (by an earlier or concurrent submit).
func insertRefund(ctx context.Context, tx bun.IDB, ref *OrderRefund) (bool, error) {
	res, err := tx.NewInsert().Model(ref).On("CONFLICT (order_id, form_key) DO NOTHING").Returning("NULL").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("catalog: record refund of order %d: %w", ref.OrderID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("catalog: record refund of order %d: %w", ref.OrderID, err)
	}
	return n == 1, nil
}

// returnUnits puts n units of a line back in stock (waking its
// back-in-stock alerts); a product deleted since is skipped.
func returnUnits(ctx context.Context, tx bun.IDB, it OrderItem, n int) error {
	if n <= 0 || it.ProductID == nil {
		return nil
	}
	if err := ReleaseStock(ctx, tx, *it.ProductID, n); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

// ListOrderRefunds returns an order's refunds and cancellation, oldest first.
func ListOrderRefunds(ctx context.Context, db bun.IDB, orderID int64) ([]OrderRefund, error) {
	var rs []OrderRefund
	if err := db.NewSelect().Model(&rs).Where("order_id = ?", orderID).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: refunds of order %d: %w", orderID, err)
	}
	return rs, nil
}
