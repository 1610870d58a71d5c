package mcp_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/adapters/mcp"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/engine"
)

// TestAgentChoosesDelivery: the checkout summary lists every delivery
// method for the address with its price in minor units, marks the
// chosen one, and its total includes it before complete_checkout;
// choosing another changes the total, and the order keeps it.
func TestAgentChoosesDelivery(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		srv, _ := shop(t, db, engine.Config{}, mcp.Options{})
		if err := demo.WriteDeliveries(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		cs, err := connect(t, srv.URL, "")
		if err != nil {
			t.Fatal(err)
		}
		found, _, _ := call(t, cs, "search_products", map[string]any{"query": "mug"})
		if _, text, isErr := call(t, cs, "add_to_cart", map[string]any{"sku": firstString(found, "sku"), "idempotency_key": "add"}); isErr {
			t.Fatal(text)
		}
		base := -1.0 // the summary's total less the chosen delivery: the cart's
		args := map[string]any{"idempotency_key": "co-1"}
		for k, v := range buyer {
			args[k] = v
		}
		sc, text, _ := call(t, cs, "create_checkout", args)
		if sc["status"] != "choose_delivery" {
			t.Fatalf("several methods, none chosen: %s", text)
		}
		for i, choice := range []struct {
			name   string
			amount int64
		}{{"Express courier", 1500}, {"Store pickup", 0}} {
			args["delivery"], args["idempotency_key"] = choice.name, fmt.Sprintf("co-choose-%d", i)
			sc, text, _ = call(t, cs, "create_checkout", args)
			if sc["status"] != "confirm" {
				t.Fatalf("create_checkout %s: %s", choice.name, text)
			}
			opts, _ := sc["delivery_options"].([]any)
			if len(opts) != 3 { // the US methods: standard, express, pickup
				t.Fatalf("%d delivery options in the summary: %s", len(opts), text)
			}
			chosen := 0
			for _, o := range opts {
				o := o.(map[string]any)
				if _, ok := o["amount"].(float64); !ok {
					t.Errorf("option without an amount: %v", o)
				}
				if o["chosen"] == true {
					chosen++
					if o["name"] != choice.name || o["amount"] != float64(choice.amount) {
						t.Errorf("chosen option %v; want %s at %d", o, choice.name, choice.amount)
					}
				}
			}
			am, _ := sc["amounts"].(map[string]any)
			sub, _ := sc["summary"].(map[string]any)
			if chosen != 1 || am == nil || am["delivery"] != float64(choice.amount) || sub["delivery"] != choice.name {
				t.Fatalf("choice %d: %s", i, text)
			}
			total, _ := am["total"].(float64)
			if base < 0 {
				base = total - float64(choice.amount)
			}
			if base <= 0 || total != base+float64(choice.amount) {
				t.Errorf("total %v; want the cart's %v + delivery %d", total, base, choice.amount)
			}
		}
		placed, text, isErr := call(t, cs, "complete_checkout", map[string]any{"idempotency_key": "done"})
		if isErr || placed["status"] != "placed" {
			t.Fatalf("complete_checkout: %s", text)
		}
		o, err := catalog.GetOrder(context.Background(), db, firstString(placed, "number"))
		if err != nil || o.DeliveryMethod != "Store pickup" || o.DeliveryCents != 0 {
			t.Fatalf("order delivery %+v, %v", o, err)
		}
	})
}
