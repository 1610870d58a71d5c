package adapters

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"shopbot/engine"
	"shopbot/engine/view"
)

// Hub routes notices to the adapters that deliver them: shopper notices
// (order status, a merchant's reply) to the adapter of the conversation's
// channel, merchant notices (new orders, handoffs) to every merchant
// notifier (the Slack orders channel). bot/ registers the adapters that
// run; a notice nobody can deliver is an error for the caller's log.
type Hub struct {
	mu        sync.RWMutex
	shoppers  map[string]engine.Notifier
	merchants []engine.Notifier
}

// NewHub returns an empty Hub.
func NewHub() *Hub {
	return &Hub{shoppers: make(map[string]engine.Notifier)}
}

// ErrNoRoute reports a notice for a channel with no running adapter.
var ErrNoRoute = errors.New("adapters: no adapter delivers this notice")

// Shoppers registers the notifier that reaches shoppers on channel
// ("telegram", "slack", "web").
func (h *Hub) Shoppers(channel string, n engine.Notifier) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.shoppers[channel] = n
}

// Merchants adds a notifier that reaches the shop's team.
func (h *Hub) Merchants(n engine.Notifier) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.merchants = append(h.merchants, n)
}

// Notify implements engine.Notifier.
func (h *Hub) Notify(ctx context.Context, n view.Notice) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	switch n.Kind {
	case view.NoticeOrderPlaced, view.NoticeHandoff:
		var errs []error
		for _, m := range h.merchants {
			errs = append(errs, m.Notify(ctx, n))
		}
		return errors.Join(errs...)
	case view.NoticeOrderStatus, view.NoticeMerchantReply, view.NoticeBackInStock, view.NoticeCSAT:
		s, ok := h.shoppers[n.Where.Channel]
		if !ok {
			return fmt.Errorf("%w: %s to %s", ErrNoRoute, n.Kind, n.Where.Channel)
		}
		return s.Notify(ctx, n)
	default:
		return fmt.Errorf("adapters: unknown notice kind %q", n.Kind)
	}
}
