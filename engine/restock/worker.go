package restock

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/engine/view"
)

// Notifier delivers a notice to a shopper (adapters.Hub implements it).
type Notifier interface {
	Notify(ctx context.Context, n view.Notice) error
}

// Worker sends due back-in-stock alerts. The zero values of the tuning
// fields take the defaults below.
type Worker struct {
	DB       *bun.DB
	Notifier Notifier
	Log      *slog.Logger
	Now      func() time.Time // nil: time.Now

	Lease       time.Duration // how long a claim lasts before another worker may take it
	Batch       int           // alerts claimed per round
	RetryDelay  time.Duration // before a failed send is tried again
	MaxAttempts int           // sends tried before the alert fails for good
	SendTimeout time.Duration // bound on one notice's delivery
}

const (
	defaultLease       = 2 * time.Minute
	defaultBatch       = 50
	defaultRetryDelay  = time.Minute
	defaultMaxAttempts = 5
	defaultSendTimeout = 30 * time.Second
)

// Round is what one RunOnce did.
type Round struct {
	Sent, Blocked, Retried, Expired int
}

// RunOnce expires old alerts, then claims one batch of due alerts and
// sends them. The claim is what makes delivery once across replicas.
func (w *Worker) RunOnce(ctx context.Context) (Round, error) {
	var r Round
	now := w.now()
	n, err := catalog.ExpireStockAlerts(ctx, w.DB, now)
	if err != nil {
		return r, err
	}
	r.Expired = int(n)
	due, err := catalog.ClaimStockAlerts(ctx, w.DB, now, or(w.Lease, defaultLease), or(w.Batch, defaultBatch))
	if err != nil {
		return r, err
	}
	for _, a := range due {
		if err := w.send(ctx, a, &r); err != nil {
			return r, err
		}
	}
	return r, nil
}

func (w *Worker) send(ctx context.Context, a catalog.DueStockAlert, r *Round) error {
	card := view.CardOf(a.Product)
	n := view.Notice{Kind: view.NoticeBackInStock, Where: a.Where(), Customer: a.Customer, Product: &card, Locale: a.Locale}
	sctx, cancel := context.WithTimeout(ctx, or(w.SendTimeout, defaultSendTimeout))
	err := w.Notifier.Notify(sctx, n)
	cancel()
	// The outcome is recorded even if ctx ended meanwhile: the message
	// may be out, and the claim must say so.
	rctx := context.WithoutCancel(ctx)
	now := w.now()
	switch {
	case err == nil:
		r.Sent++
		return catalog.MarkStockAlertSent(rctx, w.DB, a.ID, now)
	case errors.Is(err, view.ErrUnreachable):
		r.Blocked++
		w.log().InfoContext(ctx, "back-in-stock alert: chat unreachable, not retried", "alert", a.ID, "channel", a.Channel, "err", err)
		return catalog.MarkStockAlertBlocked(rctx, w.DB, a.StockAlert, now, err)
	default:
		r.Retried++
		w.log().WarnContext(ctx, "back-in-stock alert not delivered", "alert", a.ID, "channel", a.Channel, "attempt", a.Attempts, "err", err)
		return catalog.RetryStockAlert(rctx, w.DB, a.StockAlert, now, err, or(w.RetryDelay, defaultRetryDelay), or(w.MaxAttempts, defaultMaxAttempts))
	}
}

// Run calls RunOnce at every tick until ctx ends; a round that filled its
// batch runs again at once. Errors are logged, not fatal: the database
// may come back.
func (w *Worker) Run(ctx context.Context, tick <-chan time.Time) {
	for {
		for {
			r, err := w.RunOnce(ctx)
			if err != nil {
				if ctx.Err() == nil {
					w.log().WarnContext(ctx, "back-in-stock round failed", "err", err)
				}
				break
			}
			if r.Sent+r.Blocked+r.Retried < or(w.Batch, defaultBatch) {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
	}
}

func (w *Worker) now() time.Time {
	if w.Now == nil {
		return time.Now()
	}
	return w.Now()
}

func (w *Worker) log() *slog.Logger {
	if w.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return w.Log
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
