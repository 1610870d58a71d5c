package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/clip"
)

// StockAlertTTL is how long a back-in-stock alert waits before it expires.
const StockAlertTTL = 60 * 24 * time.Hour

// StockAlertState is a step of an alert's life: waiting → due (stock came
// back) → sending (claimed by one worker) → sent, blocked (the shopper
// blocked the bot) or failed; a waiting alert expires after StockAlertTTL.
type StockAlertState string

const (
	AlertWaiting StockAlertState = "waiting"
	AlertDue     StockAlertState = "due"
	AlertSending StockAlertState = "sending"
	AlertSent    StockAlertState = "sent"
	AlertBlocked StockAlertState = "blocked"
	AlertFailed  StockAlertState = "failed"
	AlertExpired StockAlertState = "expired"
)

// StockAlert is a shopper's "tell me when it's back" on a product,
// delivered in the conversation it was asked from.
type StockAlert struct {
	bun.BaseModel `bun:"table:stock_alerts,alias:stock_alert"`

	ID           int64           `bun:"id,pk,autoincrement"`
	CustomerID   int64           `bun:"customer_id,notnull"`
	ProductID    int64           `bun:"product_id,notnull"`
	Channel      string          `bun:"channel,notnull"`
	ChatID       string          `bun:"chat_id,notnull"`
	ThreadID     string          `bun:"thread_id,notnull"`
	Locale       string          `bun:"locale,notnull"`
	State        StockAlertState `bun:"state,notnull"`
	Attempts     int             `bun:"attempts,notnull"`
	LastError    string          `bun:"last_error,notnull"`
	CreatedAt    time.Time       `bun:"created_at,notnull"`
	ExpiresAt    time.Time       `bun:"expires_at,notnull"`
	DueAt        *time.Time      `bun:"due_at"`
	ClaimedUntil *time.Time      `bun:"claimed_until"`
	SentAt       *time.Time      `bun:"sent_at"`
}

// Where is the conversation the alert is delivered to.
func (a *StockAlert) Where() ConversationKey {
	return ConversationKey{Channel: a.Channel, ChatID: a.ChatID, ThreadID: a.ThreadID}
}

// StockAlertRequest is a subscription as a turn makes it.
type StockAlertRequest struct {
	CustomerID int64
	SKU        string
	Where      ConversationKey
	Locale     string
	Now        time.Time
}

// ErrInStock reports an alert asked for a product that can be bought now.
var ErrInStock = errors.New("in stock")

// SubscribeStockAlert records that the customer wants to hear when the
// product is back, in the conversation of req.Where. Asking again renews
// the alert (a new 60 days, the latest conversation); a product that is
// in stock fails with ErrInStock and an archived one with ErrInvalid.
// created is false when a waiting alert was renewed.
func SubscribeStockAlert(ctx context.Context, db bun.IDB, req StockAlertRequest) (a *StockAlert, created bool, err error) {
	if req.CustomerID <= 0 || req.Where.Channel == "" || req.Now.IsZero() {
		return nil, false, fmt.Errorf("catalog: subscribe: %w: customer, channel and time are required", ErrInvalid)
	}
	p, err := GetProduct(ctx, db, req.SKU)
	if err != nil {
		return nil, false, err
	}
	switch {
	case !p.Active:
		return nil, false, fmt.Errorf("catalog: subscribe to %s: %w: the product is no longer sold", p.SKU, ErrInvalid)
	case p.Stock > 0:
		return nil, false, fmt.Errorf("catalog: subscribe to %s: %w", p.SKU, ErrInStock)
	}
	now := req.Now.UTC()
	existed, err := db.NewSelect().Model((*StockAlert)(nil)).
		Where("customer_id = ? AND product_id = ? AND state = ?", req.CustomerID, p.ID, AlertWaiting).Exists(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("catalog: subscribe to %s: %w", p.SKU, err)
	}
	a = &StockAlert{
		CustomerID: req.CustomerID, ProductID: p.ID, Channel: req.Where.Channel, ChatID: req.Where.ChatID,
		ThreadID: req.Where.ThreadID, Locale: clip.Bytes(req.Locale, 16), State: AlertWaiting,
		CreatedAt: now, ExpiresAt: now.Add(StockAlertTTL),
	}
	// An alert being delivered right now is left alone: its message is
	// on the way.
	_, err = db.NewInsert().Model(a).
		On("CONFLICT (customer_id, product_id) DO UPDATE").
		Set("channel = EXCLUDED.channel, chat_id = EXCLUDED.chat_id, thread_id = EXCLUDED.thread_id").
		Set("locale = EXCLUDED.locale, state = EXCLUDED.state, attempts = 0, last_error = ''").
		Set("created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at").
		Set("due_at = NULL, claimed_until = NULL, sent_at = NULL").
		Where("stock_alert.state <> ?", AlertSending).
		Returning("NULL").Exec(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("catalog: subscribe to %s: %w", p.SKU, err)
	}
	// Stock may have come back between the read above and the insert; the
	// alert is then due at once rather than waiting for the next restock.
	if err := wakeStockAlerts(ctx, db, db.NewSelect().Model((*Product)(nil)).Column("id").Where("id = ?", p.ID)); err != nil {
		return nil, false, err
	}
	return a, !existed, nil
}

