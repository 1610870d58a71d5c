package engine

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/llmtest"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./engine -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestSystemPromptGolden(t *testing.T) {
	e := newEngineEnv(t)
	s := e.session
	if _, err := catalog.AddToCart(context.Background(), e.db, s.Scope, "SHO-RUN-001-42", 2, s.Customer.ID); err != nil {
		t.Fatal(err)
	}
	s.State.Focus = "SHO-RUN-001"
	got, err := e.eng.systemPrompt(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "system_prompt.golden", got)
}

// TestGoldenConversation walks a shopper from search to order status
// through the model loop and compares the transcript with a golden file.
func TestGoldenConversation(t *testing.T) {
	call := func(name, args string) llmtest.Step {
		return llmtest.CallTools(llmtest.ToolCall{Name: name, Arguments: args})
	}
	e := newEngineEnv(t,
		call("search_products", `{"query":"trail running shoes","max_price":150}`),
		llmtest.Reply("Here are trail running shoes under $150."),
		call("get_product_details", `{"sku":"SHO-TRL-002"}`),
		llmtest.Reply("It has a rock plate and 5 mm lugs."),
		call("add_to_cart", `{"sku":"SHO-TRL-002-42","quantity":1}`),
		llmtest.Reply("Added one pair."),
		call("view_cart", `{}`),
		llmtest.Reply("Your cart has one pair."),
		call("checkout", `{"name":"Anna Petrova","phone":"+1 555 0100","address":"1 Main St, Springfield"}`),
		llmtest.Reply("Please confirm the order summary."),
		call("checkout", `{"confirm":true}`),
		llmtest.Reply("Your order is placed."),
		call("get_order_status", `{}`),
		llmtest.Reply("Your order is new and will ship soon."),
	)
	turns := []string{
		"trail running shoes under 150",
		"tell me more about the first one",
		"add it in size 42 to my cart",
		"what's in my cart?",
		"checkout: Anna Petrova, +1 555 0100, 1 Main St, Springfield",
		"yes, confirm",
		"where is my order?",
	}
	var b strings.Builder
	for i, text := range turns {
		ev := e.turn(t, text, fmt.Sprint("u", i))
		fmt.Fprintf(&b, "> %s\n", text)
		for _, x := range ev.all {
			switch x.Kind {
			case EventCards:
				for _, c := range x.Cards {
					fmt.Fprintf(&b, "  card %s %s %s stock=%d\n", c.SKU, c.Title, c.PriceText, c.Stock)
				}
			case EventCart:
				fmt.Fprintf(&b, "  cart units=%d total=%s\n", x.Cart.Units, x.Cart.TotalText)
			case EventOrder:
				fmt.Fprintf(&b, "  order status=%s total=%s lines=%d\n", x.Order.Status, x.Order.TotalText, len(x.Order.Lines))
			case EventDone:
				fmt.Fprintf(&b, "< %s\n", x.Text)
			}
		}
	}
	for _, m := range e.transcript(t) {
		switch {
		case len(m.ToolCalls) > 0:
			fmt.Fprintf(&b, "[%s] calls %s %s\n", m.Role, m.ToolCalls[0].Name, m.ToolCalls[0].Arguments)
		case m.Role == catalog.RoleTool:
			fmt.Fprintf(&b, "[tool] %s error=%v\n", m.ToolName, m.ToolError)
		}
	}
	golden(t, "conversation.golden", b.String())

	orders, err := catalog.ListCustomerOrders(context.Background(), e.db, mustCustomer(t, e).ID, 5)
	if err != nil || len(orders) != 1 || orders[0].ContactName != "Anna Petrova" {
		t.Fatalf("orders = %+v, %v", orders, err)
	}
	// Every request kept tool calls and results paired (llmtest rejects
	// anything else) and the history window stayed bounded.
	for i, r := range e.llm.Requests() {
		if len(r.Messages) > 2+12+8 {
			t.Errorf("request %d has %d messages", i, len(r.Messages))
		}
	}
}
