package engine

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/llmtest"
	"shopbot/engine/view"
)

// cartsOf is the carts a reply showed, and whether any button repeats.
func cartsOf(t *testing.T, ev *events) ([]*view.CartView, bool) {
	t.Helper()
	var carts []*view.CartView
	for _, e := range ev.of(EventCart) {
		carts = append(carts, e.Cart)
	}
	seen, repeated := map[string]bool{}, false
	for _, b := range ev.of(EventButtons) {
		for _, x := range b.Buttons {
			repeated = repeated || seen[x.Data]
			seen[x.Data] = true
		}
	}
	return carts, repeated
}

func qtyOf(cv *view.CartView, sku string) int {
	for _, l := range cv.Lines {
		if l.SKU == sku {
			return l.Qty
		}
	}
	return 0
}

// TestOneCartPerReplyPlanner: "remove one" views the cart and updates the
// line; "clear the cart" views it and removes each line. Each reply shows
// one cart, the one after the change (it showed the old cart first, then
// the new), with its buttons once, ahead of the words as before.
func TestOneCartPerReplyPlanner(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		env := newTestEnvOnDemo(t, db)
		eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		scope := catalog.PersonalCart(env.session.Customer.ID)
		for _, sku := range []string{"ELE-HPH-007", "ELE-HPH-001"} {
			if _, err := catalog.AddToCart(ctx, db, scope, sku, 3, env.session.Customer.ID); err != nil {
				t.Fatal(err)
			}
		}
		turn := func(text string) *events {
			ev := &events{}
			u := env.session.Customer.PlatformUserID
			if err := eng.Handle(ctx, Turn{Channel: env.session.Channel, ChatID: env.session.ChatID, UserID: u, Text: text, DedupKey: text}, ev); err != nil {
				t.Fatal(err)
			}
			return ev
		}
		ev := turn("remove one Auralis")
		carts, repeated := cartsOf(t, ev)
		if len(carts) != 1 || qtyOf(carts[0], "ELE-HPH-001") != 2 || repeated {
			t.Fatalf("remove one: %d carts (%v), buttons repeated %v; want one with 2 × ELE-HPH-001\n%s", len(carts), carts, repeated, ev.done())
		}
		if k := ev.all[0].Kind; k != EventCart {
			t.Errorf("the reply starts with %s, want the cart ahead of its words", k)
		}
		ev = turn("clear the cart")
		if carts, repeated := cartsOf(t, ev); len(carts) != 1 || len(carts[0].Lines) != 0 || repeated {
			t.Errorf("clear the cart: %d carts, buttons repeated %v; want one, empty", len(carts), repeated)
		}
	})
}

// TestOneCartPerReplyModel: the model views the cart in one round and adds
// in the next; the reply shows one cart, the one after the add.
func TestOneCartPerReplyModel(t *testing.T) {
	e := newEngineEnv(t,
		llmtest.CallTools(llmtest.ToolCall{Name: "view_cart", Arguments: `{}`}),
		llmtest.CallTools(llmtest.ToolCall{Name: "add_to_cart", Arguments: `{"sku":"ELE-HPH-007","quantity":2}`}),
		llmtest.Reply("Added two to your cart."),
	)
	ev := e.turn(t, "add two ELE-HPH-007", "u1")
	carts, _ := cartsOf(t, ev)
	if len(carts) != 1 || qtyOf(carts[0], "ELE-HPH-007") != 2 {
		t.Fatalf("%d carts %v; want one with 2 × ELE-HPH-007", len(carts), carts)
	}
	if ev.done() != "Added two to your cart." {
		t.Errorf("done %q", ev.done())
	}
}
