package outcome_test

import (
	"context"
	"testing"

	"shopbot/catalog"
	"shopbot/engine"
	"shopbot/engine/outcome"
	"shopbot/engine/view"
)

func TestFromMessagesReadsTheLastTurn(t *testing.T) {
	ms := []catalog.Message{
		{Role: catalog.RoleUser, Content: "shoes"},
		{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{Name: "search_products"}}, Model: engine.PlannerModel},
		{Role: catalog.RoleUser, Content: "add the first"},
		{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{Name: "add_to_cart", Arguments: `{"sku":"A"}`}}, Model: "gpt-4o-mini"},
		{Role: catalog.RoleTool, ToolName: "add_to_cart", Content: "{}"},
		{Role: catalog.RoleAssistant, Content: "Added.", Model: "gpt-4o-mini"},
	}
	tools, calls := outcome.FromMessages(ms)
	if len(tools) != 1 || tools[0] != (outcome.ToolCall{Name: "add_to_cart", Arguments: `{"sku":"A"}`}) || calls != 2 {
		t.Errorf("tools %+v, model calls %d; want add_to_cart and 2", tools, calls)
	}
	if tools, calls := outcome.FromMessages(ms[:2]); len(tools) != 1 || calls != 0 {
		t.Errorf("planner turn: tools %+v, model calls %d; want one tool, no model call", tools, calls)
	}
}

func TestCollectorKeepsTheAnswerAndTheCards(t *testing.T) {
	var c outcome.Collector
	ctx := context.Background()
	for _, ev := range []engine.Event{
		{Kind: engine.EventText, Text: "Found "},
		{Kind: engine.EventCards, Cards: []view.Card{{SKU: "A", PriceText: "$1.00"}, {SKU: "B"}}},
		{Kind: engine.EventCards, Cards: []view.Card{{SKU: "A"}}},
		{Kind: engine.EventDone, Text: "Found 2."},
	} {
		_ = c.Send(ctx, ev)
	}
	o := c.Outcome()
	if o.Reply != "Found 2." || len(o.Products) != 2 || o.SKUs()[1] != "B" || o.Products[0].PriceText != "$1.00" {
		t.Errorf("outcome = %+v", o)
	}
}

func TestCompare(t *testing.T) {
	then := outcome.Outcome{Reply: "Found 2 shoes.", Products: []outcome.Product{{SKU: "A"}, {SKU: "B"}},
		Tools: []outcome.ToolCall{{Name: "search_products", Arguments: `{"query":"shoes"}`}}, Cart: map[string]int{}, Order: "SB-1"}
	same := then
	same.Reply, same.Order, same.Cart = "found  2 SHOES.", "SB-2", nil
	if c := outcome.Compare(then, same); c.Any() || c.String() != "unchanged" {
		t.Errorf("same turn: %s", c)
	}
	now := then
	now.Tools = []outcome.ToolCall{{Name: "search_products", Arguments: `{"query":"shoe"}`}}
	now.Products = []outcome.Product{{SKU: "B"}, {SKU: "A"}}
	now.Cart, now.Order = map[string]int{"A": 1}, ""
	if c := outcome.Compare(then, now); c.String() != "tools, products, cart, order" {
		t.Errorf("changed turn: %s", c)
	}
}
