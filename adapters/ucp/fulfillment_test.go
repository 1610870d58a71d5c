package ucp_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/adapters/ucp"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
	"shopbot/engine/agentdoor"
	"shopbot/engine/view"
)

// amountOf is the amount of the total of kind in a response's totals.
func amountOf(co map[string]any, kind string) (float64, bool) {
	ts, _ := co["totals"].([]any)
	for _, t := range ts {
		if m := t.(map[string]any); m["type"] == kind {
			return m["amount"].(float64), true
		}
	}
	return 0, false
}

// group is the first fulfillment group of a response.
func group(t *testing.T, co map[string]any, raw []byte) map[string]any {
	t.Helper()
	f, _ := co["fulfillment"].(map[string]any)
	ms, _ := f["methods"].([]any)
	if len(ms) != 1 {
		t.Fatalf("fulfillment methods: %s", raw)
	}
	gs, _ := ms[0].(map[string]any)["groups"].([]any)
	if len(gs) != 1 {
		t.Fatalf("fulfillment groups: %s", raw)
	}
	return gs[0].(map[string]any)
}

// TestFulfillmentChoice: the session lists the shop's delivery methods
// for the address as options with their prices, takes the first by
// default, lets the buyer select another by id, and counts the chosen
// one in its totals before complete; an unknown id is refused with a
// message at its path and changes nothing; the order keeps the choice,
// and the completed session hands the buyer the payment link as
// continue_url, the same on a replay and a get (one link asked for).
func TestFulfillmentChoice(t *testing.T) {
	s := loadSchemas(t)
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if err := demo.WriteDeliveries(ctx, db); err != nil {
			t.Fatal(err)
		}
		var links atomic.Int32
		eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30,
			PaymentLink: func(_ context.Context, o *view.OrderView) (string, error) {
				links.Add(1)
				return "https://t.me/$pay" + o.Number, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		ucp.Routes(mux, eng, ucp.Options{Logger: slog.New(slog.DiscardHandler), Store: &catalog.UCPRecords{DB: db}})
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		rep, err := eng.CallTool(ctx, engine.Turn{Channel: agentdoor.Channel, ChatID: "f", UserID: "f"}, "search_products", `{"query":"mug"}`)
		if err != nil || rep.IsError {
			t.Fatal(err, rep.Content)
		}
		_, after, ok := strings.Cut(rep.Content, `"sku":"`)
		if !ok {
			t.Fatalf("no product found: %s", rep.Content)
		}
		mug, _, _ := strings.Cut(after, `"`)
		base := srv.URL + "/ucp/v1/checkout-sessions"
		lines := []any{map[string]any{"item": map[string]any{"id": mug}, "quantity": 1}}
		body := map[string]any{"line_items": lines, "buyer": map[string]any{"first_name": "Jane", "last_name": "Doe", "email": "jane@example.com"}, "fulfillment": address}
		code, co, raw := do(t, "POST", base, "", body)
		valid(t, s.checkout, "create", raw)
		if code != http.StatusCreated || co["status"] != "ready_for_complete" {
			t.Fatalf("create: %d %s", code, raw)
		}
		id := co["id"].(string)
		g := group(t, co, raw)
		opts, _ := g["options"].([]any)
		if len(opts) != 3 || g["selected_option_id"] != "dm_standard" {
			t.Fatalf("options for a US address, the first chosen: %s", raw)
		}
		prices := map[string]float64{}
		for _, o := range opts {
			o := o.(map[string]any)
			tt := o["totals"].([]any)[0].(map[string]any)
			prices[o["id"].(string)] = tt["amount"].(float64)
		}
		sub, _ := amountOf(co, "subtotal")
		if f, ok := amountOf(co, "fulfillment"); !ok || f != prices["dm_standard"] {
			t.Errorf("fulfillment total %v; want the standard option's %v: %s", f, prices["dm_standard"], raw)
		}

		pick := func(optionID string) map[string]any {
			b := map[string]any{"line_items": lines, "fulfillment": map[string]any{"methods": []any{map[string]any{
				"id": "fm_1", "type": "shipping", "line_item_ids": []any{"li_" + mug},
				"destinations": address["methods"].([]any)[0].(map[string]any)["destinations"],
				"groups":       []any{map[string]any{"id": "fg_1", "selected_option_id": optionID}},
			}}}}
			return b
		}
		code, co, raw = do(t, "PUT", base+"/"+id, "", pick("dm_express_courier"))
		valid(t, s.checkout, "update", raw)
		if code != http.StatusOK || co["status"] != "ready_for_complete" || group(t, co, raw)["selected_option_id"] != "dm_express_courier" {
			t.Fatalf("select express: %d %s", code, raw)
		}
		want := sub + prices["dm_express_courier"]
		if f, _ := amountOf(co, "fulfillment"); f != 1500 {
			t.Errorf("fulfillment total %v; want 1500", f)
		}
		if tot, _ := amountOf(co, "total"); tot != want {
			t.Errorf("total %v; want %v", tot, want)
		}

		for _, bad := range []string{"dm_nope", strings.Repeat("x", 200), "' OR 1=1"} {
			code, co, raw = do(t, "PUT", base+"/"+id, "", pick(bad))
			valid(t, s.checkout, "unknown option", raw)
			if code != http.StatusOK || co["status"] != "incomplete" || !strings.Contains(string(raw), "selected_option_id") || !strings.Contains(string(raw), `"code":"invalid"`) {
				t.Errorf("unknown option %q: %d %s", bad[:min(len(bad), 10)], code, raw)
			}
			code, _, raw = do(t, "POST", base+"/"+id+"/complete", "", map[string]any{})
			if n, _ := db.NewSelect().Model((*catalog.Order)(nil)).Count(ctx); n != 0 || !strings.Contains(string(raw), "not_ready") {
				t.Fatalf("complete after an unknown option: %d orders, %d %s", n, code, raw)
			}
		}
		if code, co, raw = do(t, "PUT", base+"/"+id, "", pick("dm_express_courier")); co["status"] != "ready_for_complete" {
			t.Fatalf("select express again: %d %s", code, raw)
		}
		code, co, raw = do(t, "POST", base+"/"+id+"/complete", "done-1", map[string]any{})
		valid(t, s.checkout, "complete", raw)
		if code != http.StatusOK || co["status"] != "completed" {
			t.Fatalf("complete: %d %s", code, raw)
		}
		number := co["order"].(map[string]any)["id"].(string)
		if co["continue_url"] != "https://t.me/$pay"+number {
			t.Errorf("continue_url %v: %s", co["continue_url"], raw)
		}
		if tot, _ := amountOf(co, "total"); tot != want {
			t.Errorf("completed total %v; want %v as shown before", tot, want)
		}
		o, err := catalog.GetOrder(ctx, db, number)
		if err != nil || o.DeliveryMethod != "Express courier" || o.DeliveryCents != 1500 || float64(o.Total) != want {
			t.Fatalf("order %+v, %v", o, err)
		}
		_, _, again := do(t, "POST", base+"/"+id+"/complete", "done-1", map[string]any{})
		_, got, graw := do(t, "GET", base+"/"+id, "", nil)
		valid(t, s.checkout, "get", graw)
		if string(again) != string(raw) || got["continue_url"] != co["continue_url"] || links.Load() != 1 {
			t.Errorf("replay %s, get %s, %d links asked; want the same link once", again, graw, links.Load())
		}
	})
}
