package catalog

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// OrderStatus is a step of the order lifecycle:
// new → paid → shipped → delivered, or cancelled before it ships.
type OrderStatus string

const (
	StatusNew       OrderStatus = "new"
	StatusPaid      OrderStatus = "paid"
	StatusShipped   OrderStatus = "shipped"
	StatusDelivered OrderStatus = "delivered"
	StatusCancelled OrderStatus = "cancelled"
)

// transitions lists the allowed status changes.
var transitions = map[OrderStatus][]OrderStatus{
	StatusNew:     {StatusPaid, StatusShipped, StatusCancelled},
	StatusPaid:    {StatusShipped, StatusCancelled},
	StatusShipped: {StatusDelivered}, // a shipped order can be refunded (order_changes.go), not cancelled
}

// CanBecome reports whether an order in status s may move to next.
func (s OrderStatus) CanBecome(next OrderStatus) bool {
	for _, t := range transitions[s] {
		if t == next {
			return true
		}
	}
	return false
}

// Order is a placed order. Items carry a snapshot of title and price.
type Order struct {
	bun.BaseModel `bun:"table:orders"`

	ID              int64       `bun:"id,pk,autoincrement"`
	Number          string      `bun:"number,notnull"`
	IdempotencyKey  string      `bun:"idempotency_key,notnull"`
	CustomerID      int64       `bun:"customer_id,notnull"`
	Customer        *Customer   `bun:"rel:belongs-to,join:customer_id=id"`
	CartScope       string      `bun:"cart_scope,notnull"`
	Channel         string      `bun:"channel,notnull"`
	ChatID          string      `bun:"chat_id,notnull"`
	ThreadID        string      `bun:"thread_id,notnull"`
	Status          OrderStatus `bun:"status,notnull"`
	Currency        string      `bun:"currency,notnull"`
	Total           int64       `bun:"total,notnull"`
	DeliveryMethod  string      `bun:"delivery_method,notnull"` // the name at the time of the order
	DeliveryCents   int64       `bun:"delivery_cents,notnull"`  // included in Total
	PromoCode       string      `bun:"promo_code,notnull"`
	DiscountCents   int64       `bun:"discount_cents,notnull"`
	ContactName     string      `bun:"contact_name,notnull"`
	Phone           string      `bun:"phone,notnull"`
	Email           string      `bun:"email,notnull"`
	ShippingAddress string      `bun:"shipping_address,notnull"`
	Note            string      `bun:"note,notnull"`
	TrackingNote    string      `bun:"tracking_note,notnull"`
	PaymentProvider string      `bun:"payment_provider,notnull"`
	PaymentChargeID *string     `bun:"payment_charge_id"`
	Items           []OrderItem `bun:"rel:has-many,join:id=order_id"`
	CreatedAt       time.Time   `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt       time.Time   `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	PaidAt          *time.Time  `bun:"paid_at"`
	ShippedAt       *time.Time  `bun:"shipped_at"`
	DeliveredAt     *time.Time  `bun:"delivered_at"`
	CancelledAt     *time.Time  `bun:"cancelled_at"`
	// RefundedTotal is what the merchant owes back after refunds and a
	// paid order's cancellation (order_changes.go).
	RefundedTotal int64 `bun:"refunded_total,notnull"`
	// Revision grows with every change of the order; a change of its
	// lines, refunds or returns is conditional on the one it read
	// (order_edits.go).
	Revision int64 `bun:"revision,notnull"`

	// LineCount and UnitCount are the order's lines and units ordered as
	// the order list loads them (ListOrderPage, in the page's one query,
	// without Items); elsewhere they are zero: count Items instead.
	LineCount int `bun:"line_count,scanonly"`
	UnitCount int `bun:"unit_count,scanonly"`
}

// OrderItem is one line of an order at the price paid.
type OrderItem struct {
	bun.BaseModel `bun:"table:order_items"`

	ID        int64  `bun:"id,pk,autoincrement"`
	OrderID   int64  `bun:"order_id,notnull"`
	ProductID *int64 `bun:"product_id"`
	SKU       string `bun:"sku,notnull"`
	Title     string `bun:"title,notnull"`
	UnitPrice int64  `bun:"unit_price,notnull"`
	Quantity  int    `bun:"quantity,notnull"`
	AddedBy   *int64 `bun:"added_by"`
	// RefundedQty is how many units the merchant refunded (and took back
	// into stock).
	RefundedQty int `bun:"refunded_qty,notnull"`
	// Options are a variant's option values as sold ("size": "42").
	Options map[string]string `bun:"options,notnull"`
}

