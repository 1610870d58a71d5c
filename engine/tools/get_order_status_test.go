package tools

import (
	"context"
	"shopbot/engine/toolkit"
	"strings"
	"testing"

	"shopbot/catalog"
)

func TestGetOrderStatus(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	res := e.call(t, "get_order_status", `{}`)
	if msg, _ := toolkit.ModelMessage(res, nil); msg != `{"empty":true,"orders":[]}` || res.Order != nil {
		t.Errorf("no orders: %s", msg)
	}
	first := placeTestOrder(t, e, e.session, "k1", 20, map[string]int{"SHO-RUN-001-42": 1})
	second := placeTestOrder(t, e, e.session, "k2", 10, map[string]int{"BOO-FIC-001": 2})
	if _, err := catalog.SetOrderStatus(ctx, e.db, first.Number, catalog.StatusShipped, "UPS 1Z999"); err != nil {
		t.Fatal(err)
	}

	res = e.call(t, "get_order_status", `{"order_number":" `+strings.ToLower(first.Number)+` "}`)
	var one struct{ Order orderBrief }
	toolData(t, res, &one)
	if one.Order.Number != first.Number || one.Order.Status != "shipped" || one.Order.Tracking != "UPS 1Z999" || one.Order.Total != "$89.99" {
		t.Errorf("order = %+v", one.Order)
	}
	if res.Order == nil || res.Order.Number != first.Number || res.Order.Status != "shipped" {
		t.Errorf("order view = %+v", res.Order)
	}

	res = e.call(t, "get_order_status", `{}`)
	var list struct{ Orders []orderBrief }
	toolData(t, res, &list)
	if len(list.Orders) != 2 || list.Orders[0].Number != second.Number || list.Orders[1].Number != first.Number {
		t.Errorf("orders = %+v", list.Orders)
	}
	if res.Order == nil || res.Order.Number != second.Number {
		t.Errorf("first order view = %+v", res.Order)
	}

	// Another shopper's order is indistinguishable from a missing one.
	other := newTestSession(t, e.db, "telegram", "stranger")
	theirs := placeTestOrder(t, e, other, "k3", 5, map[string]int{"TOY-BLD-001": 1})
	for _, number := range []string{theirs.Number, "SB-NOSUCH22", "' OR 1=1 --"} {
		_, err := e.tools.Call(ctx, e.session, "get_order_status", `{"order_number":"`+number+`"}`)
		if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || msg != `{"error":"no order with that number"}` {
			t.Errorf("order %s: %s", number, msg)
		}
	}
	_, err := e.tools.Call(ctx, e.session, "get_order_status", `{"order_number":"`+strings.Repeat("X", 21)+`"}`)
	if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(msg, "maxLength") {
		t.Errorf("long number: %s", msg)
	}
}

// TestSharedCartOrderStatus: an order from a channel's shared cart is
// visible to everyone in that channel, and to no one else.
func TestSharedCartOrderStatus(t *testing.T) {
	e := newTestEnv(t)
	shared := catalog.SharedCart("slack", "C1")
	alice, bob := newTestSession(t, e.db, "slack", "U-ALICE"), newTestSession(t, e.db, "slack", "U-BOB")
	alice.Scope, bob.Scope = shared, shared
	o := placeTestOrder(t, e, alice, "slack:C1:ev-1", 1, map[string]int{"OFF-STA-004": 10})
	if o.CartScope != shared.Key() {
		t.Fatalf("order scope = %q", o.CartScope)
	}
	res, err := e.tools.Call(context.Background(), bob, "get_order_status", `{"order_number":"`+o.Number+`"}`)
	if err != nil || res.Order == nil || res.Order.Number != o.Number {
		t.Errorf("bob in the channel: %+v, %v", res.Order, err)
	}
	bob.Scope = catalog.PersonalCart(bob.Customer.ID) // bob in a DM
	_, err = e.tools.Call(context.Background(), bob, "get_order_status", `{"order_number":"`+o.Number+`"}`)
	if msg, _ := toolkit.ModelMessage(toolkit.Result{}, err); msg != `{"error":"no order with that number"}` {
		t.Errorf("bob outside the channel: %s", msg)
	}
}
