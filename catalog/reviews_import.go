package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog/clip"
)

// Review limits: a review is a few paragraphs a shopper wrote, not an
// essay; longer text is refused rather than cut, so nothing is quoted out
// of its context.
const (
	MaxReviewAuthor = 100
	MaxReviewTitle  = 200
	MaxReviewBody   = 4000
)

// ReviewInput is one imported review. (SKU, Author, CreatedAt) identify
// it: importing it again updates that review instead of adding one.
type ReviewInput struct {
	SKU       string
	Rating    int
	Author    string
	Title     string
	Body      string
	CreatedAt time.Time
}

// Validate checks an input and normalizes it in place (fields trimmed,
// line endings of the body made "\n", the time in UTC to the second).
func (in *ReviewInput) Validate() error {
	in.SKU = strings.TrimSpace(in.SKU)
	in.Author = strings.TrimSpace(in.Author)
	in.Title = strings.TrimSpace(in.Title)
	in.Body = strings.TrimSpace(strings.ReplaceAll(in.Body, "\r\n", "\n"))
	in.CreatedAt = in.CreatedAt.UTC().Truncate(time.Second)
	switch {
	case !utf8.ValidString(in.SKU + in.Author + in.Title + in.Body):
		return fmt.Errorf("%w: text is not valid UTF-8", ErrInvalid)
	case in.SKU == "":
		return fmt.Errorf("%w: missing sku", ErrInvalid)
	case in.Rating < 1 || in.Rating > 5:
		return fmt.Errorf("%w: rating %d is not 1–5", ErrInvalid, in.Rating)
	case in.Author == "":
		return fmt.Errorf("%w: missing author", ErrInvalid)
	case utf8.RuneCountInString(in.Author) > MaxReviewAuthor || strings.ContainsAny(in.Author, "\n\r\x00"):
		return fmt.Errorf("%w: the author must be one line of at most %d characters", ErrInvalid, MaxReviewAuthor)
	case utf8.RuneCountInString(in.Title) > MaxReviewTitle || strings.ContainsAny(in.Title, "\n\r\x00"):
		return fmt.Errorf("%w: the title must be one line of at most %d characters", ErrInvalid, MaxReviewTitle)
	case in.Body == "":
		return fmt.Errorf("%w: empty body", ErrInvalid)
	case utf8.RuneCountInString(in.Body) > MaxReviewBody:
		return fmt.Errorf("%w: the body has %d characters, more than the %d allowed", ErrInvalid, utf8.RuneCountInString(in.Body), MaxReviewBody)
	case strings.ContainsRune(in.Body, 0):
		return fmt.Errorf("%w: the body contains a NUL byte", ErrInvalid)
	case in.CreatedAt.IsZero() || in.CreatedAt.After(time.Now().Add(24*time.Hour)):
		return fmt.Errorf("%w: created_at %s is missing or in the future", ErrInvalid, in.CreatedAt.Format(time.RFC3339))
	}
	return nil
}

// importKey identifies an imported review within its product.
func (in *ReviewInput) importKey() string {
	return in.CreatedAt.Format(time.RFC3339) + " " + in.Author
}

// ReviewOutcome says what ImportReview did.
type ReviewOutcome int

// What ImportReview did with one input.
const (
	ReviewUnchanged ReviewOutcome = iota
	ReviewCreated
	ReviewUpdated
)

// ImportReview adds the review in describes, or updates the one an earlier
// import of it added, with its passage and the product's rating summary,
// in one transaction. The same input twice changes nothing the second
// time; invalid input (an unknown SKU included) changes nothing.
func ImportReview(ctx context.Context, db bun.IDB, in ReviewInput) (ReviewOutcome, error) {
	if err := in.Validate(); err != nil {
		return 0, fmt.Errorf("catalog: import review: %w", err)
	}
	var out ReviewOutcome
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var p Product
		err := tx.NewSelect().Model(&p).Column("id").Where("sku = ?", in.SKU).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: unknown sku %q", ErrInvalid, clip.Shorten(in.SKU, 80))
		}
		if err != nil {
			return err
		}
		key := in.importKey()
		var old Review
		err = tx.NewSelect().Model(&old).Where("product_id = ? AND import_key = ?", p.ID, key).Scan(ctx)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			out = ReviewCreated
			r := Review{ProductID: p.ID, Author: in.Author, Rating: in.Rating, Title: in.Title, Body: in.Body, ImportKey: &key, CreatedAt: in.CreatedAt}
			if err := AddReviews(ctx, tx, []Review{r}); err != nil {
				return err
			}
			return foldRating(ctx, tx, p.ID, r.Rating, 0)
		case err != nil:
			return err
		case old.Rating == in.Rating && old.Title == in.Title && old.Body == in.Body:
			out = ReviewUnchanged
			return nil
		}
		out = ReviewUpdated
		was := old.Rating
		old.Rating, old.Title, old.Body = in.Rating, in.Title, in.Body
		// Conditional on the rating read, so a concurrent import of the same
		// review cannot fold a rating out that is no longer there.
		res, err := tx.NewUpdate().Model(&old).Column("rating", "title", "body").WherePK().
			Where("rating = ?", was).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("%w: the review changed while it was imported; import it again", ErrConflict)
		}
		if !old.Hidden && was != old.Rating {
			if err := foldRating(ctx, tx, p.ID, old.Rating, was); err != nil {
				return err
			}
		}
		return syncReviewPassages(ctx, tx, []Review{old}, time.Now().UTC())
	})
	if err != nil {
		return 0, fmt.Errorf("catalog: import review of %s by %s: %w", clip.Shorten(in.SKU, 80), clip.Shorten(in.Author, 40), err)
	}
	return out, nil
}
