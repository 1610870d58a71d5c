package mcp_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/adapters/mcp"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
	"shopbot/engine/agentdoor"
)

var buyer = map[string]any{
	"name":  "Jane Doe",
	"email": "jane@example.com",
	"address": map[string]any{
		"line1": "123 Main St", "city": "Springfield", "region": "IL", "postal_code": "62701", "country": "US",
	},
}

// TestAgentChecksOut: an agent fills its cart, checks out with the
// buyer's contact given explicitly, and completes the checkout with one
// idempotency key sent three times, twice at once: one order, one
// reply, and how to pay.
func TestAgentChecksOut(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		srv, _ := shop(t, db, engine.Config{}, mcp.Options{})
		cs, err := connect(t, srv.URL, "")
		if err != nil {
			t.Fatal(err)
		}
		found, _, _ := call(t, cs, "search_products", map[string]any{"query": "mug"})
		sku := firstString(found, "sku")
		for range 2 { // the same add twice: one unit
			if _, text, isErr := call(t, cs, "add_to_cart", map[string]any{"sku": sku, "idempotency_key": "add-mug"}); isErr {
				t.Fatalf("add_to_cart: %s", text)
			}
		}
		if cart, text, _ := call(t, cs, "view_cart", map[string]any{}); cart["units"] != float64(1) {
			t.Fatalf("the same add_to_cart key twice: %s", text)
		}
		// The contact is explicit: nothing is taken from elsewhere.
		sc, text, isErr := call(t, cs, "create_checkout", map[string]any{"name": "Jane Doe", "address": buyer["address"], "idempotency_key": "co-0"})
		if isErr || sc["status"] != "need_details" || !strings.Contains(text, "email or phone") {
			t.Fatalf("create_checkout without e-mail or phone: %s", text)
		}
		bad := map[string]any{"name": "Jane Doe", "email": "not an address", "address": buyer["address"], "idempotency_key": "co-1"}
		if sc, text, _ := call(t, cs, "create_checkout", bad); sc["status"] != "need_details" || !strings.Contains(text, "email") {
			t.Fatalf("create_checkout with a bad e-mail: %s", text)
		}
		if _, text, isErr := call(t, cs, "complete_checkout", map[string]any{"idempotency_key": "done-0"}); !isErr || !strings.Contains(text, "create_checkout first") {
			t.Fatalf("complete_checkout before a summary: %s", text)
		}
		args := map[string]any{"idempotency_key": "co-2"}
		for k, v := range buyer {
			args[k] = v
		}
		sc, text, isErr = call(t, cs, "create_checkout", args)
		if isErr || sc["status"] != "confirm" || !strings.Contains(text, "123 Main St") {
			t.Fatalf("create_checkout: %s", text)
		}

		var wg sync.WaitGroup
		texts := make([]string, 3)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, texts[i], _ = call(t, cs, "complete_checkout", map[string]any{"idempotency_key": "done-1"})
			}()
		}
		wg.Wait()
		placed, text, isErr := call(t, cs, "complete_checkout", map[string]any{"idempotency_key": "done-1"})
		texts[2] = text
		if isErr || placed["status"] != "placed" || firstString(placed, "number") == "" {
			t.Fatalf("complete_checkout: %s", text)
		}
		if texts[0] != text || texts[1] != text {
			t.Errorf("the same key gave different replies:\n%s\n%s\n%s", texts[0], texts[1], text)
		}
		pay, _ := placed["payment"].(map[string]any)
		if pay["status"] != "awaiting_payment" || pay["instruction"] == "" {
			t.Errorf("payment %v; want awaiting_payment with an instruction", pay)
		}
		n, err := db.NewSelect().Model((*catalog.Order)(nil)).Where("channel = ?", agentdoor.Channel).Count(context.Background())
		if err != nil || n != 1 {
			t.Fatalf("%d orders (%v); want 1", n, err)
		}
		var o catalog.Order
		if err := db.NewSelect().Model(&o).Where("channel = ?", agentdoor.Channel).Scan(context.Background()); err != nil {
			t.Fatal(err)
		}
		if o.Email != "jane@example.com" || o.ContactName != "Jane Doe" || !strings.HasSuffix(o.ShippingAddress, "US") {
			t.Errorf("order contact %q %q %q", o.ContactName, o.Email, o.ShippingAddress)
		}
		status, text, isErr := call(t, cs, "get_order_status", map[string]any{"order_number": o.Number})
		if isErr || firstString(status, "number") != o.Number {
			t.Errorf("get_order_status: %s", text)
		}
	})
}

// TestAgentIdempotencyKeys: a write without a key, with a malformed
// key, or with a key already used for another call is refused and
// changes nothing.
func TestAgentIdempotencyKeys(t *testing.T) {
	srv, _ := shop(t, catalogtest.SQLiteDemo(t), engine.Config{}, mcp.Options{})
	cs, err := connect(t, srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	found, _, _ := call(t, cs, "search_products", map[string]any{"query": "mug"})
	sku := firstString(found, "sku")
	for _, c := range []struct {
		key  any
		want string
	}{
		{nil, "idempotency_key is required"},
		{"", "idempotency_key must be"},
		{"has space", "idempotency_key must be"},
		{strings.Repeat("k", 65), "idempotency_key must be"},
		{42, "idempotency_key must be"},
	} {
		args := map[string]any{"sku": sku}
		if c.key != nil {
			args["idempotency_key"] = c.key
		}
		if _, text, isErr := call(t, cs, "add_to_cart", args); !isErr || !strings.Contains(text, c.want) {
			t.Errorf("key %v: error %v, %s; want %q", c.key, isErr, text, c.want)
		}
	}
	if _, text, isErr := call(t, cs, "add_to_cart", map[string]any{"sku": sku, "idempotency_key": "k"}); isErr {
		t.Fatalf("add_to_cart: %s", text)
	}
	if _, text, isErr := call(t, cs, "add_to_cart", map[string]any{"sku": sku, "quantity": 3, "idempotency_key": "k"}); !isErr || !strings.Contains(text, "different call") {
		t.Errorf("key reused for other arguments: %s", text)
	}
	if cart, text, _ := call(t, cs, "view_cart", map[string]any{}); cart["units"] != float64(1) {
		t.Errorf("refused writes changed the cart: %s", text)
	}
	// Keys are the session's: another session's same key is its own.
	other, err := connect(t, srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, text, isErr := call(t, other, "add_to_cart", map[string]any{"sku": sku, "quantity": 2, "idempotency_key": "k"}); isErr {
		t.Errorf("another session's key k: %s", text)
	}
}
