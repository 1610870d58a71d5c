package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/view"
)

// TestCheckoutDeliveryButtons walks a checkout without a model in each
// channel: the delivery methods come as buttons, the shopper presses one
// (its data parsed as each adapter parses a press: Telegram callback data,
// a Slack action value, the web chat's "action", the terminal's /do line),
// confirms, and the order keeps the method and its price in the total.
func TestCheckoutDeliveryButtons(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		newTestEnvOnDemo(t, db)
		if err := demo.WriteDeliveries(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		for _, channel := range []string{"telegram", "slack", "web", "console"} {
			t.Run(channel, func(t *testing.T) { deliveryByButton(t, eng, db, channel) })
		}
	})
}

func deliveryByButton(t *testing.T, eng *Engine, db *bun.DB, channel string) {
	chat := "dlv-" + channel
	n := 0
	turn := func(text string, act *view.Action) *events {
		t.Helper()
		n++
		ev := &events{}
		tr := Turn{Channel: channel, ChatID: chat, UserID: chat, Text: text, Action: act, DedupKey: fmt.Sprint(chat, n)}
		if err := eng.Handle(context.Background(), tr, ev); err != nil {
			t.Fatalf("turn %q: %v", text, err)
		}
		return ev
	}
	turn("", &view.Action{Kind: view.ActAdd, SKU: "APP-TSH-002-NAVY-L", Qty: 1}) // $28.00
	turn("", &view.Action{Kind: view.ActCheckout})
	turn("Ann Tester", nil)
	turn("+1 555 010 2030", nil)
	ev := turn("12 Main Street, Springfield", nil)
	if done := ev.of(EventDone); len(done) != 1 || done[0].Awaiting != AwaitingDelivery {
		t.Fatalf("after the address: %+v", done)
	}
	btns := buttonsOf(ev)
	if len(btns) < 2 || !strings.HasPrefix(btns[1], string(view.ActDelivery)+"|") {
		t.Fatalf("no delivery buttons: %q\n%s", btns, ev.done())
	}
	data := btns[1] // Express courier, the second method offered
	if len(data) > 64 {
		t.Errorf("button data %q exceeds Telegram's 64 bytes", data)
	}
	a, err := view.ParseAction(data)
	if err != nil {
		t.Fatal(err)
	}
	ev = turn("", &a)
	if !strings.Contains(ev.done(), "Express courier — $15.00") || !strings.Contains(ev.done(), "Total: $43.00") {
		t.Fatalf("summary after %q:\n%s", data, ev.done())
	}
	turn("", &view.Action{Kind: view.ActConfirm})
	var o catalog.Order
	if err := db.NewSelect().Model(&o).Where("chat_id = ?", chat).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	if o.DeliveryMethod != "Express courier" || o.DeliveryCents != 1500 || o.Total != 4300 {
		t.Fatalf("order %+v", o)
	}
	v := view.OrderViewOf(&o)
	if v.Delivery != "Express courier" || v.DeliveryText != "$15.00" || v.TotalText != "$43.00" {
		t.Errorf("order view %+v", v)
	}
}
