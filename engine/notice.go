package engine

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"shopbot/engine/view"
)

// Notifier delivers notices. adapters.Hub routes each notice to the
// channel adapter that can deliver it.
type Notifier interface {
	Notify(ctx context.Context, n view.Notice) error
}

// noticeTimeout bounds one notice's delivery; it runs after the turn's
// work is committed and must not hold the turn up.
const noticeTimeout = 30 * time.Second

// notifyAsync delivers each notice in the background, so a slow or
// failing channel never delays the shopper's answer; failures are logged.
// inflight counts deliveries under way (tests wait on it).
func notifyAsync(n Notifier, log *slog.Logger, inflight *sync.WaitGroup) func(view.Notice) {
	return func(nt view.Notice) {
		inflight.Add(1)
		go func() {
			defer inflight.Done()
			ctx, cancel := context.WithTimeout(context.Background(), noticeTimeout)
			defer cancel()
			if err := n.Notify(ctx, nt); err != nil {
				log.WarnContext(ctx, "notice not delivered", "kind", nt.Kind, "channel", nt.Where.Channel, "err", err)
			}
		}()
	}
}
