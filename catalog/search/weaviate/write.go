package weaviate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
)

// importBatch is how many objects one batch request carries.
const importBatch = 500

// fitter is an embedder that learns from the catalog (vectorizer.Local).
type fitter interface{ Fit(texts []string) }

// Upsert reads the products with these SKUs from db and writes them to
// the collection; those missing from db or inactive are deleted from it.
// A variant is no object of its own: its SKU rewrites its parent's object
// (the parent and its variants make one).
func (b *Backend) Upsert(ctx context.Context, db search.Catalog, skus ...string) error {
	if len(skus) == 0 {
		return nil
	}
	if err := b.ensure(ctx); err != nil {
		return err
	}
	ls, err := db.ListingsOf(ctx, skus)
	if err != nil {
		return fmt.Errorf("weaviate: upsert: %w", err)
	}
	found := map[string]bool{}
	active := slices.DeleteFunc(ls.Products, func(p catalog.Product) bool { return !p.Active })
	for _, p := range active {
		found[p.SKU] = true
	}
	vars := variantsOf(ls.Variants)
	for lo := 0; lo < len(active); lo += importBatch {
		if err := b.put(ctx, active[lo:min(lo+importBatch, len(active))], vars, generation()); err != nil {
			return err
		}
	}
	var gone []string
	for _, s := range skus {
		if !found[s] {
			gone = append(gone, s)
		}
	}
	return b.Delete(ctx, gone...)
}

// variantsOf is the listing loader's variant rows as the products
// object reads (search.OptionText and the option keys).
func variantsOf(rows map[int64][]catalog.VariantRow) map[int64][]catalog.Product {
	out := make(map[int64][]catalog.Product, len(rows))
	for id, vs := range rows {
		ps := make([]catalog.Product, len(vs))
		for i := range vs {
			ps[i] = vs[i].Product()
		}
		out[id] = ps
	}
	return out
}

// put embeds products and imports them in one batch, each with its
// variants from vars.
func (b *Backend) put(ctx context.Context, ps []catalog.Product, vars map[int64][]catalog.Product, gen int64) error {
	texts := make([]string, len(ps))
	for i := range ps {
		texts[i] = analysis.VectorText(&ps[i])
	}
	vecs, err := b.emb.Embed(ctx, texts)
	if err == nil && len(vecs) != len(ps) {
		err = errors.New("embedder returned a wrong number of vectors")
	}
	if err != nil {
		return fmt.Errorf("weaviate: embed %d products: %w", len(ps), err)
	}
	objs := make([]*models.Object, len(ps))
	for i := range ps {
		if objs[i], err = b.object(&ps[i], vars[ps[i].ID], vecs[i], gen); err != nil {
			return err
		}
	}
	resp, err := b.client.Batch().ObjectsBatcher().WithObjects(objs...).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: import %d products: %w", len(ps), err)
	}
	for _, r := range resp {
		if r.Result != nil && r.Result.Errors != nil && len(r.Result.Errors.Error) > 0 {
			return fmt.Errorf("weaviate: import %s: %s", sku(r.Properties), r.Result.Errors.Error[0].Message)
		}
	}
	return nil
}

func sku(props any) string {
	if m, ok := props.(map[string]any); ok {
		if s, ok := m["sku"].(string); ok {
			return s
		}
	}
	return "a product"
}

