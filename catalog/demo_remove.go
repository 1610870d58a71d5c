package catalog

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"
)

// DemoRemoval counts what RemoveDemo did.
type DemoRemoval struct {
	Listings   int // demo listings deleted (variants not counted)
	Archived   int // demo listings archived because orders refer to them
	Reviews    int // demo reviews deleted
	Pages      int
	Deliveries int
	Promos     int // demo promo codes deleted or, when used, deactivated
}

// Changed reports whether the removal changed anything.
func (r DemoRemoval) Changed() bool { return r != DemoRemoval{} }

// RemoveDemo deletes what the demo shop created (the rows marked demo:
// listings with their variants, reviews, pages, delivery methods, promo
// codes) in one transaction and records DemoRemoved, so the demo is not
// loaded again. A demo listing an order refers to (the listing or one of
// its variants is on an order line) is archived with its variants instead
// of deleted, so the order keeps its product; a used promo code is
// deactivated. The merchant's own rows are never touched, and a demo
// product the merchant edited is still the demo's. Running it again
// changes nothing.
func RemoveDemo(ctx context.Context, db bun.IDB, now time.Time) (DemoRemoval, error) {
	var r DemoRemoval
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		keep, err := demoFamiliesInOrders(ctx, tx)
		if err != nil {
			return err
		}
		if r.Reviews, err = removeDemoReviews(ctx, tx, keep); err != nil {
			return err
		}
		if r.Listings, r.Archived, err = removeDemoProducts(ctx, tx, keep, now); err != nil {
			return err
		}
		if r.Pages, err = removeDemoPages(ctx, tx, now); err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*DeliveryMethod)(nil)).Where("demo").Exec(ctx)
		if r.Deliveries, err = affected(res, err); err != nil {
			return fmt.Errorf("delivery methods: %w", err)
		}
		if r.Promos, err = removeDemoPromos(ctx, tx, now); err != nil {
			return err
		}
		return SetDemoState(ctx, tx, DemoRemoved, now)
	})
	if err != nil {
		return DemoRemoval{}, fmt.Errorf("catalog: remove demo: %w", err)
	}
	return r, nil
}

