package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"
)

// PassageReview is a shopper's review as a passage: Ref is the review's id,
// Scope the product's SKU, Title the review's title, Body its text. A
// review is one passage (reviews are short; MaxReviewBody bounds them).
const PassageReview PassageKind = "review"

// syncReviewPassages replaces the passages of reviews rs (as stored, with
// their ids) by what they are now: one for each visible review with text,
// none for a hidden one (which leaves a tombstone for the search backends).
func syncReviewPassages(ctx context.Context, db bun.IDB, rs []Review, now time.Time) error {
	if len(rs) == 0 {
		return nil
	}
	skus, err := skusOf(ctx, db, rs)
	if err != nil {
		return err
	}
	refs := make([]string, len(rs))
	var gone []string
	var rows []Passage
	for i, r := range rs {
		refs[i] = strconv.FormatInt(r.ID, 10)
		if r.Hidden || r.Body == "" {
			gone = append(gone, PassageKey(PassageReview, refs[i]))
			continue
		}
		rows = append(rows, Passage{Kind: PassageReview, Ref: refs[i], Scope: skus[r.ProductID],
			Title: r.Title, Body: r.Body, UpdatedAt: now})
	}
	for lo := 0; lo < len(refs); lo += 500 {
		_, err := db.NewDelete().Model((*Passage)(nil)).
			Where("kind = ? AND ref IN (?)", PassageReview, bun.List(refs[lo:min(lo+500, len(refs))])).Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete review passages: %w", err)
		}
	}
	for lo := 0; lo < len(rows); lo += 500 {
		batch := rows[lo:min(lo+500, len(rows))]
		if _, err := db.NewInsert().Model(&batch).Returning("NULL").Exec(ctx); err != nil {
			return fmt.Errorf("insert review passages: %w", err)
		}
	}
	return recordDeleted(ctx, db, TombstonePassages, gone...)
}

// skusOf maps the products of rs to their SKUs (a passage's scope).
func skusOf(ctx context.Context, db bun.IDB, rs []Review) (map[int64]string, error) {
	ids := map[int64]bool{}
	var list []int64
	for _, r := range rs {
		if !ids[r.ProductID] {
			ids[r.ProductID] = true
			list = append(list, r.ProductID)
		}
	}
	var ps []Product
	if err := db.NewSelect().Model(&ps).Column("id", "sku").Where("id IN (?)", bun.List(list)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("skus of reviewed products: %w", err)
	}
	m := make(map[int64]string, len(ps))
	for _, p := range ps {
		m[p.ID] = p.SKU
	}
	return m, nil
}

// SetReviewHidden hides a review (its passage goes, it leaves the product's
// rating summary and its quotes) or shows it again, in one transaction.
// Setting the state it already has changes nothing.
func SetReviewHidden(ctx context.Context, db bun.IDB, id int64, hidden bool) error {
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		r := new(Review)
		err := tx.NewSelect().Model(r).Where("id = ?", id).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("review %d: %w", id, ErrNotFound)
		}
		if err != nil || r.Hidden == hidden {
			return err
		}
		// The flip is conditional, so of two panels hiding the same review
		// at once only one changes it and folds its rating out.
		res, err := tx.NewUpdate().Model((*Review)(nil)).Set("hidden = ?", hidden).
			Where("id = ?", id).Where("hidden = ?", !hidden).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // the other one flipped it
		}
		r.Hidden = hidden
		if hidden {
			err = foldRating(ctx, tx, r.ProductID, 0, r.Rating)
		} else {
			err = foldRating(ctx, tx, r.ProductID, r.Rating, 0)
		}
		if err != nil {
			return err
		}
		return syncReviewPassages(ctx, tx, []Review{*r}, time.Now().UTC())
	})
	if err != nil {
		return fmt.Errorf("catalog: set review %d hidden=%t: %w", id, hidden, err)
	}
	return nil
}

// ReviewDetail is a review with the product it is about, as a search
// result shows it.
type ReviewDetail struct {
	Review
	SKU          string `bun:"sku"`
	ProductTitle string `bun:"product_title"`
}

// ReviewsByID returns the visible reviews among ids, with their products,
// in no particular order; ids that are gone or hidden are left out.
func ReviewsByID(ctx context.Context, db bun.IDB, ids []int64) ([]ReviewDetail, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var out []ReviewDetail
	err := db.NewSelect().Model((*Review)(nil)).
		ColumnExpr("review.*").ColumnExpr("p.sku AS sku, p.title AS product_title").
		Join("JOIN products AS p ON p.id = review.product_id").
		Where("review.id IN (?) AND NOT review.hidden", bun.List(ids)).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("catalog: reviews by id: %w", err)
	}
	return out, nil
}

// GetReview loads one review, hidden or not.
func GetReview(ctx context.Context, db bun.IDB, id int64) (*Review, error) {
	r := new(Review)
	err := db.NewSelect().Model(r).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("catalog: review %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: review %d: %w", id, err)
	}
	return r, nil
}
