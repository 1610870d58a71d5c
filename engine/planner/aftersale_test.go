package planner

import (
	"context"
	"testing"

	"shopbot/catalog"
)

// placeOrder puts sku in the chat's cart and places an order of it.
func (c *plannerChat) placeOrder(t *testing.T, key, sku string) *catalog.Order {
	t.Helper()
	ctx := context.Background()
	s := c.e.session
	if _, err := catalog.AddToCart(ctx, c.e.db, s.Scope, sku, 1, s.Customer.ID); err != nil {
		t.Fatal(err)
	}
	o, err := catalog.PlaceOrder(ctx, c.e.db, catalog.OrderRequest{IdempotencyKey: key, Scope: s.Scope, CustomerID: s.Customer.ID,
		Channel: s.Channel, ChatID: s.ChatID, Contact: catalog.Contact{Name: "Ann Lee", Phone: "+1 555 0100", Address: "1 Main St"}})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func (c *plannerChat) status(t *testing.T, number string) catalog.OrderStatus {
	t.Helper()
	o, err := catalog.GetOrder(context.Background(), c.e.db, number)
	if err != nil {
		t.Fatal(err)
	}
	return o.Status
}

// TestPlannerCancelsAnOrder: asking shows the order and changes nothing;
// only a yes in the next message cancels; a no, or anything else in
// between, keeps it; a shipped order is said to be past cancelling.
func TestPlannerCancelsAnOrder(t *testing.T) {
	c := newPlannerChat(t, "en")
	o := c.placeOrder(t, "a1", "BOO-FIC-001")

	p := c.say(t, "I want to cancel my order")
	wantPlanCalls(t, p, "get_order_status", "cancel_order")
	wantPlanText(t, p, o.Number, `"yes"`)
	if c.status(t, o.Number) != catalog.StatusNew {
		t.Fatal("asking cancelled the order")
	}
	c.say(t, "no")
	if c.status(t, o.Number) != catalog.StatusNew {
		t.Fatal("a no cancelled the order")
	}
	c.say(t, "cancel order "+o.Number)
	c.say(t, "running shoes") // something else in between: the question lapses
	c.say(t, "yes")
	if c.status(t, o.Number) != catalog.StatusNew {
		t.Fatal("a yes after another message cancelled the order")
	}

	c.say(t, "please cancel "+o.Number)
	p = c.say(t, "yes")
	wantPlanCalls(t, p, "cancel_order")
	wantPlanText(t, p, o.Number, "cancelled")
	if c.status(t, o.Number) != catalog.StatusCancelled {
		t.Fatal("the yes did not cancel the order")
	}

	shipped := c.placeOrder(t, "a2", "BOO-FIC-002")
	if _, err := catalog.SetOrderStatus(context.Background(), c.e.db, shipped.Number, catalog.StatusShipped, ""); err != nil {
		t.Fatal(err)
	}
	p = c.say(t, "cancel "+shipped.Number)
	wantPlanText(t, p, shipped.Number, "no longer be cancelled")

	ru := newPlannerChat(t, "ru")
	ro := ru.placeOrder(t, "r1", "BOO-FIC-003")
	p = ru.say(t, "отмените мой заказ")
	wantPlanText(t, p, ro.Number, "«да»")
	ru.say(t, "да")
	if ru.status(t, ro.Number) != catalog.StatusCancelled {
		t.Fatal("ru: the yes did not cancel the order")
	}
}
