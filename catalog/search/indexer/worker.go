package indexer

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// Index is a search index the worker keeps current.
type Index interface {
	// Upsert re-reads the products with these SKUs from the catalog and
	// writes them to the index, removing those gone or archived.
	Upsert(ctx context.Context, db search.Catalog, skus ...string) error
}

// PassageIndex keeps passages (shop pages, reviews): changed sources
// reach it by their keys (catalog.PassageKey).
type PassageIndex interface {
	UpsertPassages(ctx context.Context, db search.PassageCatalog, keys ...string) error
}

// readier is an Index that can tell whether it is reachable.
type readier interface {
	Ready(ctx context.Context) error
}

// Config tunes a Worker.
type Config struct {
	// Poll is how often the feed is read when idle; default 500 ms.
	Poll time.Duration
	// Batch is how many changes one read returns; default 500.
	Batch int
	// MinBackoff and MaxBackoff bound the wait after a failed delivery;
	// defaults 1 s and 5 min.
	MinBackoff, MaxBackoff time.Duration
	Logger                 *slog.Logger
	Metrics                *Metrics // nil: unregistered series
	// Cursor names the worker's place in the feed (catalog.SaveCursor);
	// default "weaviate". Workers of one shared index share it.
	Cursor string

	// Passages receives changed passage sources; nil skips them.
	Passages PassageIndex
}

// Worker follows the catalog's change feed into an index.
type Worker struct {
	db  bun.IDB
	src catalog.SearchSource
	idx Index
	cfg Config
	log *slog.Logger
	m   *Metrics

	loaded bool
	cur    catalog.FeedCursor
	// done holds what was delivered inside the overlap window, so
	// re-reading the window does not rewrite it: key → updated_at.
	done map[string]time.Time
	// failed are keys a reachable index refused, retried every poll
	// (until the process ends; a reindex covers them then).
	failed map[string]bool
	fails  int // consecutive failed polls, for backoff
}

// New returns a worker following db's change feed into idx (nil: only
// Config.Passages is fed).
func New(db bun.IDB, idx Index, cfg Config) *Worker {
	cfg.Poll = cmp.Or(cfg.Poll, 500*time.Millisecond)
	cfg.Batch = cmp.Or(cfg.Batch, 500)
	cfg.MinBackoff = cmp.Or(cfg.MinBackoff, time.Second)
	cfg.MaxBackoff = cmp.Or(cfg.MaxBackoff, 5*time.Minute)
	cfg.Cursor = cmp.Or(cfg.Cursor, "weaviate")
	m := cfg.Metrics
	if m == nil {
		m = NewMetrics(prometheus.NewRegistry())
	}
	return &Worker{db: db, src: catalog.NewSearchSource(db), idx: idx, cfg: cfg,
		log: cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler)), m: m,
		done: map[string]time.Time{}, failed: map[string]bool{}}
}

