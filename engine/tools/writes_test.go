package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"shopbot/engine/toolkit"
	"slices"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/session"
)

// The write tools against fakeWrites, with no database: each passes the
// session's identity and the cleaned arguments to its write, a write that
// fails surfaces as the tool's error and commits nothing, and a turn run
// again skips what its first run committed.

var errDiskFull = errors.New("fake: disk full")

// wantLog compares what committed with want.
func wantLog(t *testing.T, w *fakeWrites, want ...string) {
	t.Helper()
	if got := w.log(); !slices.Equal(got, want) {
		t.Errorf("committed writes:\n got %q\nwant %q", got, want)
	}
}

// wantModelError checks that err reaches the model as an error containing want.
func wantModelError(t *testing.T, res toolkit.Result, err error, want string) {
	t.Helper()
	msg, isErr := toolkit.ModelMessage(res, err)
	if !isErr || !strings.Contains(msg, want) {
		t.Errorf("model reads %s (error %v), want an error containing %q", msg, isErr, want)
	}
}

func TestAddToCartWrites(t *testing.T) {
	inCart := 0
	w := &fakeWrites{addToCart: func(_ context.Context, _ catalog.CartScope, sku string, qty int, _ int64) error {
		if inCart+qty > mug.Stock {
			return fmt.Errorf("catalog: %s: %w (%d available)", sku, catalog.ErrOutOfStock, mug.Stock)
		}
		inCart += qty
		return nil
	}}
	fs := newFakeShop(t, w, &inCart, nil)
	res, err := fs.call("add_to_cart", `{"sku":" MUG-1 "}`)
	if err != nil || res.Cart == nil || res.Cart.Units != 1 {
		t.Fatalf("add: %+v, %v; want the cart with one mug", res.Cart, err)
	}
	wantLog(t, w, "add customer:7 MUG-1 1 by 7")

	// The same turn run again finds its effect in the journal.
	fs.rerun()
	if res, err := fs.call("add_to_cart", `{"sku":"MUG-1"}`); err != nil || res.Cart.Units != 1 {
		t.Fatalf("rerun: %+v, %v; want the cart as it is", res.Cart, err)
	}
	wantLog(t, w, "add customer:7 MUG-1 1 by 7")

	fs.nextTurn("turn-2")
	res, err = fs.call("add_to_cart", `{"sku":"MUG-1","quantity":5}`)
	wantModelError(t, res, err, "not enough stock of Mug (MUG-1): 5 available, 1 already in the cart")

	fs.nextTurn("turn-3")
	w.addToCart = func(context.Context, catalog.CartScope, string, int, int64) error { return errDiskFull }
	res, err = fs.call("add_to_cart", `{"sku":"MUG-1"}`)
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("failed write: %v, want it surfaced", err)
	}
	wantModelError(t, res, err, "the tool failed")
	wantLog(t, w, "add customer:7 MUG-1 1 by 7")
	if w.rollbacks != 2 {
		t.Errorf("%d rollbacks, want 2 (stock, disk)", w.rollbacks)
	}
}

func TestUpdateCartItemWrites(t *testing.T) {
	inCart := 2
	w := &fakeWrites{
		setCartQuantity: func(_ context.Context, _ catalog.CartScope, sku string, qty int, _ int64) error {
			if sku != mug.SKU {
				return fmt.Errorf("catalog: product %s: %w", sku, catalog.ErrNotFound)
			}
			inCart = qty
			return nil
		},
		removeFromCart: func(context.Context, catalog.CartScope, string) error {
			inCart = 0
			return nil
		},
	}
	fs := newFakeShop(t, w, &inCart, nil)
	if res, err := fs.call("update_cart_item", `{"sku":"MUG-1","quantity":4}`); err != nil || res.Cart.Units != 4 {
		t.Fatalf("set 4: %+v, %v", res.Cart, err)
	}
	res, err := fs.call("update_cart_item", `{"sku":"PEN-9","quantity":1}`)
	wantModelError(t, res, err, `no product with sku \"PEN-9\"`)
	// 0 removes the line: the remove write, not a set to 0.
	if res, err := fs.call("update_cart_item", `{"sku":"MUG-1","quantity":0}`); err != nil || res.Cart.Units != 0 {
		t.Fatalf("set 0: %+v, %v", res.Cart, err)
	}
	wantLog(t, w, "set customer:7 MUG-1 4 by 7", "remove customer:7 MUG-1")
}

