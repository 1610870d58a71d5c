package toolkit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/team"
)

// What tools change, as narrow interfaces beside the read ones (store.go).
// A tool never opens a transaction: it hands apply (effects.go) a function
// of Writes, and apply runs it in one effect's transaction (BeginEffect)
// together with the effect's journal row, so a fake store can stand in for
// both.

// Writes is every change a tool makes, each called inside one effect's
// transaction: the cart (add_to_cart, update_cart_item, remove_from_cart),
// the saved contact and the order (checkout), the handoff (request_human).
// Errors are the catalog's (ErrNotFound, ErrOutOfStock, ErrInvalid …);
// tools classify them with errors.Is.
type Writes interface {
	// AddToCart adds quantity units of sku to the scope's cart, on top of
	// the line's, within stock and catalog.MaxCartQuantity.
	AddToCart(ctx context.Context, scope catalog.CartScope, sku string, quantity int, by int64) error
	// SetCartQuantity sets the line of sku to quantity (1 or more).
	SetCartQuantity(ctx context.Context, scope catalog.CartScope, sku string, quantity int, by int64) error
	// RemoveFromCart deletes the line of sku; ErrNotFound if there is none.
	RemoveFromCart(ctx context.Context, scope catalog.CartScope, sku string) error
	// SaveContact keeps the customer's contact for the next checkout.
	SaveContact(ctx context.Context, customerID int64, contact catalog.Contact) error
	// PlaceOrder turns the scope's cart into an order, decrementing stock.
	PlaceOrder(ctx context.Context, req catalog.OrderRequest) (*catalog.Order, error)
	// RequestHuman flags the conversation for the shop's team, opens its
	// support case and, with round robin on, assigns it
	// (team.HandOff).
	RequestHuman(ctx context.Context, conversationID int64, reason string) error
	// ApplyPromo puts a promo code on the scope's cart
	// (catalog.ApplyCartPromo); a code that cannot apply is a
	// *catalog.PromoError and changes nothing.
	ApplyPromo(ctx context.Context, scope catalog.CartScope, customerID int64, code string, now time.Time) (*catalog.PromoQuote, error)
	// RemovePromo takes the code off the scope's cart.
	RemovePromo(ctx context.Context, scope catalog.CartScope) error
	// SubscribeStockAlert records a back-in-stock alert (ErrInStock if
	// the product can be bought now).
	SubscribeStockAlert(ctx context.Context, req catalog.StockAlertRequest) error
}

// EffectTx is one effect's transaction: the tool's Writes, and the journal
// row that commits or rolls back with them.
type EffectTx interface {
	Writes
	// ClaimEffect records the effect; false means an earlier run of the
	// turn committed it, and the effect is skipped.
	ClaimEffect(ctx context.Context, turnKey, effectKey string, at time.Time) (bool, error)
	// SetEffectNotice keeps the notice the effect owes the merchant, for
	// TakeEffectNotice after the commit.
	SetEffectNotice(ctx context.Context, turnKey, effectKey, notice string) error
	Commit() error
	// Rollback undoes everything since BeginEffect; after a Commit it does
	// nothing.
	Rollback() error
}

// WriteStore is where effects are written (Deps.Writes; nil writes the
// catalog through DBWrites on Deps.DB).
type WriteStore interface {
	// BeginEffect opens one effect's transaction. apply (effects.go)
	// commits it or rolls it back, so a tool never holds one.
	BeginEffect(ctx context.Context) (EffectTx, error)
	// TakeEffectNotice claims an effect's undelivered notice, once: ""
	// when it has none or someone else took it.
	TakeEffectNotice(ctx context.Context, turnKey, effectKey string, at time.Time) (string, error)
}

// DBWrites is the WriteStore over a database: each effect is a bun.Tx,
// its writes and journal row the catalog's functions on it.
type DBWrites struct{ DB *bun.DB }

// BeginEffect implements WriteStore. It is a Begin rather than a function
// run in bun.RunInTx because a closure passed through an interface
// escapes: the effect path would allocate it, and what it captures, per
// write.
func (w DBWrites) BeginEffect(ctx context.Context) (EffectTx, error) {
	tx, err := w.DB.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("engine: begin effect: %w", err)
	}
	return &txWrites{tx}, nil
}

// TakeEffectNotice implements WriteStore.
func (w DBWrites) TakeEffectNotice(ctx context.Context, turnKey, effectKey string, at time.Time) (string, error) {
	return catalog.TakeEffectNotice(ctx, w.DB, turnKey, effectKey, at)
}

