package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// ErrReturnClosed: the order's return window has passed.
var ErrReturnClosed = errors.New("the return window has closed")

// ReturnKind is what the shopper wants for the units sent back.
type ReturnKind string

const (
	ReturnMoneyBack ReturnKind = "return"   // the money back
	ReturnExchange  ReturnKind = "exchange" // another size, colour or a new unit
)

// ReturnStatus is a step of a return: requested → approved | rejected;
// approved → received (or rejected); received → refunded | exchanged.
type ReturnStatus string

const (
	ReturnRequested ReturnStatus = "requested"
	ReturnApproved  ReturnStatus = "approved"
	ReturnRejected  ReturnStatus = "rejected"
	ReturnReceived  ReturnStatus = "received"
	ReturnRefunded  ReturnStatus = "refunded"
	ReturnExchanged ReturnStatus = "exchanged"
)

// ReturnStatuses lists the statuses in lifecycle order (the panel's filter).
var ReturnStatuses = []ReturnStatus{ReturnRequested, ReturnApproved, ReturnReceived, ReturnRefunded, ReturnExchanged, ReturnRejected}

var returnTransitions = map[ReturnStatus][]ReturnStatus{
	ReturnRequested: {ReturnApproved, ReturnRejected},
	ReturnApproved:  {ReturnReceived, ReturnRejected},
	ReturnReceived:  {ReturnRefunded, ReturnExchanged},
}

// Next lists the statuses a return in status s may move to.
func (s ReturnStatus) Next() []ReturnStatus { return returnTransitions[s] }

// Open reports whether a return in status s still holds its units: they
// cannot be refunded otherwise or asked back again.
func (s ReturnStatus) Open() bool {
	return s == ReturnRequested || s == ReturnApproved || s == ReturnReceived
}

// OrderReturn is a shopper's request to send back units of a delivered
// order, and where the merchant is with it.
type OrderReturn struct {
	bun.BaseModel `bun:"table:order_returns,alias:order_return"`

	ID         int64        `bun:"id,pk,autoincrement"`
	OrderID    int64        `bun:"order_id,notnull"`
	Order      *Order       `bun:"rel:belongs-to,join:order_id=id"`
	RequestKey string       `bun:"request_key,notnull"`
	Kind       ReturnKind   `bun:"kind,notnull"`
	Reason     string       `bun:"reason,notnull"`
	Lines      []ReturnLine `bun:"lines,notnull"`
	Status     ReturnStatus `bun:"status,notnull"`
	Staff      string       `bun:"staff,notnull"` // who moved it last
	Note       string       `bun:"note,notnull"`  // the merchant's note to the shopper
	CreatedAt  time.Time    `bun:"created_at,notnull"`
	UpdatedAt  time.Time    `bun:"updated_at,notnull"`
}

// ReturnLine is one order line's units asked back.
type ReturnLine struct {
	ItemID int64  `json:"item_id"`
	SKU    string `json:"sku"`
	Title  string `json:"title"`
	Qty    int    `json:"qty"`
}

// ReturnRequest is a shopper's return as the chat sends it.
type ReturnRequest struct {
	Number string
	Key    string // the chat turn's key: the same request again changes nothing
	Kind   ReturnKind
	Reason string
	// Lines maps SKUs to units; empty asks back every unit left.
	Lines map[string]int
	Now   time.Time
	// Window is how long after delivery a return may be asked (0: no limit).
	Window time.Duration
}

// MaxReturnReason bounds a return's reason.
const MaxReturnReason = 500

func (r *ReturnRequest) validate() error {
	r.Key, r.Reason = strings.TrimSpace(r.Key), strings.TrimSpace(r.Reason)
	switch {
	case r.Key == "" || len(r.Key) > 200:
		return fmt.Errorf("%w: the request key is missing", ErrInvalid)
	case r.Kind != ReturnMoneyBack && r.Kind != ReturnExchange:
		return fmt.Errorf("%w: kind is return or exchange", ErrInvalid)
	case r.Reason == "" || len(r.Reason) > MaxReturnReason:
		return fmt.Errorf("%w: say why (up to %d characters)", ErrInvalid, MaxReturnReason)
	}
	for sku, q := range r.Lines {
		if q <= 0 || q > 1_000_000 {
			return fmt.Errorf("%w: quantity %d of %s", ErrInvalid, q, sku)
		}
	}
	return nil
}

// ReturnDeadline is the last moment a return of o may be asked, and false
// when there is none (no window, or not delivered yet).
func ReturnDeadline(o *Order, window time.Duration) (time.Time, bool) {
	if window <= 0 || o.Status != StatusDelivered {
		return time.Time{}, false
	}
	at := o.UpdatedAt
	if o.DeliveredAt != nil {
		at = *o.DeliveredAt
	}
	return at.Add(window), true
}