// removeDemoReviews deletes the demo's reviews, and any review of a demo
// product about to be deleted (it would go with the product), with their
// passages. keep are the demo listings that stay (demoFamiliesInOrders).
func removeDemoReviews(ctx context.Context, tx bun.IDB, keep []int64) (int, error) {
	doomed := demoProductsExcept(tx.NewSelect().Model((*Product)(nil)).Column("id"), keep)
	var ids []int64
	_, err := tx.NewDelete().Model((*Review)(nil)).
		WhereOr("demo").WhereOr("product_id IN (?)", doomed).
		Returning("id").Exec(ctx, &ids)
	if err != nil {
		return 0, fmt.Errorf("reviews: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	refs := make([]string, len(ids))
	keys := make([]string, len(ids))
	for i, id := range ids {
		refs[i] = strconv.FormatInt(id, 10)
		keys[i] = PassageKey(PassageReview, refs[i])
	}
	for lo := 0; lo < len(refs); lo += 500 {
		_, err := tx.NewDelete().Model((*Passage)(nil)).
			Where("kind = ? AND ref IN (?)", PassageReview, bun.List(refs[lo:min(lo+500, len(refs))])).Exec(ctx)
		if err != nil {
			return 0, fmt.Errorf("review passages: %w", err)
		}
	}
	return len(ids), recordDeleted(ctx, tx, TombstonePassages, keys...)
}

// removeDemoProducts deletes the demo's listings that no order refers to,
// with their variants, and archives the rest.
func removeDemoProducts(ctx context.Context, tx bun.IDB, keep []int64, now time.Time) (deleted, archived int, err error) {
	var gone []Product
	q := demoProductsExcept(tx.NewDelete().Model((*Product)(nil)), keep)
	if _, err := q.Returning("sku, parent_id").Exec(ctx, &gone); err != nil {
		return 0, 0, fmt.Errorf("products: %w", err)
	}
	skus := make([]string, len(gone))
	for i, p := range gone {
		skus[i] = p.SKU
		if p.ParentID == nil {
			deleted++
		}
	}
	if err := recordDeleted(ctx, tx, TombstoneProduct, skus...); err != nil {
		return 0, 0, err
	}
	if len(keep) == 0 {
		return deleted, 0, nil
	}
	var hidden []Product
	_, err = tx.NewUpdate().Model((*Product)(nil)).
		Set("active = ?", false).Set("updated_at = ?", now.UTC()).
		Where("demo AND active AND COALESCE(parent_id, id) IN (?)", bun.List(keep)).
		Returning("sku, parent_id").Exec(ctx, &hidden)
	if err != nil {
		return 0, 0, fmt.Errorf("archive products: %w", err)
	}
	skus = skus[:0]
	for _, p := range hidden {
		skus = append(skus, p.SKU)
		if p.ParentID == nil {
			archived++
		}
	}
	return deleted, archived, RollupParents(ctx, tx, skus...)
}

// demoProductsExcept narrows q to the demo's products outside the
// listings keep.
func demoProductsExcept[Q interface{ Where(string, ...any) Q }](q Q, keep []int64) Q {
	q = q.Where("demo")
	if len(keep) > 0 {
		q = q.Where("COALESCE(parent_id, id) NOT IN (?)", bun.List(keep))
	}
	return q
}

// demoFamiliesInOrders returns the ids of the demo listings that an order
// line refers to, itself or through one of its variants.
func demoFamiliesInOrders(ctx context.Context, tx bun.IDB) ([]int64, error) {
	var ids []int64
	err := tx.NewSelect().Model((*Product)(nil)).
		ColumnExpr("DISTINCT COALESCE(product.parent_id, product.id)").
		Where("product.demo").
		Where("product.id IN (?)", tx.NewSelect().Model((*OrderItem)(nil)).Column("product_id").Where("product_id IS NOT NULL")).
		Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("demo products in orders: %w", err)
	}
	return ids, nil
}

// removeDemoPages deletes the demo's pages and their passages.
func removeDemoPages(ctx context.Context, tx bun.IDB, now time.Time) (int, error) {
	var slugs []string
	if _, err := tx.NewDelete().Model((*Page)(nil)).Where("demo").Returning("slug").Exec(ctx, &slugs); err != nil {
		return 0, fmt.Errorf("pages: %w", err)
	}
	for _, slug := range slugs {
		if err := replacePassages(ctx, tx, PassagePage, slug, "", "", nil, now); err != nil {
			return 0, fmt.Errorf("page %s: %w", slug, err)
		}
	}
	return len(slugs), nil
}

// removeDemoPromos deletes the demo's promo codes no order used and
// deactivates the others.
func removeDemoPromos(ctx context.Context, tx bun.IDB, now time.Time) (int, error) {
	used := tx.NewSelect().Model((*PromoRedemption)(nil)).Column("promo_code_id")
	res, err := tx.NewDelete().Model((*PromoCode)(nil)).Where("demo AND id NOT IN (?)", used).Exec(ctx)
	deleted, err := affected(res, err)
	if err != nil {
		return 0, fmt.Errorf("promo codes: %w", err)
	}
	res, err = tx.NewUpdate().Model((*PromoCode)(nil)).
		Set("active = ?", false).Set("updated_at = ?", now.UTC()).
		Where("demo AND active").Exec(ctx)
	off, err := affected(res, err)
	if err != nil {
		return 0, fmt.Errorf("promo codes: %w", err)
	}
	return deleted + off, nil
}

func affected(res interface{ RowsAffected() (int64, error) }, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// PreviewDemoRemoval counts what RemoveDemo would do now, for the panel's
// confirmation page.
func PreviewDemoRemoval(ctx context.Context, db bun.IDB) (DemoRemoval, error) {
	var r DemoRemoval
	keep, err := demoFamiliesInOrders(ctx, db)
	if err != nil {
		return r, err
	}
	listings := func() *bun.SelectQuery { return db.NewSelect().Model((*Product)(nil)).Where("parent_id IS NULL") }
	doomed := demoProductsExcept(db.NewSelect().Model((*Product)(nil)).Column("id"), keep)
	counts := []struct {
		n *int
		q *bun.SelectQuery
	}{
		{&r.Listings, demoProductsExcept(listings(), keep)},
		{&r.Reviews, db.NewSelect().Model((*Review)(nil)).WhereOr("demo").WhereOr("product_id IN (?)", doomed)},
		{&r.Pages, db.NewSelect().Model((*Page)(nil)).Where("demo")},
		{&r.Deliveries, db.NewSelect().Model((*DeliveryMethod)(nil)).Where("demo")},
		{&r.Promos, db.NewSelect().Model((*PromoCode)(nil)).Where("demo").
			WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.WhereOr("active").WhereOr("id NOT IN (?)", db.NewSelect().Model((*PromoRedemption)(nil)).Column("promo_code_id"))
			})},
	}
	if len(keep) > 0 {
		counts = append(counts, struct {
			n *int
			q *bun.SelectQuery
		}{&r.Archived, listings().Where("demo AND active AND id IN (?)", bun.List(keep))})
	}
	for _, c := range counts {
		n, err := c.q.Count(ctx)
		if err != nil {
			return DemoRemoval{}, fmt.Errorf("catalog: preview demo removal: %w", err)
		}
		*c.n = int(n)
	}
	return r, nil
}