// OrderRequest is everything PlaceOrder needs. IdempotencyKey is derived
// from the platform turn, so a replayed update finds the order it already
// made instead of making another.
type OrderRequest struct {
	IdempotencyKey string
	Scope          CartScope
	CustomerID     int64
	Channel        string
	ChatID         string
	ThreadID       string
	Contact        Contact
	Note           string
	// Delivery is the method chosen at checkout; nil: none (a shop
	// without delivery methods).
	Delivery *DeliveryRequest
	// PromoCode is the code whose discount the shopper confirmed ("" for
	// none). It is redeemed in the order's transaction; a code that no
	// longer applies fails the order with a *PromoError (ErrPromo).
	PromoCode string
}

// PlaceOrder turns the scope's cart into an order in one transaction:
// stock is reserved line by line (failing with ErrOutOfStock and changing
// nothing if any line cannot be served), the order and its items are
// written with the prices of the moment, and the cart is emptied.
//
// The same key with the same cart returns the existing order; the same key
// with another cart fails with ErrIdempotencyKey.
func PlaceOrder(ctx context.Context, db bun.IDB, req OrderRequest) (*Order, error) {
	if strings.TrimSpace(req.IdempotencyKey) == "" || req.CustomerID <= 0 {
		return nil, fmt.Errorf("catalog: place order: %w: idempotency key and customer are required", ErrInvalid)
	}
	if err := req.Scope.validate(); err != nil {
		return nil, fmt.Errorf("catalog: place order: %w", err)
	}
	if o, err := existingOrder(ctx, db, req); !errors.Is(err, ErrNotFound) {
		return o, err
	}
	var order *Order
	var err error
	// An import rewriting a parent locks it before its variants, an order
	// locks its variants before rolling up their parents: when the two
	// cross, Postgres aborts one of them, and the order simply runs again.
	for attempt := 0; attempt < 5; attempt++ {
		err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var err error
			order, err = placeOrder(ctx, tx, req)
			return err
		})
		if !isTxConflict(err) {
			break
		}
	}
	if err != nil {
		// A concurrent replay of the same turn may have won the race: its
		// order then exists, and our attempt failed on the key, the
		// emptied cart or the stock it took.
		if o, err2 := existingOrder(ctx, db, req); !errors.Is(err2, ErrNotFound) {
			return o, err2
		}
		return nil, err
	}
	return GetOrder(ctx, db, order.Number)
}

// existingOrder is the order placed under req's idempotency key, or
// ErrNotFound.
func existingOrder(ctx context.Context, db bun.IDB, req OrderRequest) (*Order, error) {
	o := new(Order)
	err := db.NewSelect().Model(o).Relation("Items").Where("idempotency_key = ?", req.IdempotencyKey).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: look up order by key: %w", err)
	}
	if o.CartScope != req.Scope.Key() {
		return nil, fmt.Errorf("catalog: place order: %w", ErrIdempotencyKey)
	}
	return o, nil
}

func placeOrder(ctx context.Context, tx bun.IDB, req OrderRequest) (*Order, error) {
	cart, err := GetCart(ctx, tx, req.Scope)
	if err != nil {
		return nil, err
	}
	if len(cart.Items) == 0 {
		return nil, fmt.Errorf("catalog: place order: %w", ErrEmptyCart)
	}
	// A fixed lock order (by product id) keeps concurrent orders from
	// deadlocking on Postgres.
	items := append([]CartItem(nil), cart.Items...)
	sort.Slice(items, func(i, j int) bool { return items[i].ProductID < items[j].ProductID })
	total, currency := cart.Total()
	for _, it := range items {
		if it.Product.Currency != currency {
			return nil, fmt.Errorf("catalog: place order: %w: cart mixes %s and %s", ErrInvalid, currency, it.Product.Currency)
		}
		if err := ReserveStock(ctx, tx, it.ProductID, it.Quantity); err != nil {
			if errors.Is(err, ErrOutOfStock) {
				return nil, fmt.Errorf("catalog: %s: %w", it.Product.SKU, ErrOutOfStock)
			}
			return nil, err
		}
	}
	deliveryName, deliveryCents, err := orderDelivery(ctx, tx, req.Delivery, total)
	if err != nil {
		return nil, err
	}
	total += deliveryCents
	now := time.Now().UTC()
	var promo *PromoCode
	var discount int64
	if req.PromoCode != "" {
		if promo, discount, err = takePromoUse(ctx, tx, req.PromoCode, cart, req.CustomerID, now); err != nil {
			return nil, err
		}
	}
	o := &Order{
		Number: newOrderNumber(), IdempotencyKey: req.IdempotencyKey, CustomerID: req.CustomerID,
		CartScope: req.Scope.Key(), Channel: req.Channel, ChatID: req.ChatID, ThreadID: req.ThreadID,
		Status: StatusNew, Currency: currency, Total: total - discount, // total includes delivery
		DeliveryMethod: deliveryName, DeliveryCents: deliveryCents,
		PromoCode: req.PromoCode, DiscountCents: discount,
		ContactName: req.Contact.Name, Phone: req.Contact.Phone, Email: req.Contact.Email,
		ShippingAddress: req.Contact.Address, Note: req.Note, CreatedAt: now, UpdatedAt: now,
	}
	if _, err := tx.NewInsert().Model(o).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("catalog: insert order: %w", err)
	}
	lines := make([]OrderItem, len(items))
	for i, it := range items {
		pid := it.ProductID
		lines[i] = OrderItem{OrderID: o.ID, ProductID: &pid, SKU: it.Product.SKU, Title: it.Product.Title,
			UnitPrice: it.Product.Price, Quantity: it.Quantity, AddedBy: it.AddedBy, Options: it.Product.Options}
		if lines[i].Options == nil {
			lines[i].Options = map[string]string{}
		}
	}
	if _, err := tx.NewInsert().Model(&lines).Returning("NULL").Exec(ctx); err != nil {
		return nil, fmt.Errorf("catalog: insert order items: %w", err)
	}
	skus := make([]string, len(items))
	for i, it := range items {
		skus[i] = it.Product.SKU
	}
	if err := RollupParents(ctx, tx, skus...); err != nil {
		return nil, err
	}
	if promo != nil {
		if err := recordRedemption(ctx, tx, promo, o); err != nil {
			return nil, err
		}
	}
	if err := ClearCart(ctx, tx, req.Scope); err != nil {
		return nil, err
	}
	if err := RemoveCartPromo(ctx, tx, req.Scope); err != nil {
		return nil, err
	}
	return o, nil
}