// RequestReturn records a return of a delivered order within its window:
// the units asked must not be refunded or held by another open return. The
// order's revision moves with a conditional update in the same
// transaction, so a merchant's refund racing it either makes it start
// again (and find the units refunded) or fails itself. The same key again
// returns the return made with applied false. Not delivered:
// ErrInvalidTransition; past the window: ErrReturnClosed; bad lines or
// reason: ErrInvalid. None changes anything.
func RequestReturn(ctx context.Context, db bun.IDB, req ReturnRequest) (r *OrderReturn, applied bool, err error) {
	if err := req.validate(); err != nil {
		return nil, false, fmt.Errorf("catalog: request return: %w", err)
	}
	for attempt := 0; attempt < 8; attempt++ {
		err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			r, applied, err = requestReturn(ctx, tx, req)
			return err
		})
		if !errors.Is(err, ErrConflict) && !isTxConflict(err) {
			break
		}
	}
	if err != nil {
		return nil, false, err
	}
	return r, applied, nil
}

func requestReturn(ctx context.Context, tx bun.IDB, req ReturnRequest) (*OrderReturn, bool, error) {
	o, err := GetOrder(ctx, tx, req.Number)
	if err != nil {
		return nil, false, err
	}
	r := new(OrderReturn)
	err = tx.NewSelect().Model(r).Where("order_id = ? AND request_key = ?", o.ID, req.Key).Scan(ctx)
	if err == nil {
		return r, false, nil
	}
	if err := notFound(err, "return"); !errors.Is(err, ErrNotFound) {
		return nil, false, err
	}
	if o.Status != StatusDelivered {
		return nil, false, fmt.Errorf("catalog: order %s: %w: a %s order cannot be returned yet", o.Number, ErrInvalidTransition, o.Status)
	}
	if end, ok := ReturnDeadline(o, req.Window); ok && req.Now.After(end) {
		return nil, false, fmt.Errorf("catalog: order %s: %w on %s", o.Number, ErrReturnClosed, end.Format("2006-01-02"))
	}
	lines, err := returnLines(ctx, tx, o, req.Lines)
	if err != nil {
		return nil, false, err
	}
	now := time.Now().UTC()
	res, err := tx.NewUpdate().Model((*Order)(nil)).Set("revision = revision + 1").Set("updated_at = ?", now).
		Where("id = ? AND revision = ? AND status = ?", o.ID, o.Revision, StatusDelivered).Exec(ctx)
	if err := expectOneRow(res, err, "order %s", o.Number); err != nil {
		return nil, false, fmt.Errorf("catalog: order %s changed meanwhile: %w", o.Number, ErrConflict)
	}
	r = &OrderReturn{OrderID: o.ID, RequestKey: req.Key, Kind: req.Kind, Reason: req.Reason, Lines: lines,
		Status: ReturnRequested, CreatedAt: now, UpdatedAt: now}
	ins, err := tx.NewInsert().Model(r).On("CONFLICT (order_id, request_key) DO NOTHING").Returning("id").Exec(ctx)
	if err := expectOneRow(ins, err, "return of order %s", o.Number); err != nil {
		return nil, false, fmt.Errorf("catalog: return of order %s made meanwhile: %w", o.Number, ErrConflict)
	}
	return r, true, nil
}

// returnLines checks the units asked against what is left of each line:
// bought, less refunded, less held by open returns.
func returnLines(ctx context.Context, tx bun.IDB, o *Order, want map[string]int) ([]ReturnLine, error) {
	held, err := openReturnUnits(ctx, tx, o.ID)
	if err != nil {
		return nil, err
	}
	bySKU := map[string]OrderItem{}
	for _, it := range o.Items {
		bySKU[it.SKU] = it
	}
	for sku := range want {
		if _, ok := bySKU[sku]; !ok {
			return nil, fmt.Errorf("catalog: return of order %s: %w: %s is not part of it", o.Number, ErrInvalid, sku)
		}
	}
	var lines []ReturnLine
	for _, it := range o.Items {
		left := it.Quantity - it.RefundedQty - held[it.ID]
		q, asked := want[it.SKU]
		if len(want) == 0 {
			q = left
		}
		if asked && q > left {
			return nil, fmt.Errorf("catalog: return of order %s: %w: %d of %s asked, %d can be returned", o.Number, ErrInvalid, q, it.SKU, max(left, 0))
		}
		if q > 0 {
			lines = append(lines, ReturnLine{ItemID: it.ID, SKU: it.SKU, Title: it.Title, Qty: q})
		}
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("catalog: return of order %s: %w: nothing is left to return (refunded or asked already)", o.Number, ErrInvalid)
	}
	return lines, nil
}

