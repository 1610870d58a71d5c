package engine

import (
	"context"
	"fmt"
	"strconv"

	"shopbot/catalog"
	"shopbot/engine/agentdoor"
	"shopbot/engine/logctx"
	"shopbot/engine/session"
)

// The agent door (adapters/mcp, adapters/ucp): an AI agent calls the
// shop's tools itself, one call at a time, with no model of ours in
// between. What is offered, with which hints, and the idempotency of
// writes are engine/agentdoor's; each call is a turn of its own in the
// agent's conversation (channel agentdoor.Channel): same customer
// resolution, chat lock, per-customer rate limit, argument validation
// (Toolbox.Call: schema, 4 KiB bound) and effects journal as a chat
// turn, and the call with its result goes into the transcript the admin
// inbox shows.

// AgentTools describes the tools agents may call (agentdoor.Describe
// over the engine's tool registry).
func (e *Engine) AgentTools() []agentdoor.Tool { return agentdoor.Describe(e.agent.Lookup) }

// CallTool runs one tool call of an agent as a turn of its conversation
// (t: channel agentdoor.Channel, the chat and user ids of the agent's
// session). A refused call — a tool not offered, a bad turn, the rate
// limit (a *RateLimitedError) — returns an error and records nothing; a
// tool error (bad arguments, unknown SKU) is a reply with IsError, and
// is recorded like any call.
func (e *Engine) CallTool(ctx context.Context, t Turn, name, args string) (rep agentdoor.Reply, err error) {
	defer func() { err = catalog.Unavailable(err) }()
	tool, ok := agentdoor.Offered(name)
	if !ok {
		return agentdoor.Reply{}, fmt.Errorf("%w: %q", agentdoor.ErrNotOffered, name)
	}
	idem := ""
	if tool.Write {
		if idem, args, err = agentdoor.TakeKey(args); err != nil {
			return agentdoor.Refused(err), nil // changes nothing, records nothing
		}
		t.DedupKey = "idem-" + idem // the order's key (Session.IdempotencyKey)
	}
	t.Text, t.Action = "", nil
	if err := cleanTurn(&t); err != nil {
		return agentdoor.Reply{}, err
	}
	if t.Channel == "" || t.ChatID == "" || t.UserID == "" {
		return agentdoor.Reply{}, fmt.Errorf("%w: channel, chat and user are required", ErrBadTurn)
	}
	ctx, turn := logctx.StartTurn(ctx)
	key := t.Channel + "\x00" + t.ChatID + "\x00" + t.ThreadID
	unlock := e.chats.Lock(key)
	defer unlock()
	if e.cfg.ChatLocks != nil {
		unlockAll, err := e.cfg.ChatLocks.Lock(ctx, key)
		if err != nil {
			return agentdoor.Reply{}, err
		}
		defer unlockAll()
	}
	e = e.withSettings(ctx)
	s, counted, err := e.openSession(ctx, t)
	if err != nil {
		return agentdoor.Reply{}, err
	}
	turn.SetConversation(s.Conversation.ID)
	if hit, err := e.allowTurn(ctx, s, counted); err != nil {
		return agentdoor.Reply{}, err
	} else if !hit.Allowed {
		e.metrics.rateLimited.Inc()
		e.metrics.turns.WithLabelValues(t.Channel, "rate_limited").Inc()
		return agentdoor.Reply{}, &RateLimitedError{RetryAfter: hit.RetryAfter}
	}
	digest := agentdoor.Digest(name, args)
	if idem != "" {
		if prev, ok := s.State.AgentCall(idem); ok {
			if prev.Call != digest {
				return agentdoor.Refused(agentdoor.ErrKeyReused), nil
			}
			return agentdoor.Reply{Content: prev.Content, IsError: prev.IsError}, nil
		}
	}
	rec := &recorder{}
	call := catalog.ToolCall{ID: "agent_" + strconv.FormatInt(s.Now.UnixNano(), 36), Name: name, Arguments: args}
	rec.add(&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{call}, Model: agentdoor.Model})
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
		return agentdoor.Reply{}, err
	}
	e.metrics.turns.WithLabelValues(t.Channel, "agent").Inc()
	e.maybePrune(ctx, s.Now)
	return agentdoor.Reply{Content: out.content, IsError: out.isErr, Cart: out.res.Cart, Order: out.res.Order}, nil
}
