package embedded

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// loadBatch is how many products one query reads.
const loadBatch = 2000

// loadAll reads every product with its category, in id order, one batch
// at a time; the next batch is read while fn indexes the current one.
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
			Where("product.id > ?", after).Order("product.id").Limit(loadBatch).Scan(ctx)
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
// out.
func loadProducts(ctx context.Context, db bun.IDB, skus []string) ([]catalog.Product, error) {
	var out []catalog.Product
	for lo := 0; lo < len(skus); lo += loadBatch {
		ps, err := catalog.GetProducts(ctx, db, skus[lo:min(lo+loadBatch, len(skus))])
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
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
