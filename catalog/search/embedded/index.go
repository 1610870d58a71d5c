package embedded

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

var _ search.Searcher = (*Index)(nil)

// Options configures an Index.
type Options struct {
	// Synonyms are groups of interchangeable terms, such as {"sofa", "couch"}.
	// Nil means DefaultSynonyms; an empty non-nil slice means none.
	Synonyms [][]string
	// Poll is how often Follow looks for changed products; default 500ms.
	Poll   time.Duration
	Logger *slog.Logger
}

// Index is the in-process product search index. It is safe for concurrent
// use: searches run in parallel, updates take turns.
type Index struct {
	syn  *synonyms
	poll time.Duration
	log  *slog.Logger

	mu sync.RWMutex // guards st
	st *state

	// writeMu serializes Rebuild, Upsert and Follow: each reads the
	// database and then changes st, and must not interleave with another.
	writeMu sync.Mutex
	an      *analyzer
	built   bool
}

// New returns an empty index; call Rebuild (or Follow) to fill it.
func New(opts Options) *Index {
	if opts.Synonyms == nil {
		opts.Synonyms = DefaultSynonyms()
	}
	if opts.Poll <= 0 {
		opts.Poll = 500 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Index{syn: newSynonyms(opts.Synonyms), poll: opts.Poll, log: opts.Logger, st: newState(), an: newAnalyzer()}
}

// Len returns the number of indexed products, inactive ones included.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.st.live()
}

// Rebuild loads every product from db into a new index generation and
// swaps it in; searches keep using the old one until then.
func (x *Index) Rebuild(ctx context.Context, db bun.IDB) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	return x.rebuild(ctx, db)
}

func (x *Index) rebuild(ctx context.Context, db bun.IDB) error {
	start := time.Now()
	b := newBuilder()
	err := loadAll(ctx, db, func(ps []catalog.Product) {
		for i := range ps {
			a := x.an.product(&ps[i])
			b.add(ps[i], &a)
		}
	})
	if err != nil {
		return fmt.Errorf("search: embedded: rebuild: %w", err)
	}
	st := b.finish()
	x.mu.Lock()
	x.st = st
	x.mu.Unlock()
	x.built = true
	x.log.DebugContext(ctx, "search index rebuilt", "products", st.live(), "active", st.active,
		"terms", len(st.postings), "duration_ms", time.Since(start).Milliseconds())
	return nil
}

// Upsert reloads the products with these SKUs; those no longer in the
// database are removed.
func (x *Index) Upsert(ctx context.Context, db bun.IDB, skus ...string) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	return x.upsert(ctx, db, skus)
}

// applyChunk bounds how many products one write-lock hold changes, so a
// large batch does not stall searches.
const applyChunk = 256

func (x *Index) upsert(ctx context.Context, db bun.IDB, skus []string) error {
	ps, err := loadProducts(ctx, db, skus)
	if err != nil {
		return fmt.Errorf("search: embedded: upsert: %w", err)
	}
	found := make(map[string]bool, len(ps))
	as := make([]analysis, len(ps))
	for i := range ps {
		found[ps[i].SKU] = true
		as[i] = x.an.product(&ps[i])
	}
	for lo := 0; lo < len(ps); lo += applyChunk {
		hi := min(lo+applyChunk, len(ps))
		x.mu.Lock()
		for i := lo; i < hi; i++ {
			x.st.put(ps[i], &as[i])
		}
		x.mu.Unlock()
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, sku := range skus {
		if !found[sku] {
			x.st.remove(sku)
		}
	}
	return nil
}