func TestRemoveFromCartWrites(t *testing.T) {
	inCart := 1
	w := &fakeWrites{removeFromCart: func(_ context.Context, _ catalog.CartScope, sku string) error {
		if inCart == 0 {
			return fmt.Errorf("catalog: remove %s: %w in cart", sku, catalog.ErrNotFound)
		}
		inCart = 0
		return nil
	}}
	fs := newFakeShop(t, w, &inCart, nil)
	res, err := fs.call("remove_from_cart", `{"sku":"MUG-1"}`)
	if err != nil || res.Cart.Units != 0 || !strings.Contains(toolkit.JSON(res.Data), `"title":"Mug"`) {
		t.Fatalf("remove: %s, %v", toolkit.JSON(res.Data), err)
	}
	res, err = fs.call("remove_from_cart", `{"sku":"MUG-1"}`)
	wantModelError(t, res, err, "MUG-1 is not in the cart")

	w.removeFromCart = func(context.Context, catalog.CartScope, string) error { return errDiskFull }
	if _, err := fs.call("remove_from_cart", `{"sku":"MUG-1"}`); !errors.Is(err, errDiskFull) {
		t.Fatalf("failed write: %v, want it surfaced", err)
	}
	wantLog(t, w, "remove customer:7 MUG-1")
}

// statusOf is the status a tool's data reports to the model.
func statusOf(res toolkit.Result) string {
	var d struct{ Status string }
	if json.Unmarshal([]byte(toolkit.JSON(res.Data)), &d) != nil {
		return ""
	}
	return d.Status
}

func TestCheckoutWrites(t *testing.T) {
	inCart := 2
	orders := map[string]*catalog.Order{}
	var placeErr error
	w := &fakeWrites{
		saveContact: func(context.Context, int64, catalog.Contact) error { return nil },
		placeOrder: func(_ context.Context, req catalog.OrderRequest) (*catalog.Order, error) {
			if placeErr != nil {
				return nil, placeErr
			}
			o := &catalog.Order{
				Number: "A-1001", IdempotencyKey: req.IdempotencyKey, CartScope: req.Scope.Key(), Status: "new",
				Currency: mug.Currency, Total: mug.Price * int64(inCart),
				ContactName: req.Contact.Name, Phone: req.Contact.Phone, ShippingAddress: req.Contact.Address,
				Items: []catalog.OrderItem{{SKU: mug.SKU, Title: mug.Title, UnitPrice: mug.Price, Quantity: inCart}},
			}
			orders[req.IdempotencyKey] = o
			return o, nil
		},
	}
	fs := newFakeShop(t, w, &inCart, orders)
	details := `{"name":"Ann  Lee","phone":"+1 555 0100","address":"1 Main St\nSpringfield"}`
	res, err := fs.call("checkout", details)
	if err != nil || statusOf(res) != "confirm" {
		t.Fatalf("summary: %s, %v", toolkit.JSON(res.Data), err)
	}
	contact := "contact 7 Ann Lee|+1 555 0100|1 Main St Springfield|ann@example.com"
	wantLog(t, w, contact)

	// The stock ran out between the summary and the confirmation: the
	// order rolls back with its journal row and the tool names the product.
	fs.nextTurn("turn-2")
	placeErr = fmt.Errorf("catalog: %s: %w (1 available)", mug.SKU, catalog.ErrOutOfStock)
	fs.product.Stock = 1
	res, err = fs.call("checkout", `{"confirm":true}`)
	wantModelError(t, res, err, "no order was placed: only 1 of Mug (MUG-1) left, the cart has 2")

	// The shopper confirms again in a later turn; the order is placed with
	// the turn's key and the contact, and its notice goes out once.
	placeErr, fs.product.Stock = nil, mug.Stock
	fs.nextTurn("turn-3")
	res, err = fs.call("checkout", `{"confirm":true}`)
	if err != nil || res.Order == nil || res.Order.Number != "A-1001" {
		t.Fatalf("confirm: %s, %v", toolkit.JSON(res.Data), err)
	}
	wantLog(t, w, contact, "order web:chat-7:turn-3 customer:7")
	if want := []string{"order_placed conv 3 Ann order A-1001"}; !slices.Equal(fs.notices, want) {
		t.Errorf("notices %q, want %q", fs.notices, want)
	}
	fs.rerun()
	if res, err := fs.call("checkout", `{"confirm":true}`); err != nil || res.Order.Number != "A-1001" {
		t.Fatalf("rerun: %+v, %v; want the order placed before", res.Order, err)
	}
	wantLog(t, w, contact, "order web:chat-7:turn-3 customer:7")
	if len(fs.notices) != 1 {
		t.Errorf("notices after the rerun %q, want the one", fs.notices)
	}

	// A contact that cannot be saved fails the summary.
	w.saveContact = func(context.Context, int64, catalog.Contact) error { return errDiskFull }
	fs.nextTurn("turn-4")
	fs.session.State = &session.State{}
	if _, err := fs.call("checkout", `{"name":"Bo Ek","phone":"+1 555 0199","address":"2 Elm St"}`); !errors.Is(err, errDiskFull) {
		t.Fatalf("failed contact: %v, want it surfaced", err)
	}
	if fs.session.State.Checkout != nil && fs.session.State.Checkout.Awaiting == "confirm" {
		t.Errorf("summary shown although the contact was not saved: %+v", fs.session.State.Checkout)
	}
}

