package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Review is one shopper's rating and text for a product.
type Review struct {
	bun.BaseModel `bun:"table:reviews"`

	ID         int64     `bun:"id,pk,autoincrement"`
	ProductID  int64     `bun:"product_id,notnull"`
	CustomerID *int64    `bun:"customer_id"`
	Author     string    `bun:"author,notnull"`
	Rating     int       `bun:"rating,notnull"`
	Body       string    `bun:"body,notnull"`
	CreatedAt  time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// AddReviews stores reviews without touching the product's rating summary
// (used by imports whose summary comes with the data).
func AddReviews(ctx context.Context, db bun.IDB, rs []Review) error {
	if len(rs) == 0 {
		return nil
	}
	for _, r := range rs {
		if r.Rating < 1 || r.Rating > 5 {
			return fmt.Errorf("catalog: add review: %w: rating %d is not 1–5", ErrInvalid, r.Rating)
		}
	}
	if _, err := db.NewInsert().Model(&rs).Returning("NULL").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: add reviews: %w", err)
	}
	return nil
}

// AddReview stores a shopper's review and folds it into the product's
// average rating.
func AddReview(ctx context.Context, db bun.IDB, r Review) error {
	if err := AddReviews(ctx, db, []Review{r}); err != nil {
		return err
	}
	res, err := db.NewUpdate().Model((*Product)(nil)).
		Set("rating_avg = (rating_avg * rating_count + ?) / (rating_count + 1)", r.Rating).
		Set("rating_count = rating_count + 1").
		Set("updated_at = ?", time.Now().UTC()).
		Where("id = ?", r.ProductID).Exec(ctx)
	return expectOneRow(res, err, "product %d", r.ProductID)
}

// SetRating replaces a product's rating summary (imports, demo data).
func SetRating(ctx context.Context, db bun.IDB, productID int64, avg float64, count int) error {
	if avg < 0 || avg > 5 || count < 0 {
		return fmt.Errorf("catalog: set rating: %w: %.1f from %d ratings", ErrInvalid, avg, count)
	}
	res, err := db.NewUpdate().Model((*Product)(nil)).
		Set("rating_avg = ?", avg).Set("rating_count = ?", count).
		Set("updated_at = ?", time.Now().UTC()).
		Where("id = ?", productID).Exec(ctx)
	return expectOneRow(res, err, "product %d", productID)
}

// ListReviews returns a product's newest reviews.
func ListReviews(ctx context.Context, db bun.IDB, productID int64, limit int) ([]Review, error) {
	var rs []Review
	err := db.NewSelect().Model(&rs).Where("product_id = ?", productID).
		Order("created_at DESC", "id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: list reviews of product %d: %w", productID, err)
	}
	return rs, nil
}
