package eval

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/outcome"
	"shopbot/engine/view"
)

// storedTurn is one shopper turn of a transcript: messages[start] is the
// shopper's message, messages[start+1:end] what the shop did after it.
type storedTurn struct{ start, end int }

// splitTurns cuts a transcript at each shopper message.
func splitTurns(ms []catalog.Message) []storedTurn {
	var out []storedTurn
	for i, m := range ms {
		if m.Role != catalog.RoleUser {
			continue
		}
		if n := len(out); n > 0 {
			out[n-1].end = i
		}
		out = append(out, storedTurn{start: i, end: len(ms)})
	}
	return out
}

// buttonPrefix marks a button press in a transcript (engine's recorder).
const buttonPrefix = "[button] "

// turnInput is what the shopper said or pressed, as the engine takes it.
func turnInput(m catalog.Message) (text string, action *view.Action) {
	if enc, ok := strings.CutPrefix(m.Content, buttonPrefix); ok {
		if a, err := view.ParseAction(enc); err == nil {
			return "", &a
		}
	}
	return m.Content, nil
}

// turnOutcome reads a turn's messages (the shopper's first) as replay
// compares them, the same way for what happened then and for the replay:
// the tools called (outcome.FromMessages), the last words the assistant
// said, the products the tool results listed, and the order a checkout
// placed. The cart is not in the messages; the caller sets it.
func turnOutcome(ms []catalog.Message) outcome.Outcome {
	var o outcome.Outcome
	o.Tools, o.ModelCalls = outcome.FromMessages(ms)
	seen := map[string]bool{}
	for _, m := range ms {
		switch {
		case m.Role == catalog.RoleAssistant && m.Content != "":
			o.Reply = m.Content
		case m.Role == catalog.RoleTool && !m.ToolError && !cartTools[m.ToolName] && m.ToolName != "checkout":
			for _, sku := range skusOf(m.Content) {
				if !seen[sku] {
					seen[sku] = true
					o.Products = append(o.Products, outcome.Product{SKU: sku})
				}
			}
		case m.Role == catalog.RoleTool && !m.ToolError && m.ToolName == "checkout":
			var r struct {
				Status string `json:"status"`
				Order  struct {
					Number string `json:"number"`
				} `json:"order"`
			}
			if json.Unmarshal([]byte(m.Content), &r) == nil && r.Status == "placed" {
				o.Order = r.Order.Number
			}
		}
	}
	return o
}

// cartTools are the tools whose SKUs are the cart's, not products listed.
var cartTools = map[string]bool{
	"add_to_cart": true, "update_cart_item": true, "remove_from_cart": true, "view_cart": true,
	"get_order_status": true, "get_purchase_statistics": true,
}

// skusOf lists the "sku" values of a tool result: arrays in order, an
// object's own sku before those nested in it (by key, so the order is
// stable). A result clipped for the model is not JSON and lists none, the
// same then and now.
func skusOf(content string) []string {
	var v any
	if json.Unmarshal([]byte(content), &v) != nil {
		return nil
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			if s, ok := v["sku"].(string); ok {
				out = append(out, s)
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		}
	}
	walk(v)
	return out
}

// applyCart is the cart after a stored turn: before, changed by the
// turn's cart calls that succeeded, in order. It is the simplest faithful
// reconstruction: the transcript keeps every call and whether it failed,
// while the carts table keeps only the cart of now.
func applyCart(before map[string]int, ms []catalog.Message) map[string]int {
	cart := maps.Clone(before)
	if cart == nil {
		cart = map[string]int{}
	}
	failed := map[string]bool{}
	for _, m := range ms {
		if m.Role == catalog.RoleTool && m.ToolError {
			failed[m.ToolCallID] = true
		}
	}
	for _, m := range ms {
		if m.Role != catalog.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			if !failed[c.ID] {
				applyCall(cart, c, ms)
			}
		}
	}
	return cart
}

// applyCall applies one successful cart call to cart.
func applyCall(cart map[string]int, c catalog.ToolCall, ms []catalog.Message) {
	var a struct {
		SKU      string `json:"sku"`
		Quantity int    `json:"quantity"`
	}
	_ = json.Unmarshal([]byte(c.Arguments), &a)
	a.SKU = strings.TrimSpace(a.SKU)
	switch c.Name {
	case "add_to_cart":
		// What was added, from the result: options may have chosen a
		// variant of the SKU asked for, and a product with variants may
		// have answered with a question instead.
		var res struct {
			Added *struct {
				SKU string `json:"sku"`
				Qty int    `json:"qty"`
			} `json:"added"`
		}
		if ms := resultOf(c.ID, ms); len(ms) == 1 && json.Unmarshal([]byte(ms[0].Content), &res) == nil && res.Added != nil {
			cart[res.Added.SKU] += max(res.Added.Qty, 1)
		}
	case "update_cart_item":
		if a.Quantity <= 0 {
			delete(cart, a.SKU)
		} else {
			cart[a.SKU] = a.Quantity
		}
	case "remove_from_cart":
		delete(cart, a.SKU)
	case "checkout":
		if turnOutcome(resultOf(c.ID, ms)).Order != "" {
			clear(cart)
		}
	}
}

// resultOf is the tool message answering call id, alone.
func resultOf(id string, ms []catalog.Message) []catalog.Message {
	for _, m := range ms {
		if m.Role == catalog.RoleTool && m.ToolCallID == id {
			return []catalog.Message{m}
		}
	}
	return nil
}