// Run follows the feed until ctx ends: at once while a read fills a
// batch, then every Poll; after a failure it waits MinBackoff, doubling
// up to MaxBackoff. Errors are logged and retried.
func (w *Worker) Run(ctx context.Context) error {
	for {
		n, err := w.Drain(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		wait := w.cfg.Poll
		if err != nil {
			w.fails++
			wait = w.cfg.MaxBackoff
			if w.fails < 30 {
				wait = min(w.cfg.MinBackoff<<(w.fails-1), w.cfg.MaxBackoff)
			}
			w.log.WarnContext(ctx, "search feed: delivering changes failed; will retry", "retry_in", wait, "err", err)
		} else {
			w.fails = 0
			if n >= w.cfg.Batch {
				continue // more are waiting
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// SetCursor stores the worker's place in the feed at t for every stream:
// a full rebuild that started reading the catalog after t has covered
// every change before it.
func SetCursor(ctx context.Context, db bun.IDB, name string, t time.Time) error {
	t = t.Add(-catalog.FeedOverlap)
	return catalog.SaveCursor(ctx, db, cmp.Or(name, "weaviate"), catalog.FeedCursor{Products: t, Passages: t, Tombstones: t})
}

// change is one key the feed gave and when it was written.
type change struct {
	key string // a SKU, or "\x00" + a passage key
	at  time.Time
}

// Drain delivers what the feed has after the worker's cursor (re-reading
// catalog.FeedOverlap behind it) and returns how many changes it read.
func (w *Worker) Drain(ctx context.Context) (int, error) {
	if !w.loaded {
		c, err := catalog.LoadCursor(ctx, w.db, w.cfg.Cursor)
		if err != nil {
			return 0, err
		}
		w.cur, w.loaded = c, true
	}
	cs, next, err := w.read(ctx)
	if err != nil {
		return 0, err
	}
	var todo []change
	for _, c := range cs {
		if at, ok := w.done[c.key]; !ok || !at.Equal(c.at) {
			todo = append(todo, c)
		}
	}
	for k := range w.failed {
		todo = append(todo, change{key: k})
	}
	w.m.pending.Set(float64(len(todo)))
	if err := w.deliverAll(ctx, todo); err != nil {
		return 0, err
	}
	w.m.pending.Set(0)
	w.cur = next
	if len(todo) > 0 {
		if err := catalog.SaveCursor(ctx, w.db, w.cfg.Cursor, next); err != nil {
			return 0, err
		}
	}
	w.forget()
	return len(cs), nil
}

// read returns the changes after the cursor less the overlap, and the
// cursor past them.
func (w *Worker) read(ctx context.Context) ([]change, catalog.FeedCursor, error) {
	next, limit := w.cur, w.cfg.Batch
	var out []change
	ps, err := w.src.ChangedSince(ctx, catalog.FeedSince(w.cur.Products), 0, limit)
	if err != nil {
		return nil, next, err
	}
	if len(ps) == limit && !ps[len(ps)-1].UpdatedAt.After(w.cur.Products) {
		// The window alone fills a batch: page on from the cursor itself.
		ps, err = w.src.ChangedSince(ctx, w.cur.Products, w.cur.ProductID, limit)
		if err != nil {
			return nil, next, err
		}
	}
	for _, c := range ps {
		out = append(out, change{c.SKU, c.UpdatedAt})
	}
	if len(ps) > 0 {
		last := ps[len(ps)-1]
		if last.UpdatedAt.After(next.Products) || (last.UpdatedAt.Equal(next.Products) && last.ID > next.ProductID) {
			next.Products, next.ProductID = last.UpdatedAt, last.ID
		}
	}
	// Passage changes and tombstones have no keyset to page by: a window
	// that fills a read is read again, larger, so none is passed over.
	pcs, err := readAll(func(n int) ([]catalog.PassageChange, error) {
		return w.src.PassageChanges(ctx, catalog.FeedSince(w.cur.Passages), n)
	}, limit)
	if err != nil {
		return nil, next, err
	}
	for _, c := range pcs {
		out = append(out, change{"\x00" + catalog.PassageKey(c.Kind, c.Ref), c.UpdatedAt})
		next.Passages = maxTime(next.Passages, c.UpdatedAt)
	}
	ts, err := readAll(func(n int) ([]catalog.Tombstone, error) {
		return w.src.Tombstones(ctx, catalog.FeedSince(w.cur.Tombstones), n)
	}, limit)
	if err != nil {
		return nil, next, err
	}
	for _, t := range ts {
		k := t.Key
		if t.Kind == catalog.TombstonePassages {
			k = "\x00" + k
		}
		out = append(out, change{k, t.DeletedAt})
		next.Tombstones = maxTime(next.Tombstones, t.DeletedAt)
	}
	return out, next, nil
}

// readAll calls read with a growing limit until it returns fewer rows.
func readAll[T any](read func(limit int) ([]T, error), limit int) ([]T, error) {
	for {
		rows, err := read(limit)
		if err != nil || len(rows) < limit {
			return rows, err
		}
		limit *= 4
	}
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// deliverAll delivers cs; when the index is reachable but refuses the
// batch, one by one, keeping the refused ones for the next poll.
func (w *Worker) deliverAll(ctx context.Context, cs []change) error {
	if len(cs) == 0 {
		return nil
	}
	err := w.deliver(ctx, cs)
	if err == nil {
		return nil
	}
	w.m.failures.Add(float64(len(cs)))
	if ctx.Err() != nil || len(cs) == 1 || !w.reachable(ctx) {
		return err
	}
	for _, c := range cs {
		if err := w.deliver(ctx, []change{c}); err != nil {
			w.m.failures.Inc()
			w.log.WarnContext(ctx, "search feed: the index refused a change; retrying it every poll", "key", c.key, "err", err)
			w.failed[c.key] = true
		}
	}
	return nil
}

// deliver upserts the products and passage sources of cs.
func (w *Worker) deliver(ctx context.Context, cs []change) error {
	var skus, keys []string
	for _, c := range cs {
		if k, ok := cutPassage(c.key); ok {
			keys = append(keys, k)
		} else {
			skus = append(skus, c.key)
		}
	}
	slices.Sort(skus)
	skus = slices.Compact(skus)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if w.idx != nil && len(skus) > 0 {
		if err := w.idx.Upsert(ctx, w.src, skus...); err != nil {
			return err
		}
	}
	if w.cfg.Passages != nil && len(keys) > 0 {
		if err := w.cfg.Passages.UpsertPassages(ctx, w.src, keys...); err != nil {
			return fmt.Errorf("passages: %w", err)
		}
	}
	for _, c := range cs {
		delete(w.failed, c.key)
		if !c.at.IsZero() {
			w.done[c.key] = c.at
		}
	}
	w.m.delivered.Add(float64(len(cs)))
	return nil
}

func cutPassage(k string) (string, bool) {
	if len(k) > 0 && k[0] == 0 {
		return k[1:], true
	}
	return "", false
}

// forget drops what was delivered before the overlap window of every
// stream: the feed will not give it again.
func (w *Worker) forget() {
	oldest := w.cur.Products
	if !w.cur.Passages.IsZero() && w.cur.Passages.Before(oldest) {
		oldest = w.cur.Passages
	}
	if !w.cur.Tombstones.IsZero() && w.cur.Tombstones.Before(oldest) {
		oldest = w.cur.Tombstones
	}
	oldest = oldest.Add(-2 * catalog.FeedOverlap)
	for k, at := range w.done {
		if at.Before(oldest) {
			delete(w.done, k)
		}
	}
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