// wakeStockAlerts makes the waiting alerts of the products selected by
// ids (a query of product ids) due if those products are sellable. It is
// called in the transaction of every stock write, so "stock came back"
// and "alerts due" commit together; since it looks at the stock as
// written, not at what it was, it needs no read of the old value and is
// safe against concurrent writers.
func wakeStockAlerts(ctx context.Context, db bun.IDB, ids *bun.SelectQuery) error {
	sellable := db.NewSelect().TableExpr("products AS p").Column("p.id").
		Where("p.id IN (?)", ids).Where("p.active = ?", true).Where("p.stock > 0")
	_, err := db.NewUpdate().Model((*StockAlert)(nil)).
		Set("state = ?", AlertDue).Set("due_at = ?", time.Now().UTC()).
		Where("state = ?", AlertWaiting).Where("product_id IN (?)", sellable).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: wake stock alerts: %w", err)
	}
	return nil
}

func wakeStockAlertsBySKU(ctx context.Context, db bun.IDB, skus ...string) error {
	if len(skus) == 0 {
		return nil
	}
	return wakeStockAlerts(ctx, db, db.NewSelect().Model((*Product)(nil)).Column("id").Where("sku IN (?)", bun.List(skus)))
}

func wakeStockAlertsByID(ctx context.Context, db bun.IDB, productID int64) error {
	return wakeStockAlerts(ctx, db, db.NewSelect().Model((*Product)(nil)).Column("id").Where("id = ?", productID))
}

// DueStockAlert is a claimed alert with its product, ready to send.
type DueStockAlert struct {
	StockAlert
	Product  *Product
	Customer string // the shopper's display name
}

// ClaimStockAlerts claims up to limit due alerts for delivery: each with a
// conditional update (due, or sending with a lapsed lease, and not
// expired), so two workers on two replicas never claim the same one. A
// claim lasts until now+lease; a worker that dies mid-send leaves the
// alert to be claimed again after it. An alert whose product sold out
// again before its turn goes back to waiting.
func ClaimStockAlerts(ctx context.Context, db bun.IDB, now time.Time, lease time.Duration, limit int) ([]DueStockAlert, error) {
	now = now.UTC()
	var cands []StockAlert
	err := db.NewSelect().Model(&cands).
		Where("(stock_alert.state = ? OR (stock_alert.state = ? AND stock_alert.claimed_until < ?))", AlertDue, AlertSending, now).
		Where("stock_alert.expires_at > ?", now).
		Order("stock_alert.id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: due stock alerts: %w", err)
	}
	var out []DueStockAlert
	for _, c := range cands {
		res, err := db.NewUpdate().Model((*StockAlert)(nil)).
			Set("state = ?", AlertSending).Set("claimed_until = ?", now.Add(lease)).Set("attempts = attempts + 1").
			Where("id = ?", c.ID).
			Where("(state = ? OR (state = ? AND claimed_until < ?))", AlertDue, AlertSending, now).
			Where("expires_at > ?", now).
			Exec(ctx)
		if err != nil {
			return out, fmt.Errorf("catalog: claim stock alert %d: %w", c.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // another worker took it
		}
		p, err := GetProductByID(ctx, db, c.ProductID)
		if err != nil {
			return out, err
		}
		if !p.InStock() {
			if err := finishStockAlert(ctx, db, c.ID, AlertWaiting, now, ""); err != nil {
				return out, err
			}
			continue
		}
		c.State, c.Attempts = AlertSending, c.Attempts+1
		d := DueStockAlert{StockAlert: c, Product: p}
		if cu, err := GetCustomer(ctx, db, c.CustomerID); err == nil {
			d.Customer = cu.DisplayName
		}
		out = append(out, d)
	}
	return out, nil
}

