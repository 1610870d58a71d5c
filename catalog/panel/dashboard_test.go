package panel_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
)

// TestDashboardSalesFigures: conversations and orders per day, revenue in
// the shop's currency without cancelled orders, conversion, handoffs.
func TestDashboardSalesFigures(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		since := time.Now().UTC().Add(-time.Hour)
		today := time.Now().UTC().Format(time.DateOnly)
		catalogtest.Seed(t, db, catalogtest.Product("A-1", 100, 10))
		ann, bob := catalogtest.Customer(t, db, "telegram", "ann"), catalogtest.Customer(t, db, "telegram", "bob")
		catalogtest.OpenConversation(t, db, ann)
		bobs := catalogtest.OpenConversation(t, db, bob)
		if _, err := catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 2, ann.ID); err != nil {
			t.Fatal(err)
		}
		kept, err := catalogtest.PlaceOrder(t, db, ann, "k1")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.AddToCart(ctx, db, catalog.PersonalCart(bob.ID), "A-1", 1, bob.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := catalogtest.PlaceOrder(t, db, bob, "k2"); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, mustOrderNumber(t, db, "k2"), catalog.StatusCancelled, ""); err != nil {
			t.Fatal(err)
		}
		if err := catalog.FlagNeedsHuman(ctx, db, bobs.ID, "asked for a person"); err != nil {
			t.Fatal(err)
		}

		convs, err := panel.ConversationsPerDay(ctx, db, since)
		if err != nil || len(convs) != 1 || convs[0].Day != today || convs[0].N != 2 {
			t.Errorf("ConversationsPerDay = %+v, %v; want 2 on %s", convs, err, today)
		}
		orders, err := panel.OrdersPerDay(ctx, db, since, "USD")
		if err != nil || len(orders) != 1 || orders[0].Day != today || orders[0].N != 1 || orders[0].Total != kept.Total {
			t.Errorf("OrdersPerDay(USD) = %+v, %v; want 1 order of %d on %s (the cancelled one left out)", orders, err, kept.Total, today)
		}
		if other, err := panel.OrdersPerDay(ctx, db, since, "EUR"); err != nil || len(other) != 0 {
			t.Errorf("OrdersPerDay(EUR) = %+v, %v; want none", other, err)
		}
		if later, err := panel.OrdersPerDay(ctx, db, time.Now().UTC().Add(time.Hour), "USD"); err != nil || len(later) != 0 {
			t.Errorf("OrdersPerDay since an hour ahead = %+v, %v; want none", later, err)
		}
		// Both chats ordered after their conversation began (bob's order
		// was cancelled later, and still counts as converted).
		if n, err := panel.ConvertedConversations(ctx, db, since); err != nil || n != 2 {
			t.Errorf("ConvertedConversations = %d, %v; want 2", n, err)
		}
		if n, err := panel.CountNeedsHuman(ctx, db); err != nil || n != 1 {
			t.Errorf("CountNeedsHuman = %d, %v; want 1", n, err)
		}
	})
}

func mustOrderNumber(t *testing.T, db bun.IDB, key string) string {
	t.Helper()
	o, err := catalog.GetOrderByKey(context.Background(), db, key)
	if err != nil {
		t.Fatal(err)
	}
	return o.Number
}