// orderAlphabet leaves out look-alike characters (0/O, 1/I/L).
const orderAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

func newOrderNumber() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	for i := range b {
		b[i] = orderAlphabet[int(b[i])%len(orderAlphabet)]
	}
	return "SB-" + string(b)
}

// GetOrder loads an order with its items by its number (as shoppers see it).
func GetOrder(ctx context.Context, db bun.IDB, number string) (*Order, error) {
	o := new(Order)
	err := db.NewSelect().Model(o).
		Relation("Items", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("order_item.id") }).
		Where("number = ?", strings.ToUpper(strings.TrimSpace(number))).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "order %q", number)
	}
	return o, nil
}

// GetOrderByKey finds the order made under an idempotency key.
func GetOrderByKey(ctx context.Context, db bun.IDB, key string) (*Order, error) {
	o := new(Order)
	err := db.NewSelect().Model(o).
		Relation("Items", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("order_item.id") }).
		Where("idempotency_key = ?", key).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "order with key %q", key)
	}
	return o, nil
}

// ListCustomerOrders returns a customer's newest orders with their items.
func ListCustomerOrders(ctx context.Context, db bun.IDB, customerID int64, limit int) ([]Order, error) {
	var os []Order
	err := db.NewSelect().Model(&os).
		Relation("Items", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("order_item.id") }).
		Where("customer_id = ?", customerID).
		Order("created_at DESC", "id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: list orders of customer %d: %w", customerID, err)
	}
	return os, nil
}

// SetOrderStatus moves an order along its lifecycle. note is kept as the
// tracking note when shipping. Cancelling goes through the same code as
// the merchant's CancelOrder (order_changes.go), in a transaction (a
// savepoint when db is one): the status moves with a conditional update,
// every unit not refunded yet goes back to stock once, the promo code's
// use is given back, variants' parents are rolled up, and a refund row
// (kind cancel, form key StatusCancelKey) records the cancellation and,
// for a paid order, the amount owed. Losing a race with another change
// of the order fails with ErrConflict and changes nothing.
func SetOrderStatus(ctx context.Context, db bun.IDB, number string, next OrderStatus, note string) (*Order, error) {
	o, err := GetOrder(ctx, db, number)
	if err != nil {
		return nil, err
	}
	if !o.Status.CanBecome(next) {
		return nil, fmt.Errorf("catalog: order %s: %w from %s to %s", o.Number, ErrInvalidTransition, o.Status, next)
	}
	if next == StatusCancelled {
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, applied, err := cancelOrder(ctx, tx, OrderChange{Number: number, FormKey: StatusCancelKey})
			if err == nil && !applied {
				err = fmt.Errorf("catalog: order %s changed meanwhile: %w", o.Number, ErrConflict)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		return GetOrder(ctx, db, o.Number)
	}
	now := time.Now().UTC()
	q := db.NewUpdate().Model((*Order)(nil)).
		Set("status = ?", next).Set("updated_at = ?", now).Set("revision = revision + 1").
		Where("id = ?", o.ID).Where("status = ?", o.Status) // optimistic: lose a race, change nothing
	switch next {
	case StatusPaid:
		q = q.Set("paid_at = ?", now)
	case StatusShipped:
		q = q.Set("shipped_at = ?", now).Set("tracking_note = ?", note)
	case StatusDelivered:
		q = q.Set("delivered_at = ?", now)
	}
	res, err := q.Exec(ctx)
	if err := expectOneRow(res, err, "order %s in status %s", o.Number, o.Status); err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, fmt.Errorf("catalog: order %s changed meanwhile: %w", o.Number, ErrConflict)
		}
		return nil, err
	}
	return GetOrder(ctx, db, o.Number)
}

