package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/adapters/mcp"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

// placeAgentOrder checks out one unit of the first mug in the session
// and returns the order number.
func placeAgentOrder(t *testing.T, cs interface{ ID() string }, callFn func(string, map[string]any) (map[string]any, string, bool)) string {
	t.Helper()
	found, _, _ := callFn("search_products", map[string]any{"query": "mug"})
	if _, text, isErr := callFn("add_to_cart", map[string]any{"sku": firstString(found, "sku"), "idempotency_key": "add-" + cs.ID()}); isErr {
		t.Fatalf("add_to_cart: %s", text)
	}
	args := map[string]any{"idempotency_key": "co"}
	for k, v := range buyer {
		args[k] = v
	}
	if sc, text, _ := callFn("create_checkout", args); sc["status"] != "confirm" {
		t.Fatalf("create_checkout: %s", text)
	}
	placed, text, isErr := callFn("complete_checkout", map[string]any{"idempotency_key": "done"})
	if isErr || placed["status"] != "placed" {
		t.Fatalf("complete_checkout: %s", text)
	}
	return firstString(placed, "number")
}

// TestAgentCancelsOwnOrder: an agent cancels the order of its session
// (asked first, then confirmed, once however often the key comes); an
// order of another session, a missing one and hostile numbers all get
// the same "no order with that number", and change nothing.
func TestAgentCancelsOwnOrder(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		srv, _ := shop(t, db, engine.Config{}, mcp.Options{})
		ctx := context.Background()
		mine, err := connect(t, srv.URL, "")
		if err != nil {
			t.Fatal(err)
		}
		other, err := connect(t, srv.URL, "")
		if err != nil {
			t.Fatal(err)
		}
		number := placeAgentOrder(t, mine, func(n string, a map[string]any) (map[string]any, string, bool) { return call(t, mine, n, a) })
		theirs := placeAgentOrder(t, other, func(n string, a map[string]any) (map[string]any, string, bool) { return call(t, other, n, a) })

		notFound := ""
		for i, n := range []string{theirs, strings.ToLower(theirs), " " + theirs + " ", "SB-NOPE", "' OR 1=1 --", "%", "*", "SB-0", "../" + theirs} {
			args := map[string]any{"order_number": n, "confirm": true, "idempotency_key": "hostile-" + string(rune('a'+i))}
			_, text, isErr := call(t, mine, "cancel_order", args)
			if !isErr {
				t.Fatalf("cancel_order %q ran: %s", n, text)
			}
			if notFound == "" {
				notFound = text
			}
			if text != notFound {
				t.Errorf("cancel_order %q: %s; want the same answer as another's order: %s", n, text, notFound)
			}
		}
		if !strings.Contains(notFound, "no order with that number") {
			t.Errorf("another session's order: %s", notFound)
		}
		for _, args := range []map[string]any{
			{"order_number": strings.Repeat("S", 21), "confirm": true, "idempotency_key": "long"},
			{"order_number": number, "confirm": "yes", "idempotency_key": "typed"},
			{"order_number": number, "confirm": true, "customer_id": 1, "idempotency_key": "extra"},
			{"order_number": number, "confirm": true},
		} {
			if _, text, isErr := call(t, mine, "cancel_order", args); !isErr {
				t.Errorf("cancel_order %v ran: %s", args, text)
			}
		}
		for _, n := range []string{number, theirs} {
			if o, err := catalog.GetOrder(ctx, db, n); err != nil || o.Status != catalog.StatusNew {
				t.Fatalf("order %s after refused cancels: %+v, %v", n, o, err)
			}
		}

		if sc, text, _ := call(t, mine, "cancel_order", map[string]any{"order_number": number, "idempotency_key": "ask"}); sc["status"] != "confirm" {
			t.Fatalf("cancel_order without confirm: %s", text)
		}
		yes := map[string]any{"order_number": number, "confirm": true, "idempotency_key": "yes"}
		first, text, _ := call(t, mine, "cancel_order", yes)
		if first["status"] != "cancelled" {
			t.Fatalf("cancel_order: %s", text)
		}
		if _, again, _ := call(t, mine, "cancel_order", yes); again != text {
			t.Errorf("the same key again: %s; want %s", again, text)
		}
		if o, err := catalog.GetOrder(ctx, db, number); err != nil || o.Status != catalog.StatusCancelled {
			t.Fatalf("own order after cancel: %+v, %v", o, err)
		}
		if o, err := catalog.GetOrder(ctx, db, theirs); err != nil || o.Status != catalog.StatusNew {
			t.Errorf("the other session's order: %+v, %v", o, err)
		}
	})
}
