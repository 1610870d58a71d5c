package telegram

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/uptrace/bun"

	"shopbot/adapters/mcp"
	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
	"shopbot/engine/agentdoor"
	"shopbot/engine/view"
)

// agentRig is the Telegram adapter with payments on, and the MCP door on
// the same engine, whose payment links are the adapter's invoice links
// (as bot/ wires them).
func agentRig(t *testing.T, db *bun.DB) (*rig, *sdk.ClientSession, *engine.Engine) {
	t.Helper()
	seed(t, db)
	if err := demo.WriteDeliveries(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	var adapter atomic.Pointer[Adapter]
	eng, err := engine.New(engine.Config{
		DB: db, Search: searchtest.NewDatabase(db), Logger: logger(t), RateLimit: 10_000,
		PaymentLink: func(ctx context.Context, o *view.OrderView) (string, error) {
			return adapter.Load().InvoiceLink(ctx, o)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, db, func(c *Config) { c.PaymentToken = "tok"; c.Engine, c.Shop = eng, eng })
	adapter.Store(r.a)
	srv := httptest.NewServer(mcp.Handler(eng, mcp.Options{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(srv.Close)
	c := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return r, cs, eng
}

// agentCall runs an MCP tool and returns its JSON text, failing on a tool error.
func agentCall(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	var out map[string]any
	if res.IsError || json.Unmarshal([]byte(text), &out) != nil {
		t.Fatalf("%s: %s", name, text)
	}
	return out
}

// TestAgentOrderPaidByInvoiceLink: an agent checks out through MCP with
// a paid delivery; the reply carries a t.me invoice link for the order's
// lines, delivery and total, one link however often it is asked. The
// buyer pays from their own Telegram chat: a pre-checkout query with the
// link's payload, amount and currency is accepted and the successful
// payment marks the order paid; a tampered payload, another channel's
// order, a wrong amount or currency and a paid order are refused, and
// change nothing.
func TestAgentOrderPaidByInvoiceLink(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		r, cs, _ := agentRig(t, db)
		ctx := context.Background()
		agentCall(t, cs, "add_to_cart", map[string]any{"sku": mugSKU, "quantity": 2, "idempotency_key": "add-1"})
		co := agentCall(t, cs, "create_checkout", map[string]any{
			"name": "Jane Doe", "email": "jane@example.com", "delivery": "Express courier", "idempotency_key": "co-1",
			"address": map[string]any{"line1": "1 Main St", "city": "Springfield", "country": "US"},
		})
		if co["status"] != "confirm" {
			t.Fatalf("create_checkout: %v", co)
		}
		done := map[string]any{"idempotency_key": "done-1"}
		placed := agentCall(t, cs, "complete_checkout", done)
		pay, _ := placed["payment"].(map[string]any)
		url, _ := pay["url"].(string)
		if !strings.HasPrefix(url, "https://t.me/$") {
			t.Fatalf("complete_checkout: payment %v; want a t.me invoice link", pay)
		}
		again := agentCall(t, cs, "complete_checkout", done)
		if again["payment"].(map[string]any)["url"] != url {
			t.Errorf("the same key again: %v; want link %s", again["payment"], url)
		}
		var o catalog.Order
		if err := db.NewSelect().Model(&o).Relation("Items").Where("channel = ?", agentdoor.Channel).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		// Asked again for the order (a retry on another path): the same link.
		if u2, err := r.a.InvoiceLink(ctx, view.OrderViewOf(&o)); err != nil || u2 != url {
			t.Errorf("InvoiceLink again = %q, %v; want %q", u2, err, url)
		}
		links := r.srv.Calls("createInvoiceLink")
		if len(links) != 1 {
			t.Fatalf("%d createInvoiceLink calls; want 1", len(links))
		}
		inv := links[0].Params
		var prices []struct {
			Label  string `json:"label"`
			Amount int64  `json:"amount"`
		}
		if err := json.Unmarshal([]byte(inv["prices"]), &prices); err != nil {
			t.Fatal(err)
		}
		sum := int64(0)
		for _, p := range prices {
			sum += p.Amount
		}
		if inv["payload"] != "order:"+o.Number || inv["currency"] != o.Currency || inv["provider_token"] != "tok" ||
			sum != o.Total || o.DeliveryCents != 1500 || len(prices) != 2 || prices[1].Label != "Express courier" {
			t.Fatalf("invoice %v for order %s total %d (delivery %d)", inv, o.Number, o.Total, o.DeliveryCents)
		}

		web := placeOrder(t, db, "4001", "web-k", 1)
		if _, err := db.NewUpdate().Model((*catalog.Order)(nil)).Set("channel = 'web'").Where("id = ?", web.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		payer := telegramtest.User(5001, "Jane") // not the order's chat: the agent's
		answers := 0
		precheck := func(name, currency string, total int, payload string, ok bool) {
			t.Helper()
			r.srv.Push(telegramtest.PreCheckout(payer, currency, total, payload))
			answers++
			ans := r.srv.WaitCalls(t, "answerPreCheckoutQuery", answers)[answers-1]
			if got := ans.Params["ok"] == "true"; got != ok {
				t.Errorf("%s: pre-checkout answered %v; want ok=%v", name, ans.Params, ok)
			}
		}
		total := int(o.Total)
		precheck("tampered payload", "USD", total, "order:"+o.Number+"x", false)
		precheck("no prefix", "USD", total, o.Number, false)
		precheck("another channel's order", "USD", int(web.Total), "order:"+web.Number, false)
		precheck("wrong amount", "USD", total-1, "order:"+o.Number, false)
		precheck("wrong currency", "EUR", total, "order:"+o.Number, false)
		precheck("the link's invoice", "USD", total, "order:"+o.Number, true)

		r.srv.Push(telegramtest.Paid(payer, "USD", total, "order:"+o.Number, "ch-1"))
		r.waitText("5001", o.Number)
		got, err := catalog.GetOrder(ctx, db, o.Number)
		if err != nil || got.Status != catalog.StatusPaid || got.PaymentChargeID == nil || *got.PaymentChargeID != "ch-1" {
			t.Fatalf("order after payment: %+v, %v", got, err)
		}
		precheck("paid already", "USD", total, "order:"+o.Number, false)
		if w, err := catalog.GetOrder(ctx, db, web.Number); err != nil || w.Status != catalog.StatusNew {
			t.Errorf("the web order changed: %+v, %v", w, err)
		}
	})
}

// TestInvoiceLinkRefusals: no link without a payment token, and none for
// an order whose prices do not add up to its total; nothing is asked of
// Telegram.
func TestInvoiceLinkRefusals(t *testing.T) {
	r := newRig(t, catalogtest.SQLite(t), nil)
	ctx := context.Background()
	ov := &view.OrderView{Number: "SB-1", Currency: "USD", Total: 1250, Lines: []view.OrderLine{{SKU: mugSKU, Title: "Mug", Qty: 1, UnitPrice: 1250}}}
	if _, err := r.a.InvoiceLink(ctx, ov); err == nil {
		t.Error("a link without a payment token")
	}
	r.a.cfg.PaymentToken = "tok"
	ov.Total = 999
	if _, err := r.a.InvoiceLink(ctx, ov); err == nil {
		t.Error("a link for lines that do not add up")
	}
	if n := len(r.srv.Calls("createInvoiceLink")); n != 0 {
		t.Errorf("%d createInvoiceLink calls", n)
	}
}
