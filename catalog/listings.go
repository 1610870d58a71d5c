package catalog

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// Listings are what a search backend indexes: a product that is not a
// variant (a listing), with its category and, for a product with
// variants, its variants. These are the only reads the search backends
// (catalog/search/embedded and weaviate) make of the catalog, and
// ChangedSince is the one change feed both follow.

// listingBatch is how many listings one query reads.
const listingBatch = 2000

// EachListing calls fn with every listing and its category, in id order,
// one batch at a time (activeOnly leaves out archived ones); the next
// batch is read while fn works on the current one. An error from fn stops
// the walk and is returned.
func EachListing(ctx context.Context, db bun.IDB, activeOnly bool, fn func([]Product) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []Product, 1)
	errc := make(chan error, 1)
	go func() {
		defer close(batches)
		errc <- readListings(ctx, db, activeOnly, batches)
	}()
	for ps := range batches {
		if err := fn(ps); err != nil {
			cancel()
			for range batches {
			}
			<-errc
			return err
		}
	}
	return <-errc
}

func readListings(ctx context.Context, db bun.IDB, activeOnly bool, out chan<- []Product) error {
	var after int64
	for {
		var ps []Product
		q := db.NewSelect().Model(&ps).Relation("Category").
			Where("product.parent_id IS NULL").Where("product.id > ?", after).Order("product.id").Limit(listingBatch)
		if err := q.Scan(ctx); err != nil {
			return fmt.Errorf("catalog: listings: %w", err)
		}
		if len(ps) == 0 {
			return nil
		}
		last, full := ps[len(ps)-1].ID, len(ps) == listingBatch
		if activeOnly {
			ps = slices.DeleteFunc(ps, func(p Product) bool { return !p.Active })
		}
		if len(ps) > 0 {
			select {
			case out <- ps:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if !full {
			return nil
		}
		after = last
	}
}

// ListingsOf reads the listings the products with these SKUs belong to,
// with their categories: a listing's SKU gives itself, a variant's its
// parent (once, however many of its variants are named). Unknown SKUs
// are left out. variants lists the SKUs that named a variant.
func ListingsOf(ctx context.Context, db bun.IDB, skus []string) (ps []Product, variants map[string]bool, err error) {
	variants = map[string]bool{}
	have := map[int64]bool{}
	var parents []int64
	for lo := 0; lo < len(skus); lo += listingBatch {
		batch, err := GetProducts(ctx, db, skus[lo:min(lo+listingBatch, len(skus))])
		if err != nil {
			return nil, nil, err
		}
		for _, p := range batch {
			if p.ParentID != nil {
				variants[p.SKU] = true
				parents = append(parents, *p.ParentID)
				continue
			}
			have[p.ID] = true
			ps = append(ps, p)
		}
	}
	parents = slices.DeleteFunc(parents, func(id int64) bool { return have[id] })
	slices.Sort(parents)
	parents = slices.Compact(parents)
	for lo := 0; lo < len(parents); lo += listingBatch {
		var batch []Product
		err := db.NewSelect().Model(&batch).Relation("Category").
			Where("product.id IN (?)", bun.List(parents[lo:min(lo+listingBatch, len(parents))])).
			Where("product.parent_id IS NULL").Order("product.id").Scan(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("catalog: listings of variants: %w", err)
		}
		ps = append(ps, batch...)
	}
	return ps, variants, nil
}

// VariantRow is what a search index reads of a variant: less than a
// Product, so a catalog of many variants loads in little memory.
type VariantRow struct {
	bun.BaseModel `bun:"table:products,alias:product"`

	ID        int64             `bun:"id"`
	SKU       string            `bun:"sku"`
	ParentID  int64             `bun:"parent_id"`
	Options   map[string]string `bun:"options"`
	Price     int64             `bun:"price"`
	Stock     int               `bun:"stock"`
	Active    bool              `bun:"active"`
	UpdatedAt time.Time         `bun:"updated_at"`
}

// VariantRowsOf reads the variants of these listings, by parent id, in id
// order.
func VariantRowsOf(ctx context.Context, db bun.IDB, parents []int64) (map[int64][]VariantRow, error) {
	out := map[int64][]VariantRow{}
	for lo := 0; lo < len(parents); lo += listingBatch {
		var vs []VariantRow
		err := db.NewSelect().Model(&vs).Where("product.parent_id IN (?)", bun.List(parents[lo:min(lo+listingBatch, len(parents))])).
			Order("product.id").Scan(ctx)
		if err != nil {
			return nil, fmt.Errorf("catalog: variant rows: %w", err)
		}
		for _, v := range vs {
			out[v.ParentID] = append(out[v.ParentID], v)
		}
	}
	return out, nil
}

// AllVariantRows reads every variant, by parent id, one batch at a time.
func AllVariantRows(ctx context.Context, db bun.IDB) (map[int64][]VariantRow, error) {
	out := map[int64][]VariantRow{}
	var after int64
	for {
		var vs []VariantRow
		err := db.NewSelect().Model(&vs).Where("product.parent_id IS NOT NULL").Where("product.id > ?", after).
			Order("product.id").Limit(listingBatch * 5).Scan(ctx)
		if err != nil {
			return nil, fmt.Errorf("catalog: variant rows: %w", err)
		}
		for _, v := range vs {
			out[v.ParentID] = append(out[v.ParentID], v)
		}
		if len(vs) < listingBatch*5 {
			return out, nil
		}
		after = vs[len(vs)-1].ID
	}
}

// Change is a product's last write, as the change feed gives it.
type Change struct {
	ID        int64     `bun:"id"`
	SKU       string    `bun:"sku"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// ChangedSince is the catalog's change feed: up to limit products
// (listings and variants) written at or after since, ordered by
// (updated_at, id) and starting after the key (since, afterID). Product
// writes move updated_at, so a reader that keeps its place in this order
// sees every change (the embedded index follows it, with an overlap for
// writes committed out of order).
func ChangedSince(ctx context.Context, db bun.IDB, since time.Time, afterID int64, limit int) ([]Change, error) {
	var cs []Change
	err := db.NewSelect().Model((*Product)(nil)).Column("id", "sku", "updated_at").
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("updated_at > ?", since).
				WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
					return q.Where("updated_at = ?", since).Where("id > ?", afterID)
				})
		}).
		Order("updated_at", "id").Limit(int64(limit)).Scan(ctx, &cs)
	if err != nil {
		return nil, fmt.Errorf("catalog: changes: %w", err)
	}
	return cs, nil
}

// AllSKUs returns every product's SKU, listings and variants.
func AllSKUs(ctx context.Context, db bun.IDB) ([]string, error) {
	var skus []string
	if err := db.NewSelect().Model((*Product)(nil)).Column("sku").Scan(ctx, &skus); err != nil {
		return nil, fmt.Errorf("catalog: SKUs: %w", err)
	}
	return skus, nil
}
