package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// archiveChunk is how many products one archiving transaction touches.
const archiveChunk = 500

// AbsentProducts returns the SKUs of the active products (variants
// included) that keep does not name and that nothing wrote since before,
// and how many products are active in all: what a complete feed would
// archive, and out of how many. A product written after before (added in
// the panel while a feed was fetched) is never a candidate.
func AbsentProducts(ctx context.Context, db bun.IDB, keep func(sku string) bool, before time.Time) (absent []string, active int, err error) {
	var skus []string
	err = db.NewSelect().Model((*Product)(nil)).Column("sku").
		Where("active = ?", true).Where("updated_at < ?", before.UTC()).Order("sku").Scan(ctx, &skus)
	if err != nil {
		return nil, 0, fmt.Errorf("catalog: absent products: %w", err)
	}
	for _, s := range skus {
		if !keep(s) {
			absent = append(absent, s)
		}
	}
	n, err := db.NewSelect().Model((*Product)(nil)).Where("active = ?", true).Count(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("catalog: count active products: %w", err)
	}
	return absent, int(n), nil
}

// ArchiveProducts archives (never deletes) the products of skus that are
// still active and unwritten since before, with their search updates and
// their parents' roll-ups, a chunk per transaction, and returns how many
// it archived. A product written meanwhile is left as it is.
func ArchiveProducts(ctx context.Context, db bun.IDB, skus []string, before time.Time) (int, error) {
	total := 0
	for len(skus) > 0 {
		chunk := skus[:min(len(skus), archiveChunk)]
		skus = skus[len(chunk):]
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var done []string
			err := tx.NewUpdate().Model((*Product)(nil)).
				Set("active = ?", false).Set("updated_at = ?", time.Now().UTC()).
				Where("sku IN (?)", bun.List(chunk)).Where("active = ?", true).Where("updated_at < ?", before.UTC()).
				Returning("sku").Scan(ctx, &done)
			if err != nil || len(done) == 0 {
				return err
			}
			if err := wakeStockAlertsBySKU(ctx, tx, done...); err != nil {
				return err
			}
			total += len(done)
			return RollupParents(ctx, tx, done...)
		})
		if err != nil {
			return total, fmt.Errorf("catalog: archive products: %w", err)
		}
	}
	return total, nil
}