// MarkOrderPaid records a payment. It is idempotent on chargeID: the same
// payment reported twice returns the order unchanged with first=false.
func MarkOrderPaid(ctx context.Context, db bun.IDB, number, provider, chargeID string) (o *Order, first bool, err error) {
	if chargeID == "" {
		return nil, false, fmt.Errorf("catalog: mark paid: %w: missing charge id", ErrInvalid)
	}
	o, err = GetOrder(ctx, db, number)
	if err != nil {
		return nil, false, err
	}
	if o.PaymentChargeID != nil {
		if *o.PaymentChargeID == chargeID {
			return o, false, nil
		}
		return nil, false, fmt.Errorf("catalog: order %s already paid by another charge: %w", o.Number, ErrConflict)
	}
	if !o.Status.CanBecome(StatusPaid) {
		return nil, false, fmt.Errorf("catalog: order %s: %w from %s to paid", o.Number, ErrInvalidTransition, o.Status)
	}
	now := time.Now().UTC()
	res, err := db.NewUpdate().Model((*Order)(nil)).
		Set("status = ?", StatusPaid).Set("paid_at = ?", now).Set("updated_at = ?", now).Set("revision = revision + 1").
		Set("payment_provider = ?", provider).Set("payment_charge_id = ?", chargeID).
		Where("id = ?", o.ID).Where("payment_charge_id IS NULL").Exec(ctx)
	if err != nil && isUniqueViolation(err) {
		return nil, false, fmt.Errorf("catalog: charge %s already recorded on another order: %w", chargeID, ErrConflict)
	}
	if err := expectOneRow(res, err, "unpaid order %s", o.Number); err != nil {
		if errors.Is(err, ErrNotFound) {
			// A concurrent delivery of the same payment got there first.
			return MarkOrderPaid(ctx, db, number, provider, chargeID)
		}
		return nil, false, err
	}
	o, err = GetOrder(ctx, db, o.Number)
	return o, err == nil, err
}

// itemSKUs lists the SKUs of the order's lines.
func (o *Order) itemSKUs() []string {
	skus := make([]string, len(o.Items))
	for i, it := range o.Items {
		skus[i] = it.SKU
	}
	return skus
}

// PurchaseLine is one product line of a customer's order, at the price
// paid, with the product's current category path ("" when the product is
// gone or uncategorized).
type PurchaseLine struct {
	OrderNumber string    `bun:"order_number"`
	OrderedAt   time.Time `bun:"ordered_at"`
	SKU         string    `bun:"sku"`
	Title       string    `bun:"title"`
	Category    string    `bun:"category"`
	Qty         int       `bun:"qty"`
	UnitPrice   int64     `bun:"unit_price"`
	Currency    string    `bun:"currency"`
}

// PurchaseHistory returns the lines of a customer's orders placed since the
// given time, cancelled orders left out, oldest first.
func PurchaseHistory(ctx context.Context, db bun.IDB, customerID int64, since time.Time) ([]PurchaseLine, error) {
	var lines []PurchaseLine
	err := db.NewSelect().
		TableExpr("order_items AS oi").
		Join("JOIN orders AS o ON o.id = oi.order_id").
		Join("LEFT JOIN products AS p ON p.id = oi.product_id").
		Join("LEFT JOIN categories AS c ON c.id = p.category_id").
		ColumnExpr("o.number AS order_number, o.created_at AS ordered_at").
		ColumnExpr("oi.sku, oi.title, COALESCE(c.path, '') AS category").
		ColumnExpr("oi.quantity AS qty, oi.unit_price, o.currency").
		Where("o.customer_id = ?", customerID).
		Where("o.status <> ?", StatusCancelled).
		Where("o.created_at >= ?", since.UTC()).
		OrderExpr("o.created_at ASC, o.id ASC, oi.id ASC").
		Scan(ctx, &lines)
	if err != nil {
		return nil, fmt.Errorf("catalog: purchase history of customer %d: %w", customerID, err)
	}
	return lines, nil
}