// Delete removes the products with these SKUs from the collection;
// unknown SKUs are ignored.
func (b *Backend) Delete(ctx context.Context, skus ...string) error {
	if len(skus) == 0 {
		return nil
	}
	if err := b.ensure(ctx); err != nil {
		return err
	}
	for lo := 0; lo < len(skus); lo += importBatch {
		w := filters.Where().WithPath([]string{"sku"}).WithOperator(filters.ContainsAny).
			WithValueText(cleanAll(skus[lo:min(lo+importBatch, len(skus))])...)
		if err := b.deleteWhere(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// deleteWhere deletes every object matching w, in rounds (a round deletes
// at most QUERY_MAXIMUM_RESULTS objects).
func (b *Backend) deleteWhere(ctx context.Context, w *filters.WhereBuilder) error {
	for {
		resp, err := b.client.Batch().ObjectsBatchDeleter().WithClassName(b.class).WithWhere(w).WithOutput("minimal").Do(ctx)
		if err != nil {
			return fmt.Errorf("weaviate: delete: %w", err)
		}
		if resp.Results == nil || resp.Results.Matches == 0 {
			return nil
		}
		if resp.Results.Failed > 0 {
			return fmt.Errorf("weaviate: delete: %d of %d objects failed", resp.Results.Failed, resp.Results.Matches)
		}
		if resp.Results.Matches < resp.Results.Limit {
			return nil
		}
	}
}

// generation stamps a write: Unix milliseconds, exact in the float64
// numbers of Weaviate's gRPC properties (nanoseconds are not).
func generation() int64 { return time.Now().UnixMilli() }

// Progress is told how many products Rebuild has written of how many.
type Progress func(done, total int)

// Rebuild writes every active product of db to the collection and then
// deletes the objects older than the rebuild (products gone or inactive).
// Searches keep working meanwhile. When the collection holds vectors of
// another embedder it is dropped and recreated first. The embedder is
// fitted on the catalog when it learns from it.
func (b *Backend) Rebuild(ctx context.Context, db search.Catalog, progress Progress) error {
	gen := generation()
	changed, err := b.embedderChanged(ctx)
	if err == nil && changed {
		b.log.WarnContext(ctx, "weaviate: the collection was made for another schema or embedder; recreating it", "collection", b.class, "embedder", b.emb.Name())
		err = b.recreate(ctx)
	}
	if err == nil {
		err = b.ensure(ctx)
	}
	if err != nil {
		return err
	}
	ps, vars, err := loadActive(ctx, db)
	if err != nil {
		return fmt.Errorf("weaviate: rebuild: %w", err)
	}
	if f, ok := b.emb.(fitter); ok {
		texts := make([]string, len(ps))
		for i := range ps {
			texts[i] = analysis.VectorText(&ps[i])
		}
		f.Fit(texts)
	}
	if err := b.importAll(ctx, ps, vars, gen, progress); err != nil {
		return err
	}
	stale := filters.Where().WithPath([]string{"generation"}).WithOperator(filters.LessThan).WithValueInt(gen)
	return b.deleteWhere(ctx, stale)
}

// importAll imports products in batches, two requests in flight (one
// embeds while Weaviate indexes the other).
func (b *Backend) importAll(ctx context.Context, ps []catalog.Product, vars map[int64][]catalog.Product, gen int64, progress Progress) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type batch struct{ lo, hi int }
	batches := (len(ps) + importBatch - 1) / importBatch
	work := make(chan batch)
	done := make(chan int, batches) // workers never block on it
	const workers = 2
	for range workers {
		go func() {
			for bt := range work {
				if err := b.putRetrying(ctx, ps[bt.lo:bt.hi], vars, gen); err != nil {
					cancel(err)
				}
				done <- bt.hi - bt.lo
			}
		}()
	}
	go func() {
		defer close(work)
		for lo := 0; lo < len(ps); lo += importBatch {
			select {
			case work <- batch{lo, min(lo+importBatch, len(ps))}:
			case <-ctx.Done():
				return
			}
		}
	}()
	n := 0
	for range batches {
		select {
		case k := <-done:
			n += k
			if progress != nil {
				progress(n, len(ps))
			}
		case <-ctx.Done():
			return fmt.Errorf("weaviate: rebuild: %w", context.Cause(ctx))
		}
	}
	return nil
}

// putRetrying is put with two retries a few seconds apart: one slow or
// dropped batch should not fail a rebuild of a whole catalog.
func (b *Backend) putRetrying(ctx context.Context, ps []catalog.Product, vars map[int64][]catalog.Product, gen int64) error {
	var err error
	for attempt := range 3 {
		if err = b.put(ctx, ps, vars, gen); err == nil || ctx.Err() != nil {
			return err
		}
		b.log.WarnContext(ctx, "weaviate: import batch failed; retrying", "attempt", attempt+1, "err", err)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt+1) * 2 * time.Second):
		}
	}
	return err
}

// loadActive reads every active listing, with its category, in id order,
// and their variants by parent id.
func loadActive(ctx context.Context, db search.Catalog) ([]catalog.Product, map[int64][]catalog.Product, error) {
	var out []catalog.Product
	vars := map[int64][]catalog.Product{}
	err := db.EachListing(ctx, true, func(ls catalog.Listings) error {
		out = append(out, ls.Products...)
		for id, vs := range variantsOf(ls.Variants) {
			vars[id] = vs
		}
		return nil
	})
	return slices.Clip(out), vars, err
}
