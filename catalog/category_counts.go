package catalog

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// CategoryProductCounts returns how many active listings (plain products
// and parents; not their variants) each category holds directly, by
// category id. Categories without active products are
// absent; add up a Subtree for the count of a whole branch.
func CategoryProductCounts(ctx context.Context, db bun.IDB) (map[int64]int, error) {
	var rows []struct {
		CategoryID int64 `bun:"category_id"`
		N          int   `bun:"n"`
	}
	err := db.NewSelect().Model((*Product)(nil)).
		Column("category_id").ColumnExpr("COUNT(*) AS n").
		Where("active = ?", true).Where("category_id IS NOT NULL").Where("parent_id IS NULL").
		Group("category_id").
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("catalog: count products per category: %w", err)
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.CategoryID] = r.N
	}
	return out, nil
}
