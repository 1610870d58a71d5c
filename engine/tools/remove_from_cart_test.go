package tools

import (
	"context"
	"shopbot/engine/toolkit"
	"strings"
	"testing"
)

func TestRemoveFromCart(t *testing.T) {
	e := newTestEnv(t)
	e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42"}`)
	e.call(t, "add_to_cart", `{"sku":"TOY-BLD-003","quantity":2}`)

	res := e.call(t, "remove_from_cart", `{"sku":"SHO-RUN-001-42"}`)
	var d struct {
		Removed struct{ SKU, Title string }
		Cart    toolkit.CartData
	}
	toolData(t, res, &d)
	if d.Removed.SKU != "SHO-RUN-001-42" || !strings.Contains(d.Removed.Title, "AeroStride") || d.Cart.Units != 2 {
		t.Errorf("removed = %+v", d)
	}
	if len(res.Cart.Lines) != 1 || res.Cart.Lines[0].SKU != "TOY-BLD-003" {
		t.Errorf("cart view = %+v", res.Cart)
	}

	_, err := e.tools.Call(context.Background(), e.session, "remove_from_cart", `{"sku":"SHO-RUN-001-42"}`)
	if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || msg != `{"error":"SHO-RUN-001-42 is not in the cart"}` {
		t.Errorf("remove twice: %s", msg)
	}

	res = e.call(t, "remove_from_cart", `{"sku":"TOY-BLD-003"}`)
	if len(res.Cart.Lines) != 0 || len(res.Buttons) != 0 {
		t.Errorf("emptied cart: %+v, buttons %+v", res.Cart, res.Buttons)
	}
}
