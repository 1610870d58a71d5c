package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Review is one shopper's rating and text for a product. A visible review
// with text is also one passage of kind PassageReview (reviews_passages.go),
// written in the same transaction; a hidden one has none and is left out
// of ListReviews, so it is neither searched nor quoted.
type Review struct {
	bun.BaseModel `bun:"table:reviews"`

	ID         int64     `bun:"id,pk,autoincrement"`
	ProductID  int64     `bun:"product_id,notnull"`
	CustomerID *int64    `bun:"customer_id"`
	Author     string    `bun:"author,notnull"`
	Rating     int       `bun:"rating,notnull"`
	Title      string    `bun:"title,notnull"`
	Body       string    `bun:"body,notnull"`
	Hidden     bool      `bun:"hidden,notnull"`
	ImportKey  *string   `bun:"import_key"` // set by imports: (product, key) is unique
	CreatedAt  time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	// Demo is the demo column (a row the demo shop created, demo_state.go)
	// where a query reads every column; bun never writes it: MarkDemo does.
	Demo bool `bun:"demo,scanonly"`
}

// AddReviews stores reviews and their passages without touching the
// products' rating summaries (used by imports whose summary comes with
// the data). Run it in a transaction so reviews and passages go together.
func AddReviews(ctx context.Context, db bun.IDB, rs []Review) error {
	if len(rs) == 0 {
		return nil
	}
	for _, r := range rs {
		if r.Rating < 1 || r.Rating > 5 {
			return fmt.Errorf("catalog: add review: %w: rating %d is not 1–5", ErrInvalid, r.Rating)
		}
	}
	rows := make([]Review, len(rs))
	copy(rows, rs)
	if _, err := db.NewInsert().Model(&rows).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("catalog: add reviews: %w", err)
	}
	if err := syncReviewPassages(ctx, db, rows, time.Now().UTC()); err != nil {
		return fmt.Errorf("catalog: add reviews: %w", err)
	}
	return nil
}

// AddReview stores a shopper's review and its passage and folds it into
// the product's average rating, in one transaction.
func AddReview(ctx context.Context, db bun.IDB, r Review) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := AddReviews(ctx, tx, []Review{r}); err != nil {
			return err
		}
		return foldRating(ctx, tx, r.ProductID, r.Rating, 0)
	})
}

// foldRating moves a product's rating summary by one review: add (1–5)
// joins it, drop (1–5) leaves it; both set is a changed rating.
func foldRating(ctx context.Context, db bun.IDB, productID int64, add, drop int) error {
	q := db.NewUpdate().Model((*Product)(nil)).Set("updated_at = ?", time.Now().UTC()).Where("id = ?", productID)
	switch {
	case add > 0 && drop > 0:
		q = q.Set("rating_avg = CASE WHEN rating_count > 0 THEN (rating_avg * rating_count - ? + ?) / rating_count ELSE ? END", drop, add, add).
			Set("rating_count = CASE WHEN rating_count > 0 THEN rating_count ELSE 1 END")
	case add > 0:
		q = q.Set("rating_avg = (rating_avg * rating_count + ?) / (rating_count + 1)", add).
			Set("rating_count = rating_count + 1")
	case drop > 0:
		q = q.Set("rating_avg = CASE WHEN rating_count > 1 THEN (rating_avg * rating_count - ?) / (rating_count - 1) ELSE 0 END", drop).
			Set("rating_count = CASE WHEN rating_count > 1 THEN rating_count - 1 ELSE 0 END")
	default:
		return nil
	}
	res, err := q.Exec(ctx)
	return expectOneRow(res, err, "rating of product %d", productID)
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

// ListReviews returns a product's newest visible reviews.
func ListReviews(ctx context.Context, db bun.IDB, productID int64, limit int) ([]Review, error) {
	var rs []Review
	err := db.NewSelect().Model(&rs).Where("product_id = ? AND NOT hidden", productID).
		Order("created_at DESC", "id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: list reviews of product %d: %w", productID, err)
	}
	return rs, nil
}

// ProductReviews returns a product's newest reviews, hidden ones too (the
// admin panel's list).
func ProductReviews(ctx context.Context, db bun.IDB, productID int64, limit int) ([]Review, error) {
	var rs []Review
	err := db.NewSelect().Model(&rs).Where("product_id = ?", productID).
		Order("created_at DESC", "id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: reviews of product %d: %w", productID, err)
	}
	return rs, nil
}
