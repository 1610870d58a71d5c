package checkout_test

import (
	"context"
	"errors"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools/checkout"
	"strings"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/engine/view"
)

// deliveryEnv is the demo shop with its delivery methods: Standard ($5,
// free from $50, US), Express courier ($15, US), Store pickup, and
// International to Canada ($12) and to Europe ($18); the shop is in the US.
func deliveryEnv(t *testing.T, e *testEnv) *testEnv {
	t.Helper()
	if err := demo.WriteDeliveries(context.Background(), e.db); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestCheckoutDelivery(t *testing.T) {
	checkoutDeliveryFlow(t, deliveryEnv(t, newTestEnv(t)))
}

func TestCheckoutDeliveryPostgres(t *testing.T) {
	db, _ := catalogtest.PostgresDemo(t)
	checkoutDeliveryFlow(t, deliveryEnv(t, newTestEnvOnDemo(t, db)))
}

func checkoutDeliveryFlow(t *testing.T, e *testEnv) {
	s := e.session
	e.call(t, "add_to_cart", `{"sku":"APP-TSH-002-NAVY-L","quantity":1}`) // $28.00, under the free threshold

	// No country in the address: the shop's (US) methods are offered.
	res := e.call(t, "checkout", `{"name":"Ann Lee","phone":"+1 555 010 0100","address":"1 Main St, Springfield"}`)
	d := checkoutOf(t, res)
	if d.Status != "choose_delivery" || len(d.Delivery) != 3 || s.State.Checkout.Awaiting != "delivery" {
		t.Fatalf("offer: %+v, state %+v", d, s.State.Checkout)
	}
	if o := d.Delivery[0]; o.Name != "Standard" || o.Price != "$5.00" || o.FreeOver != "$50.00" || o.Days != "3–5" {
		t.Errorf("standard offered as %+v", o)
	}
	if o := d.Delivery[2]; o.Name != "Store pickup" || o.Price != "free" || !o.Pickup {
		t.Errorf("pickup offered as %+v", o)
	}
	if len(res.Buttons) != 3 || res.Buttons[1].Action.Kind != view.ActDelivery {
		t.Fatalf("buttons %+v", res.Buttons)
	}
	// The button's data is what Telegram, Slack, the web chat and the
	// terminal send back; it parses to the offered method.
	a, err := view.ParseAction(res.Buttons[1].Data)
	if err != nil {
		t.Fatal(err)
	}
	name, ok := checkout.DeliveryButton(s.State, a.Arg)
	if !ok || name != "Express courier" {
		t.Fatalf("button %q resolves to %q, %v", res.Buttons[1].Data, name, ok)
	}
	if _, ok := checkout.DeliveryButton(s.State, "99999"); ok {
		t.Error("a method never offered resolved")
	}
	wantOrderCount(t, e, 0)

	// A method that does not fit is refused and the offer repeated.
	res = e.call(t, "checkout", `{"delivery":"International to Canada"}`)
	if d := checkoutOf(t, res); d.Status != "choose_delivery" || !strings.Contains(d.Reason, "not available") {
		t.Fatalf("unfit choice: %+v", d)
	}

	res = e.call(t, "checkout", `{"delivery":"express COURIER"}`)
	d = checkoutOf(t, res)
	if d.Status != "confirm" || d.Summary.Delivery != "Express courier" || d.Summary.DeliveryPrice != "$15.00" ||
		d.Summary.Subtotal != "$28.00" || d.Summary.Total != "$43.00" {
		t.Fatalf("summary: %+v", d.Summary)
	}
	s.DedupKey = "turn-2"
	res = e.call(t, "checkout", `{"confirm":true}`)
	d = checkoutOf(t, res)
	if d.Status != "placed" || d.Order.Total != "$43.00" || res.Order.Delivery != "Express courier" || res.Order.DeliveryText != "$15.00" {
		t.Fatalf("placed: %+v, view %+v", d, res.Order)
	}
	o, err := catalog.GetOrder(context.Background(), e.db, d.Order.Number)
	if err != nil || o.DeliveryMethod != "Express courier" || o.DeliveryCents != 1500 || o.Total != 4300 {
		t.Fatalf("stored order %+v, %v", o, err)
	}
}

// The address decides: Canada gets its method and the pickup (a pickup
// always fits); Japan only the pickup, chosen without asking; and once the
// pickup is gone, checkout says nothing delivers to Japan.
func TestCheckoutDeliveryByCountry(t *testing.T) {
	e := deliveryEnv(t, newTestEnv(t))
	ctx := context.Background()
	s := e.session
	e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42","quantity":1}`) // $89.99

	res := e.call(t, "checkout", `{"name":"Ann Lee","phone":"+1 555 010 0100","address":"12 Queen St W, Toronto, Canada"}`)
	if d := checkoutOf(t, res); d.Status != "choose_delivery" || len(d.Delivery) != 2 || d.Delivery[1].Name != "International to Canada" {
		t.Fatalf("Canada: %+v", d)
	}
	res = e.call(t, "checkout", `{"address":"1-2-3 Ginza, Tokyo, Japan"}`)
	if d := checkoutOf(t, res); d.Status != "confirm" || d.Summary.Delivery != "Store pickup" || d.Summary.Total != "$89.99" {
		t.Fatalf("Japan, pickup alone: %+v", d)
	}
	// Over the threshold, Standard in the US is free.
	res = e.call(t, "checkout", `{"address":"500 Main St, Boston, USA","delivery":"Standard"}`)
	if d := checkoutOf(t, res); d.Status != "confirm" || d.Summary.DeliveryPrice != "Free" || d.Summary.Total != "$89.99" {
		t.Fatalf("free standard: %+v", d.Summary)
	}

	ms, _ := catalog.ListDeliveryMethods(ctx, e.db)
	for _, m := range ms {
		if m.Pickup {
			if err := catalog.DeleteDeliveryMethod(ctx, e.db, m.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	res = e.call(t, "checkout", `{"address":"1-2-3 Ginza, Tokyo, Japan"}`)
	d := checkoutOf(t, res)
	if d.Status != "no_delivery" || d.Country != "Japan" || s.State.Checkout.Awaiting != "address" {
		t.Fatalf("no method: %+v, state %+v", d, s.State.Checkout)
	}
	wantOrderCount(t, e, 0)
}

// The merchant raises the chosen method's price between the summary and
// the "yes": no order at the old price; the new summary is shown.
func TestCheckoutDeliveryPriceChanged(t *testing.T) {
	e := deliveryEnv(t, newTestEnv(t))
	ctx := context.Background()
	e.call(t, "add_to_cart", `{"sku":"APP-TSH-002-NAVY-L","quantity":1}`)
	e.call(t, "checkout", `{"name":"Ann Lee","phone":"+1 555 010 0100","address":"1 Main St, Springfield","delivery":"Standard"}`)
	ms, _ := catalog.ListDeliveryMethods(ctx, e.db)
	std := ms[0]
	std.Price = 700
	if err := catalog.SaveDeliveryMethod(ctx, e.db, &std, time.Now()); err != nil {
		t.Fatal(err)
	}
	e.session.DedupKey = "turn-2"
	res := e.call(t, "checkout", `{"confirm":true}`)
	if d := checkoutOf(t, res); d.Status != "confirm" || d.Reason != checkout.ReasonChanged || d.Summary.DeliveryPrice != "$7.00" {
		t.Fatalf("changed price: %+v", d)
	}
	wantOrderCount(t, e, 0)
}

func TestGetDeliveryOptions(t *testing.T) {
	e := deliveryEnv(t, newTestEnv(t))
	for _, tc := range []struct {
		args, country string
		names         []string
	}{
		{`{"country":"Canada"}`, "CA", []string{"Store pickup", "International to Canada"}},
		{`{"country":"ca"}`, "CA", []string{"Store pickup", "International to Canada"}},
		{`{"country":"Германия"}`, "DE", []string{"Store pickup", "International to Europe"}},
		{`{}`, "US", []string{"Standard", "Express courier", "Store pickup"}},
		{`{"country":"Japan"}`, "JP", []string{"Store pickup"}},
	} {
		res := e.call(t, "get_delivery_options", tc.args)
		d, ok := res.Data.(checkout.DeliveryOptions)
		if !ok || d.Country != tc.country {
			t.Fatalf("%s: %+v", tc.args, res.Data)
		}
		var names []string
		for _, o := range d.Options {
			names = append(names, o.Name)
		}
		if strings.Join(names, ",") != strings.Join(tc.names, ",") {
			t.Errorf("%s: options %q, want %q", tc.args, names, tc.names)
		}
	}
}

func TestGetDeliveryOptionsHostile(t *testing.T) {
	e := deliveryEnv(t, newTestEnv(t))
	ctx := context.Background()
	for _, args := range []string{
		`{"country":"Atlantis"}`,
		`{"country":"` + strings.Repeat("x", 61) + `"}`,
		`{"country":5}`,
		`{"country":"CA","customer_id":7}`,
		`{"country":"'; DROP TABLE delivery_methods; --"}`,
		`[1,2]`,
		`{"country":"\u0000\u0001"}`,
	} {
		_, err := e.tools.Call(ctx, e.session, "get_delivery_options", args)
		var te *toolkit.ToolError
		if args == `{"country":"\u0000\u0001"}` {
			// Nothing left after cleaning: the shop's own country.
			if err != nil {
				t.Errorf("%s: %v", args, err)
			}
			continue
		}
		if !errors.As(err, &te) {
			t.Errorf("%s: err = %v, want a tool error", args, err)
		}
	}
	if ms, _ := catalog.ListDeliveryMethods(ctx, e.db); len(ms) != 5 {
		t.Fatalf("methods after hostile calls: %d", len(ms))
	}
	// The checkout's delivery argument is bounded and checked too.
	e.call(t, "add_to_cart", `{"sku":"APP-TSH-002-NAVY-L","quantity":1}`)
	if _, err := e.tools.Call(ctx, e.session, "checkout", `{"delivery":"`+strings.Repeat("x", 61)+`"}`); err == nil {
		t.Error("a 61-character delivery name passed the schema")
	}
	res := e.call(t, "checkout", `{"name":"Ann Lee","phone":"+1 555 010 0100","address":"1 Main St","delivery":"<script>free</script>"}`)
	if d := checkoutOf(t, res); d.Status != "choose_delivery" || d.Reason == "" {
		t.Fatalf("unknown method: %+v", d)
	}
}
