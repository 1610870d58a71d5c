package slack_test

import (
	"context"
	"strings"
	"testing"

	"shopbot/adapters/slack/slackfake"
	"shopbot/catalog"
	"shopbot/engine/view"
)

// addButton returns the value of the first Add to cart button in m.
func addButton(m slackfake.Message, skip string) string {
	for _, b := range m.Blocks {
		els, _ := b["elements"].([]any)
		for _, el := range els {
			v, _ := el.(map[string]any)["value"].(string)
			if strings.HasPrefix(v, "add|") && v != skip {
				return v
			}
		}
	}
	return ""
}

// TestChannelFlow walks a team through a channel order: a mention gets a
// threaded answer with product cards, two members add to the channel cart
// (which shows who added what), one checks out with confirmation, the
// order lands in the thread, and a later status change follows it there.
func TestChannelFlow(t *testing.T) {
	e := newEnv(t, nil)
	root := e.nextTS()
	e.postEvent(mention("UANN", "C1", root, "", "headphones")) // no variants: one press adds

	cards := e.waitFor("C1", root, "product cards", func(m slackfake.Message) bool { return addButton(m, "") != "" })
	if cards.ThreadTS != root {
		t.Fatalf("cards not in the mention's thread: %+v", cards)
	}
	if !strings.Contains(text(cards), "More like this") || !strings.Contains(text(cards), `"value":"det|`) {
		t.Errorf("card lacks buttons: %s", text(cards))
	}
	e.waitFor("C1", root, "the streamed answer", func(m slackfake.Message) bool { return m.Streamed && m.Stopped })

	first := addButton(cards, "")
	e.press("UANN", cards, first)
	cart := e.waitFor("C1", root, "channel cart", hasText("added by Ann"))
	if !strings.Contains(text(cart), "Channel cart") {
		t.Fatalf("cart message: %s", text(cart))
	}

	second := addButton(cards, first)
	e.press("UBOB", cards, second)
	cart = e.waitFor("C1", root, "cart with Bob", hasText("added by Bob"))
	if cart.Updates == 0 || !strings.Contains(text(cart), "added by Ann") {
		t.Fatalf("cart not updated in place with both members: updates %d, %s", cart.Updates, text(cart))
	}
	if n := len(e.fake.Messages("C1", root)); n > 12 {
		t.Errorf("%d messages in the thread", n)
	}

	// Ann checks out from the cart message, answering the questions in
	// the thread without mentioning the bot.
	e.press("UANN", cart, "co")
	for _, answer := range []string{"Ann Lee", "+1 555 010 0100", "1 Main St, Springfield"} {
		e.waitFor("C1", root, "a checkout question", hasText("?"))
		before := len(e.fake.Messages("C1", root))
		ts := e.nextTS() // a plain reply in the thread: no mention needed
		e.postEvent(map[string]any{"type": "message", "channel_type": "channel", "user": "UANN", "text": answer,
			"ts": ts, "thread_ts": root, "channel": "C1", "event_ts": ts})
		if !e.fake.Wait(patience, func() bool { return len(e.fake.Messages("C1", root)) > before }) {
			t.Fatalf("no answer to %q", answer)
		}
	}
	summary := e.waitFor("C1", root, "the confirmation", hasText(`"value":"confirm"`))
	if orders := e.count("orders"); orders != 0 {
		t.Fatalf("%d orders before confirmation", orders)
	}
	e.press("UANN", summary, "confirm")
	placed := e.waitFor("C1", root, "the order", hasText("Order placed"))

	var o catalog.Order
	if err := e.db.NewSelect().Model(&o).Relation("Items").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	if o.Channel != "slack" || o.ChatID != "C1" || o.ThreadID != root || len(o.Items) != 2 || !strings.Contains(text(placed), o.Number) {
		t.Fatalf("order %+v, message %s", o, text(placed))
	}

	// The merchant hears of it in the orders channel, with a transcript link.
	e.waitFor("CORDERS", "", "merchant notice", hasText("New order #"+o.Number))
	e.waitFor("CORDERS", "", "transcript link", hasText("https://shop.example.com/admin/conversations/"))

	// A status change set by the merchant is posted in the thread.
	if _, err := catalog.SetOrderStatus(context.Background(), e.db, o.Number, catalog.StatusShipped, "UPS 1Z999"); err != nil {
		t.Fatal(err)
	}
	err := e.hub.Notify(context.Background(), view.Notice{
		Kind: view.NoticeOrderStatus, Where: catalog.ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: root},
		Order: &view.OrderView{Number: o.Number, Status: "shipped", TotalText: "$1.00", Tracking: "UPS 1Z999"},
	})
	if err != nil {
		t.Fatal(err)
	}
	e.waitFor("C1", root, "status update", hasText("shipped"))
}
