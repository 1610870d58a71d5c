package search

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"shopbot/catalog"
)

// Named is a backend with the name its metrics and logs use.
type Named struct {
	Name string
	Searcher
}

// Fallback answers from Primary and, when it fails (Weaviate down or
// slow), from Secondary, with a warning and shopbot_search_fallback_total:
// the shopper never sees the outage. After a failure Primary is left
// alone for Cooldown, so an outage does not cost every query a timeout.
type Fallback struct {
	primary, secondary Named
	timeout, cooldown  time.Duration
	log                *slog.Logger
	m                  *Metrics

	mu        sync.Mutex
	downUntil time.Time
	warned    time.Time
}

// FallbackConfig tunes a Fallback.
type FallbackConfig struct {
	// Timeout bounds a Primary query; default 2 s.
	Timeout time.Duration
	// Cooldown is how long Primary is skipped after a failure; default 5 s.
	Cooldown time.Duration
	Logger   *slog.Logger
	Metrics  *Metrics
}

// NewFallback returns primary backed by secondary.
func NewFallback(primary, secondary Named, cfg FallbackConfig) *Fallback {
	return &Fallback{primary: primary, secondary: secondary,
		timeout: cmp.Or(cfg.Timeout, 2*time.Second), cooldown: cmp.Or(cfg.Cooldown, 5*time.Second),
		log: cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler)), m: cfg.Metrics}
}

// Search implements Searcher.
func (f *Fallback) Search(ctx context.Context, q Query) (Results, error) {
	return call(ctx, f, "search", func(ctx context.Context, s Searcher) (Results, error) { return s.Search(ctx, q) })
}

// Similar implements Searcher. A product Primary does not know (not yet
// delivered to it) is looked up in Secondary without a warning.
func (f *Fallback) Similar(ctx context.Context, sku string, limit int) ([]catalog.Product, error) {
	return call(ctx, f, "similar", func(ctx context.Context, s Searcher) ([]catalog.Product, error) {
		return s.Similar(ctx, sku, limit)
	})
}

func call[T any](ctx context.Context, f *Fallback, op string, fn func(context.Context, Searcher) (T, error)) (T, error) {
	if f.up() {
		pctx, cancel := context.WithTimeout(ctx, f.timeout)
		res, err := Observe(pctx, f.m, f.primary, fn)
		cancel()
		switch {
		case err == nil:
			return res, nil
		case ctx.Err() != nil: // the caller gave up: not an outage
			return res, err
		case errors.Is(err, catalog.ErrNotFound):
		default:
			f.failed(ctx, op, err)
		}
	} else if f.m != nil {
		f.m.fallback.WithLabelValues(f.primary.Name).Inc()
	}
	return Observe(ctx, f.m, f.secondary, fn)
}

// Observe runs fn on a backend and records its latency.
func Observe[T any](ctx context.Context, m *Metrics, b Named, fn func(context.Context, Searcher) (T, error)) (T, error) {
	start := time.Now()
	res, err := fn(ctx, b.Searcher)
	if m != nil {
		m.latency.WithLabelValues(b.Name).Observe(time.Since(start).Seconds())
	}
	return res, err
}

func (f *Fallback) up() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return time.Now().After(f.downUntil)
}

// failed counts a fallback and warns, at most once per cooldown.
func (f *Fallback) failed(ctx context.Context, op string, err error) {
	if f.m != nil {
		f.m.fallback.WithLabelValues(f.primary.Name).Inc()
	}
	f.mu.Lock()
	now := time.Now()
	f.downUntil = now.Add(f.cooldown)
	warn := now.Sub(f.warned) >= f.cooldown
	if warn {
		f.warned = now
	}
	f.mu.Unlock()
	if warn {
		f.log.WarnContext(ctx, "search: backend failed; answering from the fallback",
			"backend", f.primary.Name, "fallback", f.secondary.Name, "op", op, "retry_in", f.cooldown, "err", err)
	}
}

// Measured records the latency of every query of a backend (the embedded
// index when it is the only one).
type Measured struct {
	b Named
	m *Metrics
}

// NewMeasured wraps a backend with its latency metric.
func NewMeasured(b Named, m *Metrics) *Measured { return &Measured{b: b, m: m} }

// Search implements Searcher.
func (s *Measured) Search(ctx context.Context, q Query) (Results, error) {
	return Observe(ctx, s.m, s.b, func(ctx context.Context, x Searcher) (Results, error) { return x.Search(ctx, q) })
}

// Similar implements Searcher.
func (s *Measured) Similar(ctx context.Context, sku string, limit int) ([]catalog.Product, error) {
	return Observe(ctx, s.m, s.b, func(ctx context.Context, x Searcher) ([]catalog.Product, error) {
		return x.Similar(ctx, sku, limit)
	})
}
