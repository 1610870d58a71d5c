package tools

import (
	"context"
	"shopbot/engine/toolkit"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

func TestViewCart(t *testing.T) {
	e := newTestEnv(t)
	res := e.call(t, "view_cart", `{}`)
	if msg, _ := toolkit.ModelMessage(res, nil); msg != `{"empty":true}` {
		t.Errorf("empty cart: %s", msg)
	}
	e.call(t, "add_to_cart", `{"sku":"PET-DGF-001","quantity":2}`)
	res = e.call(t, "view_cart", ``)
	var d toolkit.CartData
	toolData(t, res, &d)
	if d.Units != 2 || d.Total != "$31.98" || len(d.Lines) != 1 || d.Lines[0].SKU != "PET-DGF-001" || d.Lines[0].Available != nil {
		t.Errorf("cart = %+v", d)
	}
	if res.Cart == nil || res.Cart.Total != 3198 || len(res.Buttons) != 1 || res.Buttons[0].Action.Kind != view.ActCheckout {
		t.Errorf("view %+v, buttons %+v", res.Cart, res.Buttons)
	}

	// Stock that fell below the quantity is pointed out.
	if err := catalog.SetStock(context.Background(), e.db, "PET-DGF-001", 1); err != nil {
		t.Fatal(err)
	}
	toolData(t, e.call(t, "view_cart", `{}`), &d)
	if d.Lines[0].Available == nil || *d.Lines[0].Available != 1 {
		t.Errorf("short line = %+v", d.Lines[0])
	}

	_, err := e.tools.Call(context.Background(), e.session, "view_cart", `{"cart_id":9}`)
	if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(msg, "additional") {
		t.Errorf("view_cart with an id: %s", msg)
	}
}

// TestSharedCart: two people in one Slack channel fill one cart.
func TestSharedCart(t *testing.T) {
	e := newTestEnv(t)
	shared := catalog.SharedCart("slack", "C1")
	alice, bob := newTestSession(t, e.db, "slack", "U-ALICE"), newTestSession(t, e.db, "slack", "U-BOB")
	alice.Scope, bob.Scope = shared, shared
	call := func(s *session.Session, name, args string) toolkit.Result {
		t.Helper()
		res, err := e.tools.Call(context.Background(), s, name, args)
		if err != nil {
			t.Fatalf("%s(%s): %v", name, args, err)
		}
		return res
	}
	call(alice, "add_to_cart", `{"sku":"OFF-STA-002","quantity":3}`)
	call(bob, "add_to_cart", `{"sku":"GRO-COF-001"}`)
	res := call(bob, "view_cart", `{}`)
	if !res.Cart.Shared || len(res.Cart.Lines) != 2 || res.Cart.Units != 4 {
		t.Fatalf("bob's view = %+v", res.Cart)
	}
	if res.Cart.Lines[0].AddedBy != "Shopper U-ALICE" || res.Cart.Lines[1].AddedBy != "Shopper U-BOB" {
		t.Errorf("added by = %q, %q", res.Cart.Lines[0].AddedBy, res.Cart.Lines[1].AddedBy)
	}
	var d toolkit.CartData
	toolData(t, call(alice, "view_cart", `{}`), &d)
	if !d.Shared || d.Units != 4 || d.Lines[1].AddedBy != "Shopper U-BOB" {
		t.Errorf("alice's view = %+v", d)
	}
	// Bob's personal cart is a different cart.
	bob.Scope = catalog.PersonalCart(bob.Customer.ID)
	if msg, _ := toolkit.ModelMessage(call(bob, "view_cart", `{}`), nil); msg != `{"empty":true}` {
		t.Errorf("bob's personal cart: %s", msg)
	}
}
