package engine

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"shopbot/catalog"
)

// NoticeKind says what a Notice reports.
type NoticeKind string

const (
	// To the merchant (e.g. the Slack orders channel):
	NoticeOrderPlaced NoticeKind = "order_placed" // a shopper placed an order
	NoticeHandoff     NoticeKind = "handoff"      // request_human: a person is needed

	// To the shopper, in the chat the conversation or order came from:
	NoticeOrderStatus   NoticeKind = "order_status"   // the merchant changed an order's status
	NoticeMerchantReply NoticeKind = "merchant_reply" // a merchant wrote during a takeover
)

// Notice is something to tell a person outside the turn that caused it:
// the merchant about a new order or a handoff, the shopper about an order
// status change or a merchant's reply.
type Notice struct {
	Kind NoticeKind
	// Where is the shopper's conversation (or the order's chat).
	Where          catalog.ConversationKey
	ConversationID int64      // for a link to the admin transcript; 0 if unknown
	Customer       string     // the shopper's display name
	Order          *OrderView // order notices
	Text           string     // the handoff reason or the merchant's reply
}

// Notifier delivers notices. adapters.Hub routes each notice to the
// channel adapter that can deliver it.
type Notifier interface {
	Notify(ctx context.Context, n Notice) error
}

// noticeTimeout bounds one notice's delivery; it runs after the turn's
// work is committed and must not hold the turn up.
const noticeTimeout = 30 * time.Second

// notifyAsync delivers each notice in the background, so a slow or
// failing channel never delays the shopper's answer; failures are logged.
// inflight counts deliveries under way (tests wait on it).
func notifyAsync(n Notifier, log *slog.Logger, inflight *sync.WaitGroup) func(Notice) {
	return func(nt Notice) {
		inflight.Add(1)
		go func() {
			defer inflight.Done()
			ctx, cancel := context.WithTimeout(context.Background(), noticeTimeout)
			defer cancel()
			if err := n.Notify(ctx, nt); err != nil {
				log.Warn("notice not delivered", "kind", nt.Kind, "channel", nt.Where.Channel, "err", err)
			}
		}()
	}
}
