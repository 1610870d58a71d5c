package telegram

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/uptrace/bun"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/view"
)

// placeOrder puts an order for the mug in a Telegram chat directly.
func placeOrder(t *testing.T, db *bun.DB, userID, key string, qty int) *catalog.Order {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: userID, DisplayName: "Rae"})
	if err != nil {
		t.Fatal(err)
	}
	scope := catalog.PersonalCart(c.ID)
	if _, err := catalog.AddToCart(ctx, db, scope, mugSKU, qty, c.ID); err != nil {
		t.Fatal(err)
	}
	o, err := catalog.PlaceOrder(ctx, db, catalog.OrderRequest{
		IdempotencyKey: key, Scope: scope, CustomerID: c.ID, Channel: "telegram", ChatID: userID,
		Contact: catalog.Contact{Name: "Rae", Phone: "+15550100", Address: "1 Road"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestPreCheckoutRefusals: the payment is refused with a reason when the
// order is unknown or no longer payable, the total differs, or a price
// changed since the order.
func TestPreCheckoutRefusals(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		r := newRig(t, db, func(c *Config) { c.PaymentToken = "tok" })
		ctx := context.Background()
		rae := telegramtest.User(4001, "Rae")
		ok := placeOrder(t, db, "4001", "k1", 1)
		cancelled := placeOrder(t, db, "4001", "k2", 1)
		if _, err := catalog.SetOrderStatus(ctx, db, cancelled.Number, catalog.StatusCancelled, ""); err != nil {
			t.Fatal(err)
		}
		for i, tc := range []struct {
			name, payload string
			total         int
			want          string
		}{
			{"valid", "order:" + ok.Number, int(ok.Total), ""},
			{"unknown order", "order:SB-NOPE", 100, "no longer awaiting payment"},
			{"foreign payload", "x", 100, "no longer awaiting payment"},
			{"cancelled", "order:" + cancelled.Number, int(cancelled.Total), "no longer awaiting payment"},
			{"total differs", "order:" + ok.Number, int(ok.Total) - 1, "total has changed"},
		} {
			pushed := time.Now()
			r.srv.Push(telegramtest.PreCheckout(rae, "USD", tc.total, tc.payload))
			ans := r.srv.WaitCalls(t, "answerPreCheckoutQuery", i+1)[i]
			// Telegram drops a pre-checkout query not answered within
			// 10 s; the answer must come well inside that.
			if took := ans.Time.Sub(pushed); took > 10*time.Second {
				t.Errorf("%s: answered after %s", tc.name, took)
			}
			if tc.want == "" && ans.Params["ok"] != "true" || tc.want != "" && (ans.Params["ok"] == "true" || !strings.Contains(ans.Params["error_message"], tc.want)) {
				t.Errorf("%s: answer %v", tc.name, ans.Params)
			}
		}
		// The price changes after the order: refused, naming the product.
		_, err := db.NewUpdate().Model((*catalog.Product)(nil)).Set("price = price + 1").Where("sku = ?", mugSKU).Exec(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r.srv.Push(telegramtest.PreCheckout(rae, "USD", int(ok.Total), "order:"+ok.Number))
		ans := r.srv.WaitCalls(t, "answerPreCheckoutQuery", 6)[5]
		if ans.Params["ok"] == "true" || !strings.Contains(ans.Params["error_message"], "price of") {
			t.Errorf("price change: %v", ans.Params)
		}
	})
}

// TestMerchantReply: a merchant's reply during a takeover reaches the chat
// escaped; notices for other channels or kinds are refused.
func TestMerchantReply(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	ctx := context.Background()
	where := catalog.ConversationKey{Channel: "telegram", ChatID: "4002"}
	if err := r.a.Notify(ctx, view.Notice{Kind: view.NoticeMerchantReply, Where: where, Text: "Hi <there> & welcome"}); err != nil {
		t.Fatal(err)
	}
	msg := r.waitText("4002", "Hi &lt;there&gt; &amp; welcome")
	if !strings.Contains(msg.Text(), "Test &lt;Shop&gt;") {
		t.Errorf("reply = %q", msg.Text())
	}
	for _, n := range []view.Notice{
		{Kind: view.NoticeMerchantReply, Where: catalog.ConversationKey{Channel: "slack", ChatID: "C1"}, Text: "x"},
		{Kind: view.NoticeOrderPlaced, Where: where},
		{Kind: view.NoticeMerchantReply, Where: catalog.ConversationKey{Channel: "telegram", ChatID: "abc"}, Text: "x"},
		{Kind: view.NoticeOrderStatus, Where: where},
	} {
		if err := r.a.Notify(ctx, n); err == nil {
			t.Errorf("notice %+v accepted", n)
		}
	}
	if n := testutil.ToFloat64(r.a.metrics.sends.WithLabelValues("sendMessage", "ok")); n != 1 {
		t.Errorf("sends counted = %v", n)
	}
}
