package agentdoor

import (
	"errors"

	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Channel is the channel of agents' conversations.
const Channel = "agent"

// Model names the agent in transcripts: the model of the
// assistant messages that carry an agent's tool calls.
const Model = "mcp-agent"

// Tool is a tool the agent door offers, with the hints an agent
// reads before calling it.
type Tool struct {
	Name        string
	Description string
	Schema      map[string]any // the full schema Call enforces; read only
	ReadOnly    bool           // changes nothing
	Destructive bool           // may undo what the shopper did (remove from the cart)
	Idempotent  bool           // the same call twice changes nothing more
	// Write: the call changes the cart, the checkout or an order, and
	// takes an idempotency key (the argument IdempotencyArg, required):
	// the same key again gets the first reply and changes nothing.
	Write bool
}

// tools are the tools agents may call, in the order they are
// listed. The chat's checkout is not offered: agents check out with
// create_checkout and complete_checkout (engine/tools/checkout/agent.go), which
// take the buyer's contact explicitly. cancel_order cancels only the
// session's own orders (another's is "no order with that number", as a
// missing one); request_human hands the chat to a merchant, who cannot
// answer an agent.
var tools = []Tool{
	{Name: "search_products", ReadOnly: true, Idempotent: true},
	{Name: "get_product_details", ReadOnly: true, Idempotent: true},
	{Name: "get_availability", ReadOnly: true, Idempotent: true},
	{Name: "compare_products", ReadOnly: true, Idempotent: true},
	{Name: "get_similar_products", ReadOnly: true, Idempotent: true},
	{Name: "get_categories", ReadOnly: true, Idempotent: true},
	{Name: "get_top_selling_products", ReadOnly: true, Idempotent: true},
	{Name: "get_reviews_summary", ReadOnly: true, Idempotent: true},
	{Name: "search_reviews", ReadOnly: true, Idempotent: true},
	{Name: "search_shop_info", ReadOnly: true, Idempotent: true},
	{Name: "get_delivery_options", ReadOnly: true, Idempotent: true},
	{Name: "view_cart", ReadOnly: true, Idempotent: true},
	{Name: "get_order_status", ReadOnly: true, Idempotent: true},
	{Name: "add_to_cart", Idempotent: true, Write: true},
	{Name: "update_cart_item", Destructive: true, Idempotent: true, Write: true},
	{Name: "remove_from_cart", Destructive: true, Idempotent: true, Write: true},
	{Name: "apply_promo_code", Idempotent: true, Write: true},
	{Name: "notify_when_available", Idempotent: true, Write: true},
	{Name: "create_checkout", Idempotent: true, Write: true},
	{Name: "complete_checkout", Idempotent: true, Write: true},
	{Name: "cancel_order", Destructive: true, Idempotent: true, Write: true},
}

// Names are the names of the tools agents may call, in the order they
// are listed.
func Names() []string {
	out := make([]string, len(tools))
	for i, a := range tools {
		out[i] = a.Name
	}
	return out
}

// Describe is the tools agents may call, as lookup finds them in the
// engine's tool registry: a tool's description and schema are the ones
// the chat model reads, and a write's schema requires IdempotencyArg.
func Describe(lookup func(name string) (toolkit.Tool, bool)) []Tool {
	out := make([]Tool, 0, len(tools))
	for _, a := range tools {
		t, ok := lookup(a.Name)
		if !ok {
			continue // a tool renamed without this list: not offered
		}
		a.Description, a.Schema = t.Description, t.Schema
		if a.Write {
			a.Schema = WithKey(a.Schema)
		}
		out = append(out, a)
	}
	return out
}

// Reply is the outcome of an agent's tool call: the compact JSON
// the chat model would read ({"error": ...} when IsError).
type Reply struct {
	Content string
	IsError bool
	// Cart and Order are what the tool showed, in minor units (nil when
	// it showed none, and on a reply given again for its key).
	Cart  *view.CartView
	Order *view.OrderView
}

// ErrNotOffered is a call of a tool the agent door does not offer.
var ErrNotOffered = errors.New("engine: tool not offered to agents")

// Offered is the tool of that name if agents may call it.
func Offered(name string) (Tool, bool) {
	for _, a := range tools {
		if a.Name == name {
			return a, true
		}
	}
	return Tool{}, false
}
