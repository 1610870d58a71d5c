package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// DemoState says whether the demo shop was ever loaded into this database
// (the settings row demo_state): it decides whether a start loads the demo
// into an empty shop and whether the panel offers to remove it.
type DemoState string

const (
	// DemoUndecided: neither loaded nor removed yet; a start with the demo
	// on loads it into an empty shop.
	DemoUndecided DemoState = ""
	// DemoLoaded: the demo's rows are in the shop (marked demo).
	DemoLoaded DemoState = "loaded"
	// DemoRemoved: the merchant removed the demo; it is never loaded again.
	DemoRemoved DemoState = "removed"
	// DemoAbsent: the shop had its own products when provenance was first
	// recorded, and none of the demo's.
	DemoAbsent DemoState = "absent"
)

const demoStateKey = "demo_state"

// GetDemoState reads the demo's state; DemoUndecided when never written.
func GetDemoState(ctx context.Context, db bun.IDB) (DemoState, error) {
	var rows []setting
	if err := db.NewSelect().Model(&rows).Where("key = ?", demoStateKey).Scan(ctx); err != nil {
		return "", fmt.Errorf("catalog: read demo state: %w", err)
	}
	if len(rows) == 0 {
		return DemoUndecided, nil
	}
	return DemoState(rows[0].Value), nil
}

// SetDemoState records the demo's state; writing the state it has already
// changes nothing.
func SetDemoState(ctx context.Context, db bun.IDB, st DemoState, now time.Time) error {
	row := setting{Key: demoStateKey, Value: string(st), UpdatedAt: now.UTC()}
	_, err := db.NewInsert().Model(&row).
		On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value, updated_at = EXCLUDED.updated_at").
		Where("setting.value <> EXCLUDED.value").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: save demo state: %w", err)
	}
	return nil
}

// DemoRows names what the demo shop wrote, for MarkDemo.
type DemoRows struct {
	SKUs       []string // listings and variants
	PageSlugs  []string
	Deliveries []string // delivery method names
	PromoCodes []string
}

// MarkDemo records that the rows named are the demo's: the products with
// these SKUs, their reviews that no shopper wrote and no import brought
// (no customer, no import key), the pages, delivery methods and promo
// codes. RemoveDemo removes what is marked.
func MarkDemo(ctx context.Context, db bun.IDB, rows DemoRows) (products int, err error) {
	mark := func(q *bun.UpdateQuery) (int, error) {
		res, err := q.Set("demo = ?", true).Where("NOT demo").Exec(ctx)
		if err != nil {
			return 0, fmt.Errorf("catalog: mark demo rows: %w", err)
		}
		n, _ := res.RowsAffected()
		return int(n), nil
	}
	for lo := 0; lo < len(rows.SKUs); lo += 500 {
		n, err := mark(db.NewUpdate().Model((*Product)(nil)).Where("sku IN (?)", bun.List(rows.SKUs[lo:min(lo+500, len(rows.SKUs))])))
		if err != nil {
			return 0, err
		}
		products += n
	}
	demoIDs := db.NewSelect().Model((*Product)(nil)).Column("id").Where("demo")
	if _, err := mark(db.NewUpdate().Model((*Review)(nil)).
		Where("product_id IN (?) AND customer_id IS NULL AND import_key IS NULL", demoIDs)); err != nil {
		return 0, err
	}
	if len(rows.PageSlugs) > 0 {
		if _, err := mark(db.NewUpdate().Model((*Page)(nil)).Where("slug IN (?)", bun.List(rows.PageSlugs))); err != nil {
			return 0, err
		}
	}
	if len(rows.Deliveries) > 0 {
		if _, err := mark(db.NewUpdate().Model((*DeliveryMethod)(nil)).Where("name IN (?)", bun.List(rows.Deliveries))); err != nil {
			return 0, err
		}
	}
	if len(rows.PromoCodes) > 0 {
		if _, err := mark(db.NewUpdate().Model((*PromoCode)(nil)).Where("code IN (?)", bun.List(rows.PromoCodes))); err != nil {
			return 0, err
		}
	}
	return products, nil
}
