package tools

import (
	"context"
	"shopbot/engine/toolkit"
	"strings"
	"testing"
)

func TestUpdateCartItem(t *testing.T) {
	e := newTestEnv(t)
	e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42","quantity":3}`)
	e.call(t, "add_to_cart", `{"sku":"BOO-FIC-002"}`)

	res := e.call(t, "update_cart_item", `{"sku":"SHO-RUN-001-42","quantity":1}`)
	var d struct {
		Updated struct {
			SKU string
			Qty int
		}
		Cart toolkit.CartData
	}
	toolData(t, res, &d)
	if d.Updated.SKU != "SHO-RUN-001-42" || d.Updated.Qty != 1 || d.Cart.Units != 2 || res.Cart.Lines[0].Qty != 1 {
		t.Errorf("update: %+v, view %+v", d, res.Cart)
	}

	res = e.call(t, "update_cart_item", `{"sku":"BOO-FIC-002","quantity":0}`)
	if len(res.Cart.Lines) != 1 || res.Cart.Lines[0].SKU != "SHO-RUN-001-42" {
		t.Errorf("quantity 0 did not remove: %+v", res.Cart)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"sku":"BOO-FIC-002","quantity":0}`, "not in the cart"},
		{`{"sku":"APP-DRS-003-L","quantity":6}`, "5 available"},
		{`{"sku":"SHO-RUN-001-42"}`, "quantity"},
		{`{"sku":"SHO-RUN-001-42","quantity":-1}`, "minimum"},
	} {
		_, err := e.tools.Call(context.Background(), e.session, "update_cart_item", tc.args)
		if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(msg, tc.want) {
			t.Errorf("update_cart_item(%s): %s, want %q", tc.args, msg, tc.want)
		}
	}
}
