package planner

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

func newDeliveryChat(t *testing.T, locale string) *plannerChat {
	t.Helper()
	c := newPlannerChat(t, locale)
	if err := demo.WriteDeliveries(context.Background(), c.e.db); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDeliveryQuote(t *testing.T) {
	c := newDeliveryChat(t, "en")
	p := c.say(t, "how much is delivery to Canada?")
	if len(p.Calls) != 1 || p.Calls[0].Name != "get_delivery_options" || !strings.Contains(p.Text, "International to Canada — $12.00") {
		t.Fatalf("quote: %q, calls %s", p.Text, planCallNames(p))
	}
	p = c.say(t, "сколько стоит доставка в Германию?")
	if !strings.Contains(p.Text, "International to Europe — $18.00") || !strings.Contains(p.Text, "Германия") {
		t.Fatalf("ru quote: %q", p.Text)
	}
	p = c.say(t, "do you ship to Japan?")
	if !strings.Contains(p.Text, "Store pickup") || strings.Contains(p.Text, "Standard") {
		t.Fatalf("Japan: %q", p.Text)
	}
	// Without a country it stays a question for the shop's pages.
	if in := intent.Parse("do you deliver on weekends?", "en", nil); in.Kind == intent.IntentDeliveryQuote {
		t.Errorf("no country, yet %v", in.Kind)
	}
}

// checkoutToDelivery fills the cart and the contact, up to the offer.
func checkoutToDelivery(t *testing.T, c *plannerChat, address string) Plan {
	t.Helper()
	if err := catalog.SaveContact(context.Background(), c.e.db, c.e.session.Customer.ID,
		catalog.Contact{Name: "Ann Lee", Phone: "+1 555 010 0100", Address: address}); err != nil {
		t.Fatal(err)
	}
	c.e.session.Customer.Contact = catalog.Contact{Name: "Ann Lee", Phone: "+1 555 010 0100", Address: address}
	if _, err := c.e.tools.Call(context.Background(), c.e.session, "add_to_cart", `{"sku":"APP-TSH-002-NAVY-L","quantity":1}`); err != nil {
		t.Fatal(err)
	}
	return c.say(t, "checkout")
}

func TestDeliveryChoiceByText(t *testing.T) {
	for _, tc := range []struct {
		locale, say, want string
	}{
		{"en", "the courier one", "Express courier"},
		{"en", "2", "Express courier"},
		{"en", "the first", "Standard"},
		{"en", "I'll pick it up", "Store pickup"},
		{"ru", "самовывоз", "Store pickup"},
		{"ru", "курьером", "Express courier"},
	} {
		t.Run(tc.say, func(t *testing.T) {
			c := newDeliveryChat(t, tc.locale)
			p := checkoutToDelivery(t, c, "1 Main St, Springfield")
			if len(p.Buttons) != 3 || p.Buttons[0].Action.Kind != view.ActDelivery || !strings.Contains(p.Text, "Standard — $5.00") {
				t.Fatalf("offer: %q, buttons %+v", p.Text, p.Buttons)
			}
			p = c.say(t, tc.say)
			if c.e.session.State.Checkout.Awaiting != "confirm" || c.e.session.State.Checkout.Delivery != tc.want {
				t.Fatalf("%q chose %+v; reply %q", tc.say, c.e.session.State.Checkout, p.Text)
			}
			if !strings.Contains(p.Text, tc.want) {
				t.Errorf("summary does not show the method: %q", p.Text)
			}
		})
	}
}

// A button press (the Arg every channel sends back) chooses the method;
// "yes" then places the order with the delivery in its total.
func TestDeliveryChoiceByButton(t *testing.T) {
	c := newDeliveryChat(t, "en")
	p := checkoutToDelivery(t, c, "1 Main St, Springfield")
	if len(p.Buttons) != 3 {
		t.Fatalf("offer: %q, buttons %+v", p.Text, p.Buttons)
	}
	btn := p.Buttons[1]
	a, err := view.ParseAction(btn.Data)
	if err != nil {
		t.Fatal(err)
	}
	c.n++
	c.e.session.DedupKey = "turn-button"
	plan, err := c.p.ChooseDelivery(context.Background(), c.e.session, a.Arg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan.Text, "Delivery: Express courier — $15.00") || !strings.Contains(plan.Text, "Total: $43.00") {
		t.Fatalf("summary after the button: %q", plan.Text)
	}
	p = c.say(t, "yes")
	if !strings.Contains(p.Text, "$43.00") {
		t.Fatalf("placed: %q", p.Text)
	}
	os, _ := catalog.ListCustomerOrders(context.Background(), c.e.db, c.e.session.Customer.ID, 5)
	if len(os) != 1 || os[0].DeliveryMethod != "Express courier" || os[0].Total != 4300 {
		t.Fatalf("orders %+v", os)
	}
	// An old button, pressed after the order, changes nothing.
	plan, err = c.p.ChooseDelivery(context.Background(), c.e.session, a.Arg)
	if err != nil || plan.Text == "" {
		t.Fatalf("stale button: %q, %v", plan.Text, err)
	}
	if os, _ := catalog.ListCustomerOrders(context.Background(), c.e.db, c.e.session.Customer.ID, 5); len(os) != 1 {
		t.Fatalf("a stale button ordered again: %d orders", len(os))
	}
}

func TestDeliveryNoneFits(t *testing.T) {
	c := newDeliveryChat(t, "en")
	ctx := context.Background()
	ms, _ := catalog.ListDeliveryMethods(ctx, c.e.db)
	for _, m := range ms {
		if m.Pickup {
			_ = catalog.DeleteDeliveryMethod(ctx, c.e.db, m.ID)
		}
	}
	p := checkoutToDelivery(t, c, "1-2-3 Ginza, Tokyo, Japan")
	if !strings.Contains(p.Text, "we don't deliver to Japan") {
		t.Fatalf("none fits: %q", p.Text)
	}
	// The next message is another address.
	p = c.say(t, "500 Main St, Boston, USA")
	if st := c.e.session.State.Checkout; st == nil || st.Awaiting != "delivery" || !strings.Contains(p.Text, "Standard") {
		t.Fatalf("after a new address: %q, %+v", p.Text, st)
	}
}
