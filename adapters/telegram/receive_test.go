package telegram

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/uptrace/bun"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

func TestWebhookSecret(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), webhookMode)
	hook := r.srv.WaitCalls(t, "setWebhook", 1)[0]
	if hook.Params["url"] != "https://shop.example.com/telegram/webhook" || hook.Params["secret_token"] != secret {
		t.Errorf("setWebhook = %v", hook.Params)
	}
	body := telegramtest.JSON(models.Update{ID: 77, Message: telegramtest.Text(telegramtest.User(9, "Eve"), "/cart").Message})
	for _, tc := range []struct{ name, header string }{
		{"missing", ""}, {"wrong", "guess"}, {"prefix", secret[:5]}, {"longer", secret + "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code := r.post(body, tc.header); code != http.StatusUnauthorized {
				t.Errorf("status %d, want 401", code)
			}
		})
	}
	if n := r.inboxCount(); n != 0 {
		t.Errorf("%d updates recorded from unauthenticated requests", n)
	}
	for _, bad := range []string{`not json`, `{"message":{}}`, `{"update_id":0}`} {
		if code := r.post([]byte(bad), secret); code != http.StatusBadRequest {
			t.Errorf("body %q: status %d, want 400", bad, code)
		}
	}
	if n := r.inboxCount(); n != 0 {
		t.Errorf("%d updates recorded from bad bodies", n)
	}
	if calls := r.srv.Calls("sendMessage"); len(calls) != 0 {
		t.Errorf("bot answered unauthenticated requests: %s", telegramtest.Dump(calls))
	}
	// The right secret is accepted.
	if code := r.post(body, secret); code != http.StatusOK {
		t.Fatalf("status %d with the right secret", code)
	}
	r.waitHandled(77)
}

// TestRedelivery: the same update three times (webhook and polling) makes
// one reply and one cart change.
func TestRedelivery(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		r := newRig(t, db, webhookMode)
		bob := telegramtest.User(601, "Bob")
		chat := models.Chat{ID: 601, Type: models.ChatTypePrivate}
		press := telegramtest.Callback(chat, bob, 1, "add|"+mugSKU+"|1")
		press.ID = r.srv.NextID()
		var wg sync.WaitGroup
		for range 3 {
			wg.Add(1)
			go func() { defer wg.Done(); r.deliver(press) }()
		}
		wg.Wait()
		r.waitHandled(press.ID)
		// A later update in the same chat, so everything before it is done.
		r.waitHandled(r.deliver(telegramtest.Text(bob, "/help")))

		cust, err := catalog.ResolveCustomer(context.Background(), db, catalog.Identity{Channel: "telegram", PlatformUserID: "601"})
		if err != nil {
			t.Fatal(err)
		}
		cart, err := catalog.GetCart(context.Background(), db, catalog.PersonalCart(cust.ID))
		if err != nil {
			t.Fatal(err)
		}
		if len(cart.Items) != 1 || cart.Items[0].Quantity != 1 {
			t.Errorf("cart after 3 deliveries = %+v", cart.Items)
		}
		// The press is answered beside its turn (answerAtOnce), so the
		// answer may come after the update is marked handled: wait for it.
		if n := len(r.srv.WaitCalls(t, "answerCallbackQuery", 1)); n != 1 {
			t.Errorf("callback answered %d times", n)
		}
		if n := len(callsWith(r.sent("601"), "Your cart")); n != 1 {
			t.Errorf("cart shown %d times", n)
		}
	})
}

func TestPollingRedeliveryAndAck(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	cy := telegramtest.User(602, "Cy")
	u := telegramtest.Text(cy, "/help")
	u.ID = r.srv.NextID()
	for range 3 {
		r.srv.Push(u)
	}
	r.srv.Wait(t, 10*time.Second, "the offset past the update", func([]telegramtest.Call) bool { return r.srv.Confirmed(u.ID) })
	// Acknowledged only after it was recorded.
	if n := r.inboxCount(); n != 1 {
		t.Fatalf("inbox holds %d updates when Telegram saw the ack", n)
	}
	r.waitHandled(u.ID)
	r.waitHandled(r.srv.Push(telegramtest.Text(cy, "/help")))
	if n := len(callsWith(r.sent("602"), "What I can do")); n != 2 {
		t.Errorf("help sent %d times for 1 update delivered 3 times and 1 other", n)
	}
}

// TestResume: an update recorded before a crash but not handled is
// handled at the next start.
func TestResume(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	seed(t, db)
	u := telegramtest.Text(telegramtest.User(603, "Dee"), "/help")
	u.ID = 5555
	record(t, db, u)
	r := newRig(t, db, nil)
	r.waitText("603", "What I can do")
	r.waitHandled(u.ID)
}

// slowEngine delays chosen turns, to show ordering.
type slowEngine struct {
	inner Handler
	delay func(t engine.Turn) time.Duration
}

func (s slowEngine) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	if d := s.delay(t); d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return s.inner.Handle(ctx, t, sink)
}

// TestChatOrder: two messages of one chat 10 ms apart are answered in
// order even when the first takes longer; another chat is not held up.
func TestChatOrder(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	r := newRig(t, db, func(c *Config) {
		webhookMode(c)
		c.Engine = slowEngine{inner: c.Engine, delay: func(t engine.Turn) time.Duration {
			if t.Text == "zanzibar mug" {
				return 300 * time.Millisecond
			}
			return 0
		}}
	})
	eve, fay := telegramtest.User(701, "Eve"), telegramtest.User(702, "Fay")
	r.deliver(telegramtest.Text(eve, "zanzibar mug"))
	time.Sleep(10 * time.Millisecond) // the second message arrives 10 ms later
	second := r.deliver(telegramtest.Text(eve, "/cart"))
	other := r.deliver(telegramtest.Text(fay, "/cart"))
	r.waitHandled(second)
	r.waitHandled(other)
	var order []string
	for _, c := range r.srv.Calls("sendMessage", "sendPhoto") {
		switch {
		case c.Params["chat_id"] == "701" && c.Method == "sendPhoto":
			order = append(order, "eve:search")
		case c.Params["chat_id"] == "701" && strings.Contains(c.Text(), "cart"):
			order = append(order, "eve:cart")
		case c.Params["chat_id"] == "702" && strings.Contains(c.Text(), "cart"):
			order = append(order, "fay:cart")
		}
	}
	want := []string{"fay:cart", "eve:search", "eve:cart"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("order = %v, want %v", order, want)
	}
}

// TestPrune: handled updates older than a week are forgotten at start;
// recent ones stay, and so does an unhandled one, which is resumed.
func TestPrune(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	seed(t, db)
	ctx := context.Background()
	old := time.Now().Add(-8 * 24 * time.Hour).UTC()
	handled := time.Now().UTC()
	for _, r := range []struct {
		key      string
		received time.Time
	}{{"1", old}, {"2", time.Now().UTC()}} {
		if _, err := db.NewRaw("INSERT INTO inbox (source, key, chat, kind, payload, received_at, handled_at) VALUES ('telegram', ?, '604', 'update', '{}', ?, ?)",
			r.key, r.received, handled).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	u := telegramtest.Text(telegramtest.User(604, "Old"), "/help")
	u.ID = 3
	record(t, db, u)
	r := newRig(t, db, nil)
	r.waitHandled(3) // the unhandled one was resumed
	var keys []string
	if err := db.NewRaw("SELECT key FROM inbox WHERE source = 'telegram' ORDER BY key").Scan(ctx, &keys); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "2,3" {
		t.Errorf("inbox after pruning = %v, want [2 3]", keys)
	}
}
