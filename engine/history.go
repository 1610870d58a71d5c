package engine

import (
	"context"
	"sync"
	"time"

	"shopbot/catalog"
	"shopbot/engine/llm"
	"shopbot/engine/session"
)

// modelMessages builds the request messages: the system prompt, a bounded
// window of earlier turns, and the shopper's new message.
func (e *Engine) modelMessages(ctx context.Context, s *session.Session, rec *recorder) ([]llm.ChatMessage, error) {
	sys, err := e.systemPrompt(ctx, s)
	if err != nil {
		return nil, err
	}
	past, ok := e.history.get(s.Conversation)
	if !ok {
		if past, err = catalog.RecentMessages(ctx, e.cfg.DB, s.Conversation.ID, e.cfg.HistoryMessages); err != nil {
			return nil, err
		}
	}
	rec.history = past
	msgs := []llm.ChatMessage{{Role: catalog.RoleSystem, Content: sys}}
	msgs = append(msgs, window(past, e.cfg.HistoryTokens)...)
	return append(msgs, llm.ChatMessage{Role: catalog.RoleUser, Content: s.Text}), nil
}

// window converts stored messages into chat messages that are safe to
// send: it starts at a user message (so no tool result is separated from
// the assistant message that called it), drops merchant notes the model
// must not imitate as its own, and drops whole leading turns until the
// estimated tokens fit the budget.
func window(past []catalog.Message, budget int) []llm.ChatMessage {
	var out []llm.ChatMessage
	for _, m := range past {
		switch m.Role {
		case catalog.RoleUser, catalog.RoleAssistant, catalog.RoleTool:
			out = append(out, llm.ChatMessage{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID})
		case catalog.RoleMerchant:
			out = append(out, llm.ChatMessage{Role: catalog.RoleAssistant, Content: "[a shop employee wrote] " + m.Content})
		}
	}
	out = dropToUser(out)
	for len(out) > 0 && estimateTokens(out) > budget {
		out = dropToUser(out[1:])
	}
	return consistent(out)
}

// dropToUser removes messages until the first is a user message.
func dropToUser(ms []llm.ChatMessage) []llm.ChatMessage {
	for len(ms) > 0 && ms[0].Role != catalog.RoleUser {
		ms = ms[1:]
	}
	return ms
}

// consistent drops assistant tool calls whose results are missing (a turn
// cut short) together with any orphaned results: the API rejects both.
func consistent(ms []llm.ChatMessage) []llm.ChatMessage {
	out := ms[:0:0]
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		if m.Role == catalog.RoleTool {
			continue // results are copied with their call below
		}
		if m.Role != catalog.RoleAssistant || len(m.ToolCalls) == 0 {
			out = append(out, m)
			continue
		}
		results := map[string]llm.ChatMessage{}
		j := i + 1
		for ; j < len(ms) && ms[j].Role == catalog.RoleTool; j++ {
			results[ms[j].ToolCallID] = ms[j]
		}
		complete := len(results) == len(m.ToolCalls)
		for _, c := range m.ToolCalls {
			if _, ok := results[c.ID]; !ok {
				complete = false
			}
		}
		if complete {
			out = append(out, m)
			for _, c := range m.ToolCalls {
				out = append(out, results[c.ID])
			}
		}
		i = j - 1
	}
	return out
}

// estimateTokens approximates tokens as a quarter of the bytes plus a
// per-message overhead; it only needs to be monotonic and roughly right.
func estimateTokens(ms []llm.ChatMessage) int {
	n := 0
	for _, m := range ms {
		n += 4 + len(m.Content)/4
		for _, c := range m.ToolCalls {
			n += 4 + (len(c.Name)+len(c.Arguments))/4
		}
	}
	return n
}

// historyCacheSize bounds the conversations whose recent messages a process
// keeps in memory.
const historyCacheSize = 4096

// historyCache keeps the recent messages of conversations this process
// answered, so a turn does not read them back from the database. An entry
// is used only while the conversation's last_message_at is the one it was
// saved with: a message written anywhere else (another replica, a merchant
// in the admin panel) changes it, and the next turn reads the database.
type historyCache struct {
	mu      sync.Mutex
	max     int
	entries map[int64]historyEntry
}

type historyEntry struct {
	at   time.Time
	msgs []catalog.Message
}

func newHistoryCache(max int) *historyCache {
	return &historyCache{max: max, entries: make(map[int64]historyEntry)}
}

func (c *historyCache) get(conv *catalog.Conversation) ([]catalog.Message, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[conv.ID]
	if !ok || !e.at.Equal(conv.LastMessageAt) {
		return nil, false
	}
	return e.msgs, true
}

// put records the conversation as of at: the history the turn saw, then
// the turn's messages, keeping the last limit.
func (c *historyCache) put(id int64, at time.Time, past []catalog.Message, added []*catalog.Message, limit int) {
	msgs := make([]catalog.Message, 0, len(past)+len(added))
	msgs = append(msgs, past...)
	for _, m := range added {
		msgs = append(msgs, *m)
	}
	msgs = msgs[max(0, len(msgs)-limit):]
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[id]; !ok && len(c.entries) >= c.max {
		for k := range c.entries { // evict an arbitrary entry
			delete(c.entries, k)
			break
		}
	}
	c.entries[id] = historyEntry{at: at, msgs: msgs}
}
