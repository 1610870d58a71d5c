package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"shopbot/catalog"
	"shopbot/engine/logctx"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// The agent door (adapters/mcp): an AI agent calls the shop's tools
// itself, one call at a time, with no model of ours in between. Each
// call is a turn of its own in the agent's conversation (channel
// "agent"): same customer resolution, chat lock, per-customer rate
// limit, argument validation (Toolbox.Call: schema, 4 KiB bound) and
// effects journal as a chat turn, and the call with its result goes
// into the transcript the admin inbox shows.

// AgentChannel is the channel of agents' conversations.
const AgentChannel = "agent"

// AgentModel names the agent in transcripts: the model of the
// assistant messages that carry an agent's tool calls.
const AgentModel = "mcp-agent"

// AgentTool is a tool the agent door offers, with the hints an agent
// reads before calling it.
type AgentTool struct {
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

// agentTools are the tools agents may call, in the order they are
// listed. The chat's checkout is not offered: agents check out with
// create_checkout and complete_checkout (tools/agent_checkout.go), which
// take the buyer's contact explicitly. cancel_order cancels only the
// session's own orders (another's is "no order with that number", as a
// missing one); request_human hands the chat to a merchant, who cannot
// answer an agent.
var agentTools = []AgentTool{
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

// AgentTools describes the tools agents may call, from the engine's
// tool registry: a tool's description and schema are the ones the chat
// model reads.
func (e *Engine) AgentTools() []AgentTool {
	out := make([]AgentTool, 0, len(agentTools))
	for _, a := range agentTools {
		t, ok := e.agent.Lookup(a.Name)
		if !ok {
			continue // a tool renamed without this list: not offered
		}
		a.Description, a.Schema = t.Description, t.Schema
		if a.Write {
			a.Schema = withIdempotencyKey(a.Schema)
		}
		out = append(out, a)
	}
	return out
}

// AgentReply is the outcome of an agent's tool call: the compact JSON
// the chat model would read ({"error": ...} when IsError).
type AgentReply struct {
	Content string
	IsError bool
	// Cart and Order are what the tool showed, in minor units (nil when
	// it showed none, and on a reply given again for its key).
	Cart  *view.CartView
	Order *view.OrderView
}

// ErrNotAgentTool is a call of a tool the agent door does not offer.
var ErrNotAgentTool = errors.New("engine: tool not offered to agents")

// CallTool runs one tool call of an agent as a turn of its conversation
// (t: channel AgentChannel, the chat and user ids of the agent's
// session). A refused call — a tool not offered, a bad turn, the rate
// limit (a *RateLimitedError) — returns an error and records nothing; a
// tool error (bad arguments, unknown SKU) is a reply with IsError, and
// is recorded like any call.
func (e *Engine) CallTool(ctx context.Context, t Turn, name, args string) (rep AgentReply, err error) {
	defer func() { err = catalog.Unavailable(err) }()
	tool, ok := offered(name)
	if !ok {
		return AgentReply{}, fmt.Errorf("%w: %q", ErrNotAgentTool, name)
	}
	idem := ""
	if tool.Write {
		if idem, args, err = takeIdempotencyKey(args); err != nil {
			return toolError(err), nil // changes nothing, records nothing
		}
		t.DedupKey = "idem-" + idem // the order's key (Session.IdempotencyKey)
	}
	t.Text, t.Action = "", nil
	if err := cleanTurn(&t); err != nil {
		return AgentReply{}, err
	}
	if t.Channel == "" || t.ChatID == "" || t.UserID == "" {
		return AgentReply{}, fmt.Errorf("%w: channel, chat and user are required", ErrBadTurn)
	}
	ctx, turn := logctx.StartTurn(ctx)
	key := t.Channel + "\x00" + t.ChatID + "\x00" + t.ThreadID
	unlock := e.chats.Lock(key)
	defer unlock()
	if e.cfg.ChatLocks != nil {
		unlockAll, err := e.cfg.ChatLocks.Lock(ctx, key)
		if err != nil {
			return AgentReply{}, err
		}
		defer unlockAll()
	}
	e = e.withSettings(ctx)
	s, counted, err := e.openSession(ctx, t)
	if err != nil {
		return AgentReply{}, err
	}
	turn.SetConversation(s.Conversation.ID)
	if hit, err := e.allowTurn(ctx, s, counted); err != nil {
		return AgentReply{}, err
	} else if !hit.Allowed {
		e.metrics.rateLimited.Inc()
		e.metrics.turns.WithLabelValues(t.Channel, "rate_limited").Inc()
		return AgentReply{}, &RateLimitedError{RetryAfter: hit.RetryAfter}
	}
	digest := callDigest(name, args)
	if idem != "" {
		if prev, ok := s.State.AgentCall(idem); ok {
			if prev.Call != digest {
				return toolError(errKeyReused), nil
			}
			return AgentReply{Content: prev.Content, IsError: prev.IsError}, nil
		}
	}
	rec := &recorder{}
	call := catalog.ToolCall{ID: "agent_" + strconv.FormatInt(s.Now.UnixNano(), 36), Name: name, Arguments: args}
	rec.add(&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call}, Model: AgentModel})
	out := e.runToolIn(ctx, e.agent, s, call)
	rec.tool(out)
	if idem != "" {
		s.State.RememberAgentCall(session.AgentCall{Key: idem, Call: digest, Content: out.content, IsError: out.isErr})
	}
	if len(out.res.Cards) > 0 {
		listing := s.State.Listing
		s.State.Remember(out.res.Cards)
		s.State.Listing = listing
	}
	if err := e.persist(ctx, s, rec); err != nil {
		e.metrics.turns.WithLabelValues(t.Channel, "error").Inc()
		return AgentReply{}, err
	}
	e.metrics.turns.WithLabelValues(t.Channel, "agent").Inc()
	e.maybePrune(ctx, s.Now)
	return AgentReply{Content: out.content, IsError: out.isErr, Cart: out.res.Cart, Order: out.res.Order}, nil
}

func offered(name string) (AgentTool, bool) {
	for _, a := range agentTools {
		if a.Name == name {
			return a, true
		}
	}
	return AgentTool{}, false
}
