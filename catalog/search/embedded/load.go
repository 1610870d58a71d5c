package embedded

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// loadBatch is how many products one query reads.
const loadBatch = 2000

// loadAll reads every product that is not a variant with its category, in
// id order, one batch at a time; the next batch is read while fn indexes
// the current one.
func loadAll(ctx context.Context, db bun.IDB, fn func([]catalog.Product)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []catalog.Product, 1)
	errc := make(chan error, 1)
	go func() {
		defer close(batches)
		errc <- readBatches(ctx, db, batches)
	}()
	for ps := range batches {
		fn(ps)
	}
	return <-errc
}

func readBatches(ctx context.Context, db bun.IDB, out chan<- []catalog.Product) error {
	var after int64
	for {
		var ps []catalog.Product
		err := db.NewSelect().Model(&ps).Relation("Category").
			Where("product.parent_id IS NULL").Where("product.id > ?", after).Order("product.id").Limit(loadBatch).Scan(ctx)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			return nil
		}
		select {
		case out <- ps:
		case <-ctx.Done():
			return ctx.Err()
		}
		if len(ps) < loadBatch {
			return nil
		}
		after = ps[len(ps)-1].ID
	}
}

// loadProducts reads the products with these SKUs; unknown SKUs are left
// out. Variants are replaced by their parents, and every product comes
// with its variants, by parent id. variants lists the SKUs that are
// variants.
func loadProducts(ctx context.Context, db bun.IDB, skus []string) (ps []catalog.Product, fams map[int64][]variantRow, variants map[string]bool, err error) {
	variants = map[string]bool{}
	have := map[int64]bool{}
	var parents []int64
	for lo := 0; lo < len(skus); lo += loadBatch {
		batch, err := catalog.GetProducts(ctx, db, skus[lo:min(lo+loadBatch, len(skus))])
		if err != nil {
			return nil, nil, nil, err
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
	for lo := 0; lo < len(parents); lo += loadBatch {
		var batch []catalog.Product
		err := db.NewSelect().Model(&batch).Relation("Category").
			Where("product.id IN (?)", bun.List(parents[lo:min(lo+loadBatch, len(parents))])).
			Where("product.parent_id IS NULL").Order("product.id").Scan(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		ps = append(ps, batch...)
	}
	ids := make([]int64, len(ps))
	for i := range ps {
		ids[i] = ps[i].ID
	}
	fams, err = loadVariantsOf(ctx, db, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	return ps, fams, variants, nil
}

// change is a product's last write as Follow sees it.
type change struct {
	ID        int64     `bun:"id"`
	SKU       string    `bun:"sku"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// loadChanges returns up to limit products written at or after since,
// ordered by (updated_at, id) and starting after the key (since, afterID).
func loadChanges(ctx context.Context, db bun.IDB, since time.Time, afterID int64, limit int) ([]change, error) {
	var cs []change
	err := db.NewSelect().Model((*catalog.Product)(nil)).Column("id", "sku", "updated_at").
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("updated_at > ?", since).
				WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
					return q.Where("updated_at = ?", since).Where("id > ?", afterID)
				})
		}).
		Order("updated_at", "id").Limit(int64(limit)).Scan(ctx, &cs)
	return cs, err
}

// loadSKUs returns every product's SKU.
func loadSKUs(ctx context.Context, db bun.IDB) ([]string, error) {
	var skus []string
	err := db.NewSelect().Model((*catalog.Product)(nil)).Column("sku").Scan(ctx, &skus)
	return skus, err
}
