package telegram

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
	"github.com/uptrace/bun"

	"shopbot/adapters"
	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/view"
)

// TestShoppingFlow walks a shopper from /start to a paid order whose
// status change reaches the chat, by long polling, on SQLite and Postgres.
func TestShoppingFlow(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		r := newRig(t, db, func(c *Config) { c.PaymentToken = "provider-token" })
		ann := telegramtest.User(501, "Ann")
		chat := "501"
		private := models.Chat{ID: 501, Type: models.ChatTypePrivate}

		// Commands are registered at startup.
		cmds := r.srv.WaitCalls(t, "setMyCommands", 1)
		if !strings.Contains(cmds[0].Params["commands"], `"cart"`) {
			t.Errorf("setMyCommands = %v", cmds[0].Params)
		}

		// /start: welcome with the shop name escaped, then categories as buttons.
		r.srv.Push(telegramtest.Text(ann, "/start"))
		welcome := r.waitText(chat, "Welcome")
		if !strings.Contains(welcome.Text(), "Test &lt;Shop&gt; &amp; Co") || welcome.Params["parse_mode"] != "HTML" {
			t.Errorf("welcome = %q", welcome.Text())
		}
		menu := r.waitSent(chat, "categories as buttons", func(c telegramtest.Call) bool {
			return strings.HasPrefix(anyValue(c.Buttons()), "cat")
		})
		_ = menu

		// Search: the card is a photo with an escaped caption and buttons.
		r.srv.Push(telegramtest.Text(ann, "zanzibar mug"))
		card := r.waitSent(chat, "the mug's photo card", func(c telegramtest.Call) bool { return c.Method == "sendPhoto" })
		if card.Params["photo"] != "https://img.example.com/mug.jpg" {
			t.Errorf("photo = %q", card.Params["photo"])
		}
		if !strings.Contains(card.Text(), "&lt;b&gt;&amp;Co&lt;/b&gt;") || strings.Contains(card.Text(), "<script>") {
			t.Errorf("caption not escaped: %q", card.Text())
		}
		btns := card.Buttons()
		if btns["🛒 Add to cart"] != "add|"+mugSKU+"|1" || btns["Details"] != "det|"+mugSKU || btns["More like this"] != "sim|"+mugSKU {
			t.Fatalf("card buttons = %v", btns)
		}

		// Add to cart: a toast, and the cart appears as a new message.
		r.srv.Push(telegramtest.Callback(private, ann, card.MessageID, btns["🛒 Add to cart"]))
		toast := r.srv.WaitCalls(t, "answerCallbackQuery", 1)[0]
		if toast.Params["text"] != "Added ✓" {
			t.Errorf("toast = %q", toast.Params["text"])
		}
		cartMsg := r.waitSent(chat, "the cart", func(c telegramtest.Call) bool {
			return c.Method == "sendMessage" && strings.Contains(c.Text(), "Your cart")
		})
		if !strings.Contains(cartMsg.Text(), "× 1") {
			t.Errorf("cart = %q", cartMsg.Text())
		}

		// + on the cart edits that same message.
		plus := cartMsg.Buttons()["+"]
		if plus != "set|"+mugSKU+"|2" {
			t.Fatalf("cart buttons = %v", cartMsg.Buttons())
		}
		r.srv.Push(telegramtest.Callback(private, ann, cartMsg.MessageID, plus))
		edited := r.waitSent(chat, "the cart edited in place", func(c telegramtest.Call) bool {
			return c.Method == "editMessageText" && strings.Contains(c.Text(), "× 2")
		})
		if edited.Int("message_id") != int64(cartMsg.MessageID) {
			t.Errorf("edited message %d, cart is %d", edited.Int("message_id"), cartMsg.MessageID)
		}
		// Adding again from the card edits the cart message too.
		r.srv.Push(telegramtest.Callback(private, ann, card.MessageID, btns["🛒 Add to cart"]))
		r.waitSent(chat, "the cart edited after another add", func(c telegramtest.Call) bool {
			return c.Method == "editMessageText" && c.Int("message_id") == int64(cartMsg.MessageID) && strings.Contains(c.Text(), "× 3")
		})
		if n := len(callsWith(r.sent(chat), "Your cart")); n != 3 {
			t.Errorf("cart messages and edits = %d, want 1 message and 2 edits", n)
		}

		// Checkout: name, then a contact keyboard for the phone, then the address.
		r.srv.Push(telegramtest.Callback(private, ann, cartMsg.MessageID, cartMsg.Buttons()["✅ Checkout"]))
		r.waitText(chat, "name")
		r.srv.Push(telegramtest.Text(ann, "Ann Tester"))
		share := r.waitSent(chat, "the request_contact keyboard", func(c telegramtest.Call) bool {
			return strings.Contains(c.Params["reply_markup"], `"request_contact":true`)
		})
		_ = share
		r.srv.Push(telegramtest.Contact(ann, "+1 555 010 2030"))
		r.waitText(chat, "address")
		r.srv.Push(telegramtest.Text(ann, "12 Main Street, Springfield"))
		summary := r.waitSent(chat, "the summary with a confirm button", func(c telegramtest.Call) bool {
			return strings.Contains(c.Params["reply_markup"], `"confirm"`)
		})
		if !strings.Contains(summary.Text(), "+1 555 010 2030") {
			t.Errorf("summary lacks the shared phone: %q", summary.Text())
		}
		var confirm string
		for _, d := range summary.Buttons() {
			if d == "confirm" {
				confirm = d
			}
		}
		r.srv.Push(telegramtest.Callback(private, ann, summary.MessageID, confirm))

		// The order is placed and an invoice follows, in minor units.
		inv := r.waitSent(chat, "the invoice", func(c telegramtest.Call) bool { return c.Method == "sendInvoice" })
		number := strings.TrimPrefix(inv.Params["payload"], "order:")
		o, err := catalog.GetOrder(context.Background(), db, number)
		if err != nil {
			t.Fatalf("invoice payload %q: %v", inv.Params["payload"], err)
		}
		var prices []models.LabeledPrice
		if err := json.Unmarshal([]byte(inv.Params["prices"]), &prices); err != nil || len(prices) != 1 || prices[0].Amount != 3750 || o.Total != 3750 {
			t.Errorf("prices = %s, order total %d", inv.Params["prices"], o.Total)
		}
		if inv.Params["provider_token"] != "provider-token" || inv.Params["currency"] != "USD" {
			t.Errorf("invoice = %v", inv.Params)
		}

		// pre_checkout_query: accepted while nothing changed.
		r.srv.Push(telegramtest.PreCheckout(ann, "USD", 3750, inv.Params["payload"]))
		pcq := r.srv.WaitCalls(t, "answerPreCheckoutQuery", 1)[0]
		if pcq.Params["ok"] != "true" {
			t.Fatalf("pre-checkout refused: %v", pcq.Params)
		}

		// successful_payment, delivered twice: paid once, thanked once.
		paid := telegramtest.Paid(ann, "USD", 3750, inv.Params["payload"], "charge-1")
		paid.ID = r.srv.NextID()
		r.srv.Push(paid)
		again := paid
		again.ID = r.srv.NextID()
		r.srv.Push(again)
		r.waitText(chat, "Payment received")
		r.waitHandled(again.ID)
		if o, _ := catalog.GetOrder(context.Background(), db, number); o.Status != catalog.StatusPaid || *o.PaymentChargeID != "charge-1" {
			t.Errorf("order after payment = %s %v", o.Status, o.PaymentChargeID)
		}
		if n := len(callsWith(r.sent(chat), "Payment received")); n != 1 {
			t.Errorf("payment thanks sent %d times", n)
		}

		// The merchant ships it: the hub routes the notice to the chat.
		hub := adapters.NewHub()
		hub.Shoppers("telegram", r.a)
		shipped, err := catalog.SetOrderStatus(context.Background(), db, number, catalog.StatusShipped, "UPS 1Z<999>")
		if err != nil {
			t.Fatal(err)
		}
		err = hub.Notify(context.Background(), view.Notice{
			Kind:  view.NoticeOrderStatus,
			Where: catalog.ConversationKey{Channel: shipped.Channel, ChatID: shipped.ChatID},
			Order: &view.OrderView{Number: shipped.Number, Status: string(shipped.Status), Tracking: shipped.TrackingNote},
		})
		if err != nil {
			t.Fatal(err)
		}
		note := r.waitText(chat, "shipped")
		if !strings.Contains(note.Text(), "UPS 1Z&lt;999&gt;") || !strings.Contains(note.Text(), number) {
			t.Errorf("status notice = %q", note.Text())
		}
		if got := shipped.ChatID; got != strconv.FormatInt(ann.ID, 10) {
			t.Errorf("order chat = %s", got)
		}
		t.Logf("calls:\n%s", telegramtest.Dump(r.srv.Calls()))
	})
}

func anyValue(m map[string]string) string {
	for _, v := range m {
		return v
	}
	return ""
}

func callsWith(calls []telegramtest.Call, s string) []telegramtest.Call {
	var out []telegramtest.Call
	for _, c := range calls {
		if strings.Contains(c.Text(), s) {
			out = append(out, c)
		}
	}
	return out
}
