package embedded

import (
	"context"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// loadProducts reads the listings the products with these SKUs belong to,
// each with its variants by parent id; variants lists the SKUs that named
// a variant.
func loadProducts(ctx context.Context, db bun.IDB, skus []string) (ps []catalog.Product, fams map[int64][]catalog.VariantRow, variants map[string]bool, err error) {
	ps, variants, err = catalog.ListingsOf(ctx, db, skus)
	if err != nil {
		return nil, nil, nil, err
	}
	ids := make([]int64, len(ps))
	for i := range ps {
		ids[i] = ps[i].ID
	}
	fams, err = catalog.VariantRowsOf(ctx, db, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	return ps, fams, variants, nil
}