// txWrites is EffectTx over one bun.Tx.
type txWrites struct{ tx bun.Tx }

func (w *txWrites) AddToCart(ctx context.Context, scope catalog.CartScope, sku string, quantity int, by int64) error {
	_, err := catalog.AddCartItem(ctx, w.tx, scope, sku, quantity, by)
	return err
}

func (w *txWrites) SetCartQuantity(ctx context.Context, scope catalog.CartScope, sku string, quantity int, by int64) error {
	_, err := catalog.SetCartQuantity(ctx, w.tx, scope, sku, quantity, by)
	return err
}

func (w *txWrites) RemoveFromCart(ctx context.Context, scope catalog.CartScope, sku string) error {
	return catalog.RemoveCartItem(ctx, w.tx, scope, sku)
}

func (w *txWrites) SaveContact(ctx context.Context, customerID int64, contact catalog.Contact) error {
	return catalog.SaveContact(ctx, w.tx, customerID, contact)
}

func (w *txWrites) PlaceOrder(ctx context.Context, req catalog.OrderRequest) (*catalog.Order, error) {
	return catalog.PlaceOrder(ctx, w.tx, req)
}

func (w *txWrites) RequestHuman(ctx context.Context, conversationID int64, reason string) error {
	_, err := team.HandOff(ctx, w.tx, conversationID, reason, time.Now())
	return err
}

func (w *txWrites) ApplyPromo(ctx context.Context, scope catalog.CartScope, customerID int64, code string, now time.Time) (*catalog.PromoQuote, error) {
	return catalog.ApplyCartPromo(ctx, w.tx, scope, customerID, code, now)
}

func (w *txWrites) RemovePromo(ctx context.Context, scope catalog.CartScope) error {
	return catalog.RemoveCartPromo(ctx, w.tx, scope)
}

func (w *txWrites) SubscribeStockAlert(ctx context.Context, req catalog.StockAlertRequest) error {
	_, _, err := catalog.SubscribeStockAlert(ctx, w.tx, req)
	return err
}

func (w *txWrites) ClaimEffect(ctx context.Context, turnKey, effectKey string, at time.Time) (bool, error) {
	return catalog.ClaimEffect(ctx, w.tx, turnKey, effectKey, at)
}

func (w *txWrites) SetEffectNotice(ctx context.Context, turnKey, effectKey, notice string) error {
	return catalog.SetEffectNotice(ctx, w.tx, turnKey, effectKey, notice)
}

func (w *txWrites) Commit() error { return w.tx.Commit() }

func (w *txWrites) Rollback() error {
	if err := w.tx.Rollback(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return err
	}
	return nil
}

// ShopperCancelKey is the form key of a shopper's own cancellation: one per
// order, so the same request again changes nothing.
const ShopperCancelKey = "shopper:cancel"

// ShopperStaff is who a shopper's own change is recorded as.
const ShopperStaff = "shopper (chat)"

// CancelOwnOrder cancels the shopper's order in the effect's transaction
// (cancel_order); applied is false when it was already cancelled.
func (w *txWrites) CancelOwnOrder(ctx context.Context, number string) (bool, error) {
	_, applied, err := catalog.CancelOrder(ctx, w.tx, catalog.OrderChange{Number: number, FormKey: ShopperCancelKey, Staff: ShopperStaff})
	return applied, err
}

// ChangeOwnOrderAddress sets the shopper's pending order's delivery
// address in the effect's transaction (change_order_address); applied is
// false when it already was that address.
func (w *txWrites) ChangeOwnOrderAddress(ctx context.Context, number, address string) (bool, error) {
	_, applied, err := catalog.ChangeOrderAddress(ctx, w.tx, number, address)
	return applied, err
}

// ChangeOwnOrderItems changes the shopper's new order's lines in the
// effect's transaction (change_order_items, catalog.ChangeOrderItems).
func (w *txWrites) ChangeOwnOrderItems(ctx context.Context, number string, want map[string]int) (bool, error) {
	_, _, applied, err := catalog.ChangeOrderItems(ctx, w.tx, number, want)
	return applied, err
}

// RequestOwnReturn records the shopper's return in the effect's
// transaction (request_return, catalog.RequestReturn).
func (w *txWrites) RequestOwnReturn(ctx context.Context, req catalog.ReturnRequest) (bool, error) {
	_, applied, err := catalog.RequestReturn(ctx, w.tx, req)
	return applied, err
}
