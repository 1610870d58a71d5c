package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"
	"strings"
	"testing"

	"shopbot/engine/view"
)

func TestAddToCart(t *testing.T) {
	e := newTestEnv(t)
	res := e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42","quantity":2}`)
	var d struct {
		Added struct {
			SKU, Title string
			Qty        int
		}
		Cart toolkit.CartData
	}
	toolData(t, res, &d)
	if d.Added.SKU != "SHO-RUN-001-42" || d.Added.Qty != 2 || !strings.Contains(d.Added.Title, "AeroStride") {
		t.Errorf("added = %+v", d.Added)
	}
	if d.Cart.Units != 2 || d.Cart.Total != "$179.98" || len(d.Cart.Lines) != 1 || d.Cart.Lines[0].LineTotal != "$179.98" {
		t.Errorf("cart = %+v", d.Cart)
	}
	if res.Cart == nil || res.Cart.Total != 17998 || res.Cart.Shared {
		t.Errorf("cart view = %+v", res.Cart)
	}
	if len(res.Buttons) != 2 || res.Buttons[0].Action.Kind != view.ActCart || res.Buttons[1].Action.Kind != view.ActCheckout {
		t.Errorf("buttons = %+v", res.Buttons)
	}

	// The quantity defaults to 1 and adds to what is there.
	res = e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42"}`)
	if res.Cart.Units != 3 || res.Cart.Lines[0].Qty != 3 {
		t.Errorf("after a second add: %+v", res.Cart)
	}
}

func TestAddToCartErrors(t *testing.T) {
	e := newTestEnv(t)
	e.call(t, "add_to_cart", `{"sku":"APP-DRS-003-L","quantity":2}`) // 5 in stock
	for _, tc := range []struct{ args, want string }{
		{`{"sku":"APP-DRS-003-L","quantity":4}`, "5 available, 2 already in the cart"},
		{`{"sku":"GRO-COF-003"}`, "0 available"},
		{`{"sku":"NOPE-404"}`, "no product with sku"},
		{`{"sku":"SHO-RUN-001-42","quantity":0}`, "minimum"},
		{`{"sku":"SHO-RUN-001-42","quantity":100}`, "maximum"},
		{`{"quantity":1}`, "sku"},
		{`{"sku":"SHO-RUN-001-42","cart_id":3}`, "additional"},
	} {
		_, err := e.tools.Call(context.Background(), e.session, "add_to_cart", tc.args)
		if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(msg, tc.want) {
			t.Errorf("add_to_cart(%s): %s, want %q", tc.args, msg, tc.want)
		}
	}
	if res := e.call(t, "view_cart", `{}`); res.Cart.Units != 2 {
		t.Errorf("failed adds changed the cart: %+v", res.Cart)
	}
}

// toolData decodes a result's data as the model reads it.
func toolData(t *testing.T, res toolkit.Result, v any) {
	t.Helper()
	msg, isErr := toolkit.ModelMessage(res, nil)
	if isErr {
		t.Fatalf("tool message: %s", msg)
	}
	if err := json.Unmarshal([]byte(msg), v); err != nil {
		t.Fatalf("decode %s: %v", msg, err)
	}
}