// openReturnUnits maps an order's item ids to the units its open returns
// hold.
func openReturnUnits(ctx context.Context, tx bun.IDB, orderID int64) (map[int64]int, error) {
	var rs []OrderReturn
	err := tx.NewSelect().Model(&rs).Where("order_id = ? AND status IN (?)", orderID,
		bun.List([]ReturnStatus{ReturnRequested, ReturnApproved, ReturnReceived})).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: open returns of order %d: %w", orderID, err)
	}
	held := map[int64]int{}
	for _, r := range rs {
		for _, l := range r.Lines {
			held[l.ItemID] += l.Qty
		}
	}
	return held, nil
}

// GetReturn loads a return with its order.
func GetReturn(ctx context.Context, db bun.IDB, id int64) (*OrderReturn, error) {
	r := new(OrderReturn)
	if err := db.NewSelect().Model(r).Relation("Order").Where("order_return.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "return %d", id)
	}
	return r, nil
}

// ListReturns lists returns, newest first, with their orders; status ""
// lists every status.
func ListReturns(ctx context.Context, db bun.IDB, status ReturnStatus, limit int) ([]OrderReturn, error) {
	var rs []OrderReturn
	q := db.NewSelect().Model(&rs).Relation("Order").Order("order_return.id DESC").Limit(int64(limit))
	if status != "" {
		q = q.Where("order_return.status = ?", status)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list returns: %w", err)
	}
	return rs, nil
}

// OrderReturns lists an order's returns, oldest first.
func OrderReturns(ctx context.Context, db bun.IDB, orderID int64) ([]OrderReturn, error) {
	var rs []OrderReturn
	if err := db.NewSelect().Model(&rs).Where("order_id = ?", orderID).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: returns of order %d: %w", orderID, err)
	}
	return rs, nil
}

// ReturnChange is the merchant moving a return on.
type ReturnChange struct {
	ID    int64
	Next  ReturnStatus
	Seen  ReturnStatus // the status the page showed: moved meanwhile is ErrConflict
	Staff string
	Note  string
}

// SetReturnStatus moves a return on in one transaction, with an update
// conditional on the status seen. Refunded refunds the return's units
// (RefundOrder under the form key "return:<id>": back to stock, the
// amount owed recorded); exchanged is for an exchange, the replacement
// sent by the shop's own means. Moving to the status it has already is
// no change (applied false); a move the lifecycle does not allow is
// ErrInvalidTransition.
func SetReturnStatus(ctx context.Context, db bun.IDB, c ReturnChange) (r *OrderReturn, applied bool, err error) {
	if len(c.Note) > MaxReturnReason {
		return nil, false, fmt.Errorf("catalog: return %d: %w: the note is too long", c.ID, ErrInvalid)
	}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r, applied, err = setReturnStatus(ctx, tx, c)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	r, err = GetReturn(ctx, db, c.ID)
	return r, applied, err
}

func setReturnStatus(ctx context.Context, tx bun.IDB, c ReturnChange) (*OrderReturn, bool, error) {
	r, err := GetReturn(ctx, tx, c.ID)
	if err != nil {
		return nil, false, err
	}
	if r.Status == c.Next {
		return r, false, nil
	}
	if c.Seen != "" && c.Seen != r.Status {
		return nil, false, fmt.Errorf("catalog: return %d is %s now; reload the page: %w", r.ID, r.Status, ErrConflict)
	}
	allowed := false
	for _, s := range r.Status.Next() {
		allowed = allowed || s == c.Next
	}
	if !allowed || c.Next == ReturnExchanged && r.Kind != ReturnExchange {
		return nil, false, fmt.Errorf("catalog: return %d: %w from %s to %s", r.ID, ErrInvalidTransition, r.Status, c.Next)
	}
	res, err := tx.NewUpdate().Model((*OrderReturn)(nil)).
		Set("status = ?", c.Next).Set("staff = ?", c.Staff).Set("note = ?", strings.TrimSpace(c.Note)).
		Set("updated_at = ?", time.Now().UTC()).Where("id = ? AND status = ?", r.ID, r.Status).Exec(ctx)
	if err := expectOneRow(res, err, "return %d in status %s", r.ID, r.Status); err != nil {
		return nil, false, fmt.Errorf("catalog: return %d changed meanwhile: %w", r.ID, ErrConflict)
	}
	if c.Next != ReturnRefunded {
		return r, true, nil
	}
	// The return is no longer open, so its own units are free to refund.
	lines := map[int64]int{}
	for _, l := range r.Lines {
		lines[l.ItemID] += l.Qty
	}
	_, _, err = refundOrder(ctx, tx, OrderChange{Number: r.Order.Number, FormKey: fmt.Sprintf("return:%d", r.ID),
		Staff: c.Staff, Lines: lines, SeenRefunded: r.Order.RefundedTotal})
	return r, err == nil, err
}