// MarkStockAlertSent records a delivered alert.
func MarkStockAlertSent(ctx context.Context, db bun.IDB, id int64, now time.Time) error {
	return finishStockAlert(ctx, db, id, AlertSent, now, "")
}

// MarkStockAlertBlocked records that the shopper's chat refuses messages
// (they blocked the bot): this alert and every other undelivered alert of
// that chat are never tried again.
func MarkStockAlertBlocked(ctx context.Context, db bun.IDB, a StockAlert, now time.Time, cause error) error {
	if err := finishStockAlert(ctx, db, a.ID, AlertBlocked, now, cause.Error()); err != nil {
		return err
	}
	_, err := db.NewUpdate().Model((*StockAlert)(nil)).
		Set("state = ?", AlertBlocked).Set("last_error = ?", "chat blocked").
		Where("channel = ? AND chat_id = ? AND state IN (?)", a.Channel, a.ChatID, bun.List([]StockAlertState{AlertWaiting, AlertDue})).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: block stock alerts of %s/%s: %w", a.Channel, a.ChatID, err)
	}
	return nil
}

// RetryStockAlert gives a failed send back: due again after delay, or
// failed for good after maxAttempts.
func RetryStockAlert(ctx context.Context, db bun.IDB, a StockAlert, now time.Time, cause error, delay time.Duration, maxAttempts int) error {
	if a.Attempts >= maxAttempts {
		return finishStockAlert(ctx, db, a.ID, AlertFailed, now, cause.Error())
	}
	// Still "sending", with the lease moved to the retry time: the claim
	// query picks it up again then.
	res, err := db.NewUpdate().Model((*StockAlert)(nil)).
		Set("claimed_until = ?", now.UTC().Add(delay)).Set("last_error = ?", clip.Bytes(cause.Error(), 500)).
		Where("id = ? AND state = ?", a.ID, AlertSending).Exec(ctx)
	return expectOneRow(res, err, "stock alert %d being sent", a.ID)
}

func finishStockAlert(ctx context.Context, db bun.IDB, id int64, state StockAlertState, now time.Time, cause string) error {
	q := db.NewUpdate().Model((*StockAlert)(nil)).
		Set("state = ?", state).Set("claimed_until = NULL").Set("last_error = ?", clip.Bytes(cause, 500)).
		Where("id = ? AND state = ?", id, AlertSending)
	switch state {
	case AlertSent:
		q = q.Set("sent_at = ?", now.UTC())
	case AlertWaiting:
		q = q.Set("due_at = NULL")
	}
	res, err := q.Exec(ctx)
	return expectOneRow(res, err, "stock alert %d being sent", id)
}

// ExpireStockAlerts ends the undelivered alerts whose time ran out and
// returns how many.
func ExpireStockAlerts(ctx context.Context, db bun.IDB, now time.Time) (int64, error) {
	res, err := db.NewUpdate().Model((*StockAlert)(nil)).
		Set("state = ?", AlertExpired).Set("claimed_until = NULL").
		Where("state IN (?)", bun.List([]StockAlertState{AlertWaiting, AlertDue})).
		Where("expires_at <= ?", now.UTC()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: expire stock alerts: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// GetStockAlert loads a customer's alert on a product.
func GetStockAlert(ctx context.Context, db bun.IDB, customerID int64, sku string) (*StockAlert, error) {
	a := new(StockAlert)
	err := db.NewSelect().Model(a).
		Join("JOIN products AS p ON p.id = stock_alert.product_id").
		Where("stock_alert.customer_id = ? AND p.sku = ?", customerID, sku).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "stock alert of customer %d on %q", customerID, sku)
	}
	return a, nil
}
