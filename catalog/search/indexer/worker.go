package indexer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// Index is a search index the worker keeps current.
type Index interface {
	// Upsert re-reads the products with these SKUs from db and writes
	// them to the index, removing those gone or archived.
	Upsert(ctx context.Context, db bun.IDB, skus ...string) error
}

// PassageIndex keeps passages (shop pages...): passage events
// (catalog.OutboxPassages) reach it by their source keys. Without one
// (Config.Passages nil) they are acknowledged unread.
type PassageIndex interface {
	UpsertPassages(ctx context.Context, db bun.IDB, keys ...string) error
}

// readier is an Index that can tell whether it is reachable.
type readier interface {
	Ready(ctx context.Context) error
}

// Config tunes a Worker.
type Config struct {
	// Poll is how often the outbox is read when idle; default 500 ms.
	Poll time.Duration
	// Batch is how many events one delivery carries; default 500.
	Batch int
	// MinBackoff and MaxBackoff bound the delay before a failed event is
	// retried; defaults 1 s and 5 min.
	MinBackoff, MaxBackoff time.Duration
	Logger                 *slog.Logger
	Metrics                *Metrics // nil: unregistered series

	// Passages receives passage events; nil acknowledges them unread.
	Passages PassageIndex
}

// Worker drains the outbox into an index.
type Worker struct {
	db  *bun.DB
	idx Index
	cfg Config
	log *slog.Logger
	m   *Metrics
}

// New returns a worker delivering db's outbox to idx.
func New(db *bun.DB, idx Index, cfg Config) *Worker {
	cfg.Poll = cmp.Or(cfg.Poll, 500*time.Millisecond)
	cfg.Batch = cmp.Or(cfg.Batch, 500)
	cfg.MinBackoff = cmp.Or(cfg.MinBackoff, time.Second)
	cfg.MaxBackoff = cmp.Or(cfg.MaxBackoff, 5*time.Minute)
	m := cfg.Metrics
	if m == nil {
		m = NewMetrics(prometheus.NewRegistry())
	}
	return &Worker{db: db, idx: idx, cfg: cfg, log: cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler)), m: m}
}

// Run drains the outbox until ctx ends: at once while events are due,
// then every Poll. Database errors are logged and retried.
func (w *Worker) Run(ctx context.Context) error {
	for {
		n, err := w.Drain(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			w.log.WarnContext(ctx, "outbox: reading the outbox failed; retrying", "err", err)
		}
		if n == w.cfg.Batch && err == nil {
			continue // more are due
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(w.cfg.Poll):
		}
	}
}

// Drain delivers one batch of due events and returns how many it handled
// (delivered or rescheduled).
func (w *Worker) Drain(ctx context.Context) (int, error) {
	defer w.countPending(ctx)
	evs, err := catalog.PendingOutbox(ctx, w.db, w.cfg.Batch)
	if err != nil || len(evs) == 0 {
		return 0, err
	}
	err = w.deliver(ctx, evs)
	if err == nil {
		return len(evs), nil
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	if len(evs) > 1 && w.reachable(ctx) {
		// The index is up but refused the batch: find the event at fault.
		for _, ev := range evs {
			if err := w.deliver(ctx, []catalog.OutboxEvent{ev}); err != nil {
				if rerr := w.retry(ctx, []catalog.OutboxEvent{ev}, err); rerr != nil {
					return 0, rerr
				}
			}
		}
		return len(evs), nil
	}
	return len(evs), w.retry(ctx, evs, err)
}

// deliver upserts the events' products and acknowledges them.
func (w *Worker) deliver(ctx context.Context, evs []catalog.OutboxEvent) error {
	seen := map[string]bool{}
	var skus, keys []string
	ids := make([]int64, len(evs))
	for i, ev := range evs {
		ids[i] = ev.ID
		switch {
		case ev.Kind == catalog.OutboxPassages && !seen["\x00"+ev.SKU]:
			seen["\x00"+ev.SKU] = true
			keys = append(keys, ev.SKU)
		case ev.Kind != catalog.OutboxPassages && !seen[ev.SKU]:
			seen[ev.SKU] = true
			skus = append(skus, ev.SKU)
		}
	}
	if len(skus) > 0 {
		if err := w.idx.Upsert(ctx, w.db, skus...); err != nil {
			return err
		}
	}
	if w.cfg.Passages != nil && len(keys) > 0 {
		if err := w.cfg.Passages.UpsertPassages(ctx, w.db, keys...); err != nil {
			return err
		}
	}
	if err := catalog.AckOutbox(ctx, w.db, ids...); err != nil {
		return err
	}
	w.m.delivered.Add(float64(len(evs)))
	return nil
}

// retry reschedules failed events with backoff.
func (w *Worker) retry(ctx context.Context, evs []catalog.OutboxEvent, cause error) error {
	w.m.failures.Add(float64(len(evs)))
	w.log.WarnContext(ctx, "outbox: delivering to the search index failed; will retry",
		"events", len(evs), "attempts", evs[0].Attempts+1, "retry_in", w.backoff(evs[0].Attempts).Round(time.Millisecond), "err", cause)
	var errs []error
	for _, ev := range evs {
		if err := catalog.RetryOutbox(ctx, w.db, ev.ID, cause, w.backoff(ev.Attempts)); err != nil && !errors.Is(err, catalog.ErrNotFound) {
			errs = append(errs, err) // ErrNotFound: another worker delivered it meanwhile
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("outbox: reschedule: %w", errors.Join(errs...))
	}
	return nil
}

// backoff is the delay before attempt number attempts+1: MinBackoff
// doubling per attempt up to MaxBackoff, less up to a quarter of jitter.
func (w *Worker) backoff(attempts int) time.Duration {
	d := w.cfg.MaxBackoff
	if attempts < 30 {
		d = min(w.cfg.MinBackoff<<attempts, w.cfg.MaxBackoff)
	}
	return d - time.Duration(rand.Int64N(int64(d)/4+1))
}

func (w *Worker) reachable(ctx context.Context) bool {
	r, ok := w.idx.(readier)
	if !ok {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return r.Ready(ctx) == nil
}

func (w *Worker) countPending(ctx context.Context) {
	if n, err := catalog.CountOutbox(context.WithoutCancel(ctx), w.db); err == nil {
		w.m.pending.Set(float64(n))
	}
}
