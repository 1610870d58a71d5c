package embedded

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
	"shopbot/catalog/search/vectorizer"
)

var _ search.Searcher = (*Index)(nil)

// Options configures an Index.
type Options struct {
	// Synonyms are groups of interchangeable terms, such as {"sofa", "couch"}.
	// Nil means analysis.SearchSynonyms (the tuned groups and the retail
	// lexicon); an empty non-nil slice means none. The shop's own groups
	// (catalog.SynonymGroup) are added to them as Rebuild and Follow read
	// them from the database (shop_synonyms.go).
	Synonyms [][]string
	// Poll is how often Follow looks for changed products; default 500ms.
	Poll   time.Duration
	Logger *slog.Logger
	// Embedder adds vector similarity to relevance ranking (hybrid
	// search, hybrid.go); nil ranks by keywords alone.
	Embedder vectorizer.Embedder
	// Alpha is the weight of vector similarity in the fused score: 0 is
	// keywords only, 1 vectors only. Nil means search.DefaultAlpha when
	// there is an Embedder (set it with new(0.5)); values are clamped to
	// [0, 1].
	Alpha *float64
	// MinSimilarity is the similarity a product needs to be a result
	// without a keyword match; 0 means search.DefaultMinSimilarity.
	MinSimilarity float64
}

// Index is the in-process product search index. It is safe for concurrent
// use: searches run in parallel, updates take turns.
type Index struct {
	base [][]string                        // Options.Synonyms
	syn  atomic.Pointer[analysis.Synonyms] // base and the shop's own groups
	shop string                            // catalog.SynonymsVersion of the shop groups in syn; guarded by writeMu
	poll time.Duration
	log  *slog.Logger

	mu sync.RWMutex // guards st
	st *state

	// writeMu serializes Rebuild, Upsert and Follow: each reads the
	// database and then changes st, and must not interleave with another.
	writeMu  sync.Mutex
	an       *analyzer
	built    bool
	lastFill time.Time // fillMissing's last attempt

	emb      vectorizer.Embedder // nil: keywords only
	alpha    float32
	floor    float32
	lastWarn atomic.Int64 // unix nanoseconds of the last query embedding warning
}

// New returns an empty index; call Rebuild (or Follow) to fill it.
func New(opts Options) *Index {
	if opts.Synonyms == nil {
		opts.Synonyms = analysis.SearchSynonyms()
	}
	if opts.Poll <= 0 {
		opts.Poll = 500 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	x := &Index{base: opts.Synonyms, poll: opts.Poll, log: opts.Logger, st: newState(), an: newAnalyzer(),
		emb: opts.Embedder, floor: float32(cmp.Or(opts.MinSimilarity, search.DefaultMinSimilarity))}
	x.syn.Store(analysis.NewSynonyms(opts.Synonyms))
	if x.emb != nil {
		x.alpha = search.DefaultAlpha
		if opts.Alpha != nil {
			x.alpha = float32(min(max(*opts.Alpha, 0), 1))
		}
	}
	return x
}

// Len returns the number of indexed products, inactive ones included.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.st.live()
}

// Rebuild loads every product from db into a new index generation and
// swaps it in; searches keep using the old one until then.
func (x *Index) Rebuild(ctx context.Context, db search.Catalog) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	return x.rebuild(ctx, db)
}

func (x *Index) rebuild(ctx context.Context, db search.Catalog) error {
	start := time.Now()
	if err := x.loadShopSynonyms(ctx, db); err != nil {
		return err
	}
	b := newBuilder()
	err := db.EachListing(ctx, false, func(ls catalog.Listings) error {
		ps := ls.Products
		for i := range ps {
			fam := familyOf(ls.Variants[ps[i].ID])
			a := x.an.product(&ps[i], fam)
			b.add(ps[i], &a, fam)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("search: embedded: rebuild: %w", err)
	}
	st := b.finish()
	x.embedAll(ctx, st)
	x.mu.Lock()
	x.st = st
	x.mu.Unlock()
	x.built = true
	x.log.DebugContext(ctx, "search index rebuilt", "products", st.live(), "active", st.active,
		"terms", len(st.postings), "duration_ms", time.Since(start).Milliseconds())
	return nil
}

// Upsert reloads the products with these SKUs; those no longer in the
// database are removed. A variant's SKU reloads its parent, with all its
// variants: variants are not documents of their own.
func (x *Index) Upsert(ctx context.Context, db search.Catalog, skus ...string) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	return x.upsert(ctx, db, skus)
}

// applyChunk bounds how many products one write-lock hold changes, so a
// large batch does not stall searches.
const applyChunk = 256

func (x *Index) upsert(ctx context.Context, db search.Catalog, skus []string) error {
	ls, err := db.ListingsOf(ctx, skus)
	ps, vars, variants := ls.Products, ls.Variants, ls.VariantSKUs
	if err != nil {
		return fmt.Errorf("search: embedded: upsert: %w", err)
	}
	found := make(map[string]bool, len(ps))
	as := make([]analyzed, len(ps))
	fams := make([]*family, len(ps))
	for i := range ps {
		found[ps[i].SKU] = true
		fams[i] = familyOf(vars[ps[i].ID])
		as[i] = x.an.product(&ps[i], fams[i])
	}
	want, vecs, err := x.vectorsFor(ctx, x.st, ps, as)
	if err != nil {
		x.log.WarnContext(ctx, "search index: embedding changed products failed; retrying later",
			"embedder", x.emb.Name(), "products", len(ps), "err", err)
	}
	for lo := 0; lo < len(ps); lo += applyChunk {
		hi := min(lo+applyChunk, len(ps))
		x.mu.Lock()
		for i := lo; i < hi; i++ {
			x.st.put(ps[i], &as[i], fams[i])
			if want != nil && want[i] {
				var v []float32
				if err == nil {
					v, vecs = vecs[0], vecs[1:]
				}
				x.st.setVector(ps[i].SKU, v)
			}
		}
		x.mu.Unlock()
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, sku := range skus {
		if !found[sku] {
			x.st.remove(sku) // deleted, or now a variant
		}
		if !variants[sku] {
			delete(x.st.variants, sku) // deleted, or no longer a variant
		}
	}
	return nil
}