func TestRequestHumanWrites(t *testing.T) {
	w := &fakeWrites{requestHuman: func(context.Context, int64, string) error { return nil }}
	inCart := 0
	fs := newFakeShop(t, w, &inCart, nil)
	if _, err := fs.call("request_human", `{"reason":"wants a\nrefund  now"}`); err != nil {
		t.Fatal(err)
	}
	wantLog(t, w, "handoff 3 wants a refund now")
	want := []string{"handoff conv 3 Ann: wants a refund now"}
	if !slices.Equal(fs.notices, want) || !fs.session.Conversation.NeedsHuman {
		t.Errorf("notices %q, flagged %v; want %q and the conversation flagged", fs.notices, fs.session.Conversation.NeedsHuman, want)
	}
	fs.rerun()
	if _, err := fs.call("request_human", `{"reason":"wants a\nrefund  now"}`); err != nil {
		t.Fatal(err)
	}
	wantLog(t, w, "handoff 3 wants a refund now")
	if !slices.Equal(fs.notices, want) {
		t.Errorf("rerun notified again: %q", fs.notices)
	}

	w.requestHuman = func(context.Context, int64, string) error { return errDiskFull }
	fs.nextTurn("turn-2")
	fs.session.Conversation = &catalog.Conversation{ID: 3, Channel: "web", ChatID: "chat-7"}
	res, err := fs.call("request_human", `{"reason":"still waiting"}`)
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("failed handoff: %v, want it surfaced", err)
	}
	wantModelError(t, res, err, "the tool failed")
	if fs.session.Conversation.NeedsHuman || len(fs.notices) != 1 {
		t.Errorf("a failed handoff flagged the session (%v) or notified (%q)", fs.session.Conversation.NeedsHuman, fs.notices)
	}
}

// TestEffectCrashStepsWithFakeStore crashes a turn at each step of an
// effect: at "effect-tx" the write rolls back with its journal row, so the
// turn run again makes it; at "effect" it committed, so the rerun skips it.
func TestEffectCrashStepsWithFakeStore(t *testing.T) {
	for _, tc := range []struct {
		step      string
		rollbacks int
	}{{"effect-tx", 1}, {"effect", 0}} {
		t.Run(tc.step, func(t *testing.T) {
			inCart := 0
			w := &fakeWrites{addToCart: func(context.Context, catalog.CartScope, string, int, int64) error {
				inCart++
				return nil
			}}
			fs := newFakeShop(t, w, &inCart, nil)
			fs.session.Journal = session.NewJournal(fs.session, func(step string) bool { return step == tc.step })
			if _, err := fs.call("add_to_cart", `{"sku":"MUG-1"}`); !errors.Is(err, session.ErrCrashed) {
				t.Fatalf("crash at %s: %v, want session.ErrCrashed", tc.step, err)
			}
			if w.rollbacks != tc.rollbacks {
				t.Errorf("%d rollbacks, want %d", w.rollbacks, tc.rollbacks)
			}
			fs.rerun()
			if _, err := fs.call("add_to_cart", `{"sku":"MUG-1"}`); err != nil {
				t.Fatal(err)
			}
			wantLog(t, w, "add customer:7 MUG-1 1 by 7")
		})
	}
}

// TestEffectPanicRollsBack: a write that panics becomes the tool's error
// and its transaction is rolled back, not left open to block the next.
func TestEffectPanicRollsBack(t *testing.T) {
	inCart := 0
	w := &fakeWrites{addToCart: func(context.Context, catalog.CartScope, string, int, int64) error { panic("boom") }}
	fs := newFakeShop(t, w, &inCart, nil)
	if _, err := fs.call("add_to_cart", `{"sku":"MUG-1"}`); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("panicking write: %v, want the recovered panic", err)
	}
	if w.rollbacks != 1 {
		t.Errorf("%d rollbacks, want 1", w.rollbacks)
	}
	w.addToCart = func(context.Context, catalog.CartScope, string, int, int64) error { return nil }
	fs.nextTurn("turn-2")
	if _, err := fs.call("add_to_cart", `{"sku":"MUG-1"}`); err != nil {
		t.Fatal(err)
	}
	wantLog(t, w, "add customer:7 MUG-1 1 by 7")
}
