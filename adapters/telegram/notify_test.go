package telegram

import (
	"context"
	"errors"
	"strings"
	"testing"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/view"
)

// A back-in-stock notice is one message with an Add to cart button; a
// chat that blocked the bot answers 403, which Notify reports as
// view.ErrUnreachable so the alert is marked and not retried.
func TestNotifyBackInStock(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	r.srv.Fail("*", "903", telegramtest.Blocked, -1)
	card := &view.Card{SKU: "LAMP-1", Title: "Desk <Lamp>", PriceText: "$19.99", InStock: true}
	n := view.Notice{Kind: view.NoticeBackInStock, Where: catalog.ConversationKey{Channel: "telegram", ChatID: "901"}, Product: card, Locale: "ru"}
	if err := r.a.Notify(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	msg := r.waitText("901", "Lamp")
	if !strings.Contains(msg.Text(), "Desk &lt;Lamp&gt;") || !strings.Contains(msg.Text(), "снова в наличии") {
		t.Errorf("text = %q", msg.Text())
	}
	var add string
	for label, data := range msg.Buttons() {
		if data == "add|LAMP-1|1" {
			add = label
		}
	}
	if add == "" {
		t.Errorf("no add button: %v", msg.Buttons())
	}
	n.Where.ChatID = "903"
	if err := r.a.Notify(context.Background(), n); !errors.Is(err, view.ErrUnreachable) {
		t.Errorf("blocked chat: %v", err)
	}
	n.Product = nil
	if err := r.a.Notify(context.Background(), n); err == nil || errors.Is(err, view.ErrUnreachable) {
		t.Errorf("notice without a product: %v", err)
	}
}
