package telegram

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/view"
)

// TestDeepLink: /start SKU opens that product; a bad payload shows the menu.
func TestDeepLink(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	u := telegramtest.User(3001, "Pia")
	r.srv.Push(telegramtest.Text(u, "/start "+mugSKU))
	r.waitSent("3001", "the product card", func(c telegramtest.Call) bool {
		return c.Method == "sendPhoto" && strings.Contains(c.Text(), "Zanzibar")
	})
	r.srv.Push(telegramtest.Text(u, "/start <script>"))
	r.waitSent("3001", "the menu", func(c telegramtest.Call) bool { return strings.HasPrefix(anyValue(c.Buttons()), "cat") })
	r.srv.Push(telegramtest.Text(u, "/orders"))
	r.srv.Push(telegramtest.Text(u, "/menu"))
	r.waitHandled(r.srv.Push(telegramtest.Text(u, "/nonsense")))
	if len(callsWith(r.sent("3001"), "What I can do")) != 1 {
		t.Errorf("an unknown command does not show the help")
	}
	if n := testutil.ToFloat64(r.a.metrics.updates.WithLabelValues("command")); n != 5 {
		t.Errorf("commands counted = %v", n)
	}
}

// TestCallbackDataLimit: a SKU too long for 64-byte callback data leaves
// its buttons out instead of failing the card; bad callback data gets a
// toast.
func TestCallbackDataLimit(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	seed(t, db)
	long := "LONG-" + strings.Repeat("X", 59) // 64 characters, the longest SKU
	_, err := catalog.UpsertProducts(context.Background(), db, []catalog.ProductInput{{
		SKU: long, Title: "Quokka lamp", CategoryPath: []string{"Home"}, Price: 100, Currency: "USD", Stock: 3,
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, db, nil)
	u := telegramtest.User(3002, "Quin")
	r.srv.Push(telegramtest.Text(u, "quokka lamp"))
	card := r.waitSent("3002", "the card", func(c telegramtest.Call) bool { return strings.Contains(c.Text(), "Quokka lamp") })
	for label, data := range card.Buttons() {
		if len(data) > 64 {
			t.Errorf("%s: %d bytes", label, len(data))
		}
	}
	for _, c := range r.srv.Calls() {
		if c.Status != 200 {
			t.Errorf("refused: %s", telegramtest.Dump([]telegramtest.Call{c}))
		}
	}
	chat := telegramtest.Text(u, "").Message.Chat
	r.srv.Push(telegramtest.Callback(chat, u, card.MessageID, "drop|table"))
	ans := r.srv.WaitCalls(t, "answerCallbackQuery", 1)[0]
	if ans.Params["text"] != "This button no longer works." {
		t.Errorf("toast = %q", ans.Params["text"])
	}
	if len(view.Action{Kind: view.ActAdd, SKU: long, Qty: 1}.Encode()) <= 64 {
		t.Fatal("the test SKU should overflow callback data")
	}
}
