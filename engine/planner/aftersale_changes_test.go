package planner

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
)

// TestPlannerChangesAnOrder: a new address and a removed line are asked
// first and written only after a yes; a no keeps the order.
func TestPlannerChangesAnOrder(t *testing.T) {
	c := newPlannerChat(t, "en")
	o := c.placeOrder(t, "c1", "BOO-FIC-001")
	ctx := context.Background()
	if _, err := catalog.AddToCart(ctx, c.e.db, c.e.session.Scope, "GRO-COF-001", 1, c.e.session.Customer.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := catalog.ChangeOrderItems(ctx, c.e.db, o.Number, map[string]int{"GRO-COF-001": 1}); err != nil {
		t.Fatal(err)
	}

	p := c.say(t, "please change the delivery address of my order to 5 Elm Road, Boston MA 02118")
	wantPlanCalls(t, p, "get_order_status", "change_order_address")
	wantPlanText(t, p, "5 Elm Road", `"yes"`)
	c.say(t, "no")
	if got, _ := catalog.GetOrder(ctx, c.e.db, o.Number); got.ShippingAddress != "1 Main St" {
		t.Fatalf("a no changed the address to %q", got.ShippingAddress)
	}
	c.say(t, "change the address of "+o.Number+" to 5 Elm Road, Boston MA 02118")
	p = c.say(t, "yes")
	wantPlanText(t, p, "5 Elm Road, Boston MA 02118")
	if got, _ := catalog.GetOrder(ctx, c.e.db, o.Number); got.ShippingAddress != "5 Elm Road, Boston MA 02118" {
		t.Fatalf("address %q after the yes", got.ShippingAddress)
	}

	p = c.say(t, "remove the coffee from my order "+o.Number)
	wantPlanCalls(t, p, "get_order_status", "change_order_items")
	p = c.say(t, "yes")
	wantPlanText(t, p, o.Number)
	if got, _ := catalog.GetOrder(ctx, c.e.db, o.Number); len(got.Items) != 1 || got.Items[0].SKU != "BOO-FIC-001" {
		t.Fatalf("items after the yes: %+v", got.Items)
	}
}

// TestPlannerReturnsAnOrder: a return of an undelivered order is refused;
// once delivered it is asked, then recorded on a yes (RU), and its status
// is answered.
func TestPlannerReturnsAnOrder(t *testing.T) {
	c := newPlannerChat(t, "ru")
	o := c.placeOrder(t, "r1", "BOO-FIC-001")
	ctx := context.Background()
	p := c.say(t, "хочу вернуть заказ "+o.Number+", не подошёл")
	wantPlanText(t, p, "после доставки")
	for _, st := range []catalog.OrderStatus{catalog.StatusShipped, catalog.StatusDelivered} {
		if _, err := catalog.SetOrderStatus(ctx, c.e.db, o.Number, st, ""); err != nil {
			t.Fatal(err)
		}
	}
	p = c.say(t, "хочу вернуть заказ "+o.Number+", потому что не подошёл размер")
	wantPlanCalls(t, p, "request_return")
	if rs, _ := catalog.OrderReturns(ctx, c.e.db, o.ID); len(rs) != 0 {
		t.Fatal("asking recorded a return")
	}
	c.say(t, "да")
	rs, err := catalog.OrderReturns(ctx, c.e.db, o.ID)
	if err != nil || len(rs) != 1 || !strings.Contains(rs[0].Reason, "размер") {
		t.Fatalf("returns after the yes: %+v, %v", rs, err)
	}
	p = c.say(t, "где мой возврат?")
	wantPlanText(t, p, "на рассмотрении")
}
