package eval_test

import (
	"fmt"
	"strings"
	"testing"

	"shopbot/engine/eval"
	"shopbot/engine/outcome"
)

// shoes is a turn that listed two products, called two tools, made two
// model calls and left a cart.
var shoes = outcome.Outcome{
	Reply: "Found 2 running shoes. Free shipping over $50!",
	Products: []outcome.Product{
		{SKU: "SHO-RUN-001", Price: 8999, Currency: "USD", PriceText: "$89.99"},
		{SKU: "SHO-RUN-004", Price: 13999, Currency: "USD", PriceText: "$139.99"},
	},
	Tools:      []outcome.ToolCall{{Name: "search_products", Arguments: `{"query":"running shoes"}`}, {Name: "add_to_cart"}},
	ModelCalls: 2,
	Cart:       map[string]int{"SHO-RUN-001": 1},
}

func expectOf(t *testing.T, yaml string) eval.Expect {
	t.Helper()
	scs, err := eval.Parse(strings.NewReader(fmt.Sprintf("- name: x\n  turns:\n    - say: hi\n      expect: %s\n", yaml)), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return scs[0].Turns[0].Expect
}

func TestEachExpectationPassesAndFails(t *testing.T) {
	placed := shoes
	placed.Order, placed.Cart = "SB-1", map[string]int{}
	for _, tc := range []struct {
		kind, pass, fail, want string
		o                      *outcome.Outcome
	}{
		{"shows", "{shows: [SHO-RUN-004, SHO-RUN-001]}", "{shows: [SHO-RUN-001, ELE-HPH-001]}",
			"expected to show ELE-HPH-001, got [SHO-RUN-001, SHO-RUN-004]", &shoes},
		{"not_shows", "{not_shows: [ELE-HPH-001]}", "{not_shows: [SHO-RUN-004]}",
			"expected not to show SHO-RUN-004, got [SHO-RUN-001, SHO-RUN-004]", &shoes},
		{"first", "{first: SHO-RUN-001}", "{first: SHO-RUN-004}",
			"expected SHO-RUN-004 first, got [SHO-RUN-001, SHO-RUN-004]", &shoes},
		{"first of nothing", "{}", "{first: SHO-RUN-004}",
			"expected SHO-RUN-004 first, got no products listed", &outcome.Outcome{}},
		{"max_price", "{max_price: 139.99}", "{max_price: 100}",
			"expected every product at most 100.00, got SHO-RUN-004 at $139.99", &shoes},
		{"min_price", "{min_price: 89.99}", "{min_price: 90}",
			"expected every product at least 90.00, got SHO-RUN-001 at $89.99", &shoes},
		{"cart", "{cart: {SHO-RUN-001: 1}}", "{cart: {SHO-RUN-001: 2, KIT-CKW-001: 1}}",
			"expected cart {KIT-CKW-001: 1, SHO-RUN-001: 2}, got {SHO-RUN-001: 1}", &shoes},
		{"empty cart", "{cart: {}}", "{cart: {SHO-RUN-001: 1}}",
			"expected cart {SHO-RUN-001: 1}, got {} (empty)", &placed},
		{"order_placed", "{order_placed: false}", "{order_placed: true}", "expected an order placed, got none", &shoes},
		{"no order_placed", "{order_placed: true}", "{order_placed: false}", "expected no order placed, got order SB-1", &placed},
		{"reply_contains", "{reply_contains: [FREE SHIPPING, running]}", "{reply_contains: [returns]}",
			`expected the reply to contain "returns", got "Found 2 running shoes. Free shipping over $50!"`, &shoes},
		{"reply_not_contains", "{reply_not_contains: [sorry]}", "{reply_not_contains: [Free Shipping]}",
			`expected the reply not to contain "Free Shipping", got "Found 2 running shoes. Free shipping over $50!"`, &shoes},
		{"tools", "{tools: [add_to_cart, search_products]}", "{tools: [checkout]}",
			"expected tool checkout called, got [search_products, add_to_cart]", &shoes},
		{"no tools", "{}", "{tools: [checkout]}", "expected tool checkout called, got no tools called", &outcome.Outcome{}},
		{"max_model_calls", "{max_model_calls: 2}", "{max_model_calls: 1}", "expected at most 1 model calls, got 2", &shoes},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			pass, fail := expectOf(t, tc.pass), expectOf(t, tc.fail)
			if got := pass.Check(tc.o); got != "" {
				t.Errorf("%s: %s", tc.pass, got)
			}
			if got := fail.Check(tc.o); got != tc.want {
				t.Errorf("%s:\ngot  %s\nwant %s", tc.fail, got, tc.want)
			}
		})
	}
}

func TestTheFirstFailingExpectationIsReported(t *testing.T) {
	x := expectOf(t, "{max_model_calls: 0, shows: [ELE-HPH-001], cart: {}}")
	if got, want := x.Check(&shoes), "expected to show ELE-HPH-001, got [SHO-RUN-001, SHO-RUN-004]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
