package web

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// NoticeStore keeps the notices waiting for web sessions where every
// replica reaches them: a notice made on one replica (an order cancelled
// in the panel) is taken by whichever replica the shopper's next request
// reaches. bot/ wires one on the database; the adapter knows only this.
// Put refuses a notice over its bounds (the session has too many
// waiting); Take removes and returns a session's notices in order, each
// once across replicas; expired ones are not returned.
type NoticeStore interface {
	Put(ctx context.Context, session string, payload []byte) error
	Take(ctx context.Context, session string) ([]json.RawMessage, error)
}

// KeepNotices makes the chat keep its notices in s instead of in this
// process's memory. Call it before serving.
func (c *Chat) KeepNotices(s NoticeStore) { c.mail.store = s }

// Bounds of the in-memory notices of a Chat without a NoticeStore.
const (
	maxNoticeSessions = 10_000
	maxSessionNotices = 20
)

// memoryNotices is the NoticeStore of a Chat given none (tests, tools that
// run one process): in this process only, bounded, never expiring.
type memoryNotices struct {
	mu      sync.Mutex
	pending map[string][]json.RawMessage
}

func (m *memoryNotices) Put(_ context.Context, session string, payload []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending == nil {
		m.pending = make(map[string][]json.RawMessage)
	}
	q, ok := m.pending[session]
	switch {
	case !ok && len(m.pending) >= maxNoticeSessions:
		return fmt.Errorf("web: %d sessions already have notices waiting", maxNoticeSessions)
	case len(q) >= maxSessionNotices:
		return fmt.Errorf("web: %d notices already waiting for this session", maxSessionNotices)
	}
	m.pending[session] = append(q, payload)
	return nil
}

func (m *memoryNotices) Take(_ context.Context, session string) ([]json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.pending[session]
	delete(m.pending, session)
	return q, nil
}

// mailbox is where a Chat's notices wait: its NoticeStore, or memory.
type mailbox struct {
	store NoticeStore
	mem   memoryNotices
}

func (m *mailbox) notices() NoticeStore {
	if m.store != nil {
		return m.store
	}
	return &m.mem
}

func (m *mailbox) put(ctx context.Context, session string, ev noticeEvent) error {
	b, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("web: encode notice: %w", err)
	}
	return m.notices().Put(ctx, session, b)
}

func (m *mailbox) take(ctx context.Context, session string) ([]noticeEvent, error) {
	raws, err := m.notices().Take(ctx, session)
	if err != nil {
		return nil, err
	}
	out := make([]noticeEvent, 0, len(raws))
	for _, raw := range raws {
		var ev noticeEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return out, fmt.Errorf("web: stored notice unreadable: %w", err)
		}
		out = append(out, ev)
	}
	return out, nil
}

// takeNotices is what reaches the session with its answer: its waiting
// notices, none when the store failed (logged; they wait for the next
// request, or expire).
func (c *Chat) takeNotices(ctx context.Context, session string) []noticeEvent {
	ns, err := c.mail.take(ctx, session)
	if err != nil && c.log != nil {
		c.log.WarnContext(ctx, "web notices not taken", "err", err)
	}
	if len(ns) == 0 {
		return nil
	}
	return ns
}
