package tools

import (
	"context"
	"testing"

	"shopbot/catalog"
)

func TestNotifyWhenAvailable(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	all, _, err := catalog.ListProductPage(ctx, e.db, catalog.ProductList{Stock: catalog.StockIn, Limit: 50, Sort: catalog.SortTitle})
	if err != nil {
		t.Fatalf("demo products: %v", err)
	}
	// Products without variants: a parent's stock is its variants'.
	var ps []catalog.Product
	for _, p := range all {
		if !p.HasVariants() {
			ps = append(ps, p)
		}
	}
	if len(ps) < 2 {
		t.Fatalf("demo products without variants in stock: %d", len(ps))
	}
	out, in := ps[0], ps[1]
	if err := catalog.SetStock(ctx, e.db, out.SKU, 0); err != nil {
		t.Fatal(err)
	}
	res := e.call(t, "notify_when_available", `{"sku":"`+out.SKU+`"}`)
	if d := res.Data.(map[string]any); d["status"] != "subscribed" {
		t.Fatalf("data = %+v", d)
	}
	// The same turn run again (a replayed update) adds nothing.
	e.call(t, "notify_when_available", `{"sku":"`+out.SKU+`"}`)
	a, err := catalog.GetStockAlert(ctx, e.db, e.session.Customer.ID, out.SKU)
	if err != nil || a.State != catalog.AlertWaiting || a.Channel != "web" || a.ChatID != "shopper-1" || !a.CreatedAt.Equal(fixedNow) {
		t.Fatalf("alert = %+v, %v", a, err)
	}
	// In stock: no alert, the product is offered instead.
	res = e.call(t, "notify_when_available", `{"sku":"`+in.SKU+`"}`)
	if d := res.Data.(map[string]any); d["status"] != "in_stock" || len(res.Buttons) != 1 || res.Buttons[0].Action.SKU != in.SKU {
		t.Errorf("in stock: %+v", res)
	}
	if _, err := catalog.GetStockAlert(ctx, e.db, e.session.Customer.ID, in.SKU); err == nil {
		t.Errorf("an alert was made for a product in stock")
	}
	// Hostile arguments are tool errors and change nothing.
	for _, args := range []string{
		`{}`, `{"sku":""}`, `{"sku":42}`, `{"sku":"NOPE-404"}`, `{"sku":"` + out.SKU + `","customer_id":1}`,
		`{"sku":"` + string(make([]byte, 300)) + `"}`, `not json`,
	} {
		if _, err := e.tools.Call(ctx, e.session, "notify_when_available", args); err == nil {
			t.Errorf("%.60q: no error", args)
		}
	}
	if err := catalog.SetProductActive(ctx, e.db, out.SKU, false); err != nil {
		t.Fatal(err)
	}
	other := newTestSession(t, e.db, "telegram", "77")
	if _, err := e.tools.Call(ctx, other, "notify_when_available", `{"sku":"`+out.SKU+`"}`); err == nil {
		t.Errorf("alert on an archived product")
	}
}