// TestModelUsagePerDay counts model calls only: assistant messages with
// tokens, not the planner's (no tokens) nor tool results.
func TestModelUsagePerDay(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		conv := catalogtest.OpenConversation(t, db, catalogtest.Customer(t, db, "web", "ann"))
		err := catalog.AppendMessages(ctx, db, conv.ID,
			&catalog.Message{Role: catalog.RoleAssistant, Content: "a", PromptTokens: 10, CompletionTokens: 5, LatencyMS: 100},
			&catalog.Message{Role: catalog.RoleAssistant, Content: "b", PromptTokens: 20, LatencyMS: 300},
			&catalog.Message{Role: catalog.RoleAssistant, Content: "planner"},
			&catalog.Message{Role: catalog.RoleTool, Content: "{}", ToolCallID: "c1", ToolName: "x", PromptTokens: 99},
			&catalog.Message{Role: catalog.RoleAssistant, Content: "old", PromptTokens: 7, CreatedAt: time.Now().UTC().AddDate(0, 0, -40)},
		)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := panel.ModelUsagePerDay(ctx, db, time.Now().UTC().AddDate(0, 0, -1))
		if err != nil || len(rows) != 1 {
			t.Fatalf("ModelUsagePerDay = %+v, %v; want one day", rows, err)
		}
		if r := rows[0]; r.Day != time.Now().UTC().Format(time.DateOnly) || r.N != 2 || r.Latency != 200 || r.Tokens != 35 {
			t.Errorf("ModelUsagePerDay = %+v; want 2 calls, 200 ms average, 35 tokens today", r)
		}
	})
}

// TestSearchCounts reads the search tool's stored calls and results:
// queries normalized (case, spaces; the category when there is no
// query), zero-result searches counted apart (with those whose results
// the answer ruled out: found_nothing), older ones left out.
func TestSearchCounts(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		conv := catalogtest.OpenConversation(t, db, catalogtest.Customer(t, db, "web", "ann"))
		old := time.Now().UTC().AddDate(0, 0, -40)
		call := func(id, args string) catalog.ToolCall {
			return catalog.ToolCall{ID: id, Name: catalog.SearchToolName, Arguments: args}
		}
		result := func(id, content string) *catalog.Message {
			return &catalog.Message{Role: catalog.RoleTool, ToolCallID: id, ToolName: catalog.SearchToolName, Content: content}
		}
		err := catalog.AppendMessages(ctx, db, conv.ID,
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{
				call("c1", `{"query":"  Red   Shoes "}`), call("c2", `{"category":"Boots"}`),
				{ID: "c9", Name: "add_to_cart", Arguments: `{"sku":"A-1"}`},
			}},
			result("c1", `{"total":3,"products":[]}`), result("c2", `{"total":0}`),
			&catalog.Message{Role: catalog.RoleTool, ToolCallID: "c9", ToolName: "add_to_cart", Content: `{"total":0}`},
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call("c3", `{"query":"red shoes"}`)}},
			result("c3", `{"total":0}`),
			// Returned products, but the shopper was told nothing matches.
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call("c5", `{"query":"purple boots"}`)}},
			result("c5", `{"found_nothing":true,"products":[{"sku":"A-1"}],"total":2}`),
			// Contact details a shopper typed are no search statistics.
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{
				call("p1", `{"query":"Eva Stone, +1 555 0100"}`), call("p2", `{"query":"eva.stone@example.com"}`),
				call("p3", `{"query":"1 Main St, Springfield"}`),
			}},
			result("p1", `{"total":0}`), result("p2", `{"total":0}`), result("p3", `{"total":4}`),
			&catalog.Message{Role: catalog.RoleAssistant, CreatedAt: old, ToolCalls: []catalog.ToolCall{call("c4", `{"query":"sandals"}`)}},
			&catalog.Message{Role: catalog.RoleTool, CreatedAt: old, ToolCallID: "c4", ToolName: catalog.SearchToolName, Content: `{"total":0}`},
		)
		if err != nil {
			t.Fatal(err)
		}
		all, zero, err := panel.SearchCounts(ctx, db, time.Now().UTC().AddDate(0, 0, -1))
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{"red shoes": 2, "boots": 1, "purple boots": 1}; !maps.Equal(all, want) {
			t.Errorf("all searches = %v, want %v", all, want)
		}
		if want := map[string]int{"red shoes": 1, "boots": 1, "purple boots": 1}; !maps.Equal(zero, want) {
			t.Errorf("zero-result searches = %v, want %v", zero, want)
		}
		all, zero, err = panel.SearchCounts(ctx, db, time.Now().UTC().Add(time.Hour))
		if err != nil || len(all) != 0 || len(zero) != 0 {
			t.Errorf("nothing since an hour ahead: %v, %v, %v; want empty", all, zero, err)
		}
	})
}
