package catalog_test

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestImportReview(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("JKT-1", 9900, 5))
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		in := catalog.ReviewInput{SKU: "JKT-1", Rating: 2, Author: "Ann", Title: "Zip broke", Body: "The zipper broke after a week.", CreatedAt: at}
		if out, err := catalog.ImportReview(ctx, db, in); err != nil || out != catalog.ReviewCreated {
			t.Fatalf("first import: %v, %v", out, err)
		}
		if out, err := catalog.ImportReview(ctx, db, in); err != nil || out != catalog.ReviewUnchanged {
			t.Fatalf("re-import: %v, %v", out, err)
		}
		p, _ := catalog.GetProduct(ctx, db, "JKT-1")
		if p.RatingCount != 1 || p.RatingAvg != 2 {
			t.Fatalf("rating after re-import: %.2f from %d", p.RatingAvg, p.RatingCount)
		}
		in.Rating, in.Body = 4, "The zipper was replaced for free; warm jacket."
		if out, err := catalog.ImportReview(ctx, db, in); err != nil || out != catalog.ReviewUpdated {
			t.Fatalf("update: %v, %v", out, err)
		}
		in2 := catalog.ReviewInput{SKU: "JKT-1", Rating: 5, Author: "Bo", Body: "Warm and light.", CreatedAt: at.Add(time.Hour)}
		if _, err := catalog.ImportReview(ctx, db, in2); err != nil {
			t.Fatal(err)
		}
		p, _ = catalog.GetProduct(ctx, db, "JKT-1")
		if p.RatingCount != 2 || math.Abs(p.RatingAvg-4.5) > 1e-9 {
			t.Fatalf("rating: %.2f from %d, want 4.5 from 2", p.RatingAvg, p.RatingCount)
		}
		rs, err := catalog.ListReviews(ctx, db, p.ID, 10)
		if err != nil || len(rs) != 2 || rs[0].Author != "Bo" || rs[1].Title != "Zip broke" {
			t.Fatalf("list: %+v, %v", rs, err)
		}
		ref := strconv.FormatInt(rs[1].ID, 10)
		ps, err := catalog.PassagesOf(ctx, db, catalog.PassageReview, ref)
		if err != nil || len(ps) != 1 || ps[0].Scope != "JKT-1" || ps[0].Title != "Zip broke" || !strings.Contains(ps[0].Body, "replaced") {
			t.Fatalf("passage: %+v, %v", ps, err)
		}

		// Hidden: no passage, out of the list and the summary; shown: back.
		if err := catalog.SetReviewHidden(ctx, db, rs[1].ID, true); err != nil {
			t.Fatal(err)
		}
		if ps, _ := catalog.PassagesOf(ctx, db, catalog.PassageReview, ref); len(ps) != 0 {
			t.Fatalf("hidden review keeps passages %+v", ps)
		}
		if rs, _ := catalog.ListReviews(ctx, db, p.ID, 10); len(rs) != 1 {
			t.Fatalf("hidden review listed: %+v", rs)
		}
		if all, _ := catalog.ProductReviews(ctx, db, p.ID, 10); len(all) != 2 || !all[1].Hidden {
			t.Fatalf("admin list: %+v", all)
		}
		if got, _ := catalog.ReviewsByID(ctx, db, []int64{rs[0].ID, rs[1].ID}); len(got) != 1 || got[0].SKU != "JKT-1" || got[0].ProductTitle == "" {
			t.Fatalf("by id: %+v", got)
		}
		p, _ = catalog.GetProduct(ctx, db, "JKT-1")
		if p.RatingCount != 1 || p.RatingAvg != 5 {
			t.Fatalf("rating after hide: %.2f from %d", p.RatingAvg, p.RatingCount)
		}
		if err := catalog.SetReviewHidden(ctx, db, rs[1].ID, false); err != nil {
			t.Fatal(err)
		}
		if ps, _ := catalog.PassagesOf(ctx, db, catalog.PassageReview, ref); len(ps) != 1 {
			t.Fatalf("shown review has passages %+v", ps)
		}
		p, _ = catalog.GetProduct(ctx, db, "JKT-1")
		if p.RatingCount != 2 || math.Abs(p.RatingAvg-4.5) > 1e-9 {
			t.Fatalf("rating after show: %.2f from %d", p.RatingAvg, p.RatingCount)
		}
		if err := catalog.SetReviewHidden(ctx, db, 999999, true); !errors.Is(err, catalog.ErrNotFound) {
			t.Fatalf("hide missing: %v", err)
		}
	})
}

func TestImportReviewRefuses(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("JKT-1", 9900, 5))
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		good := catalog.ReviewInput{SKU: "JKT-1", Rating: 3, Author: "Ann", Body: "Fine.", CreatedAt: at}
		for name, mod := range map[string]func(*catalog.ReviewInput){
			"unknown sku":  func(in *catalog.ReviewInput) { in.SKU = "NOPE" },
			"rating 0":     func(in *catalog.ReviewInput) { in.Rating = 0 },
			"rating 6":     func(in *catalog.ReviewInput) { in.Rating = 6 },
			"empty body":   func(in *catalog.ReviewInput) { in.Body = "  " },
			"no author":    func(in *catalog.ReviewInput) { in.Author = "" },
			"long body":    func(in *catalog.ReviewInput) { in.Body = strings.Repeat("a", catalog.MaxReviewBody+1) },
			"bad utf-8":    func(in *catalog.ReviewInput) { in.Body = "bad \xff" },
			"no date":      func(in *catalog.ReviewInput) { in.CreatedAt = time.Time{} },
			"future date":  func(in *catalog.ReviewInput) { in.CreatedAt = time.Now().AddDate(1, 0, 0) },
			"title 2 line": func(in *catalog.ReviewInput) { in.Title = "a\nb" },
		} {
			in := good
			mod(&in)
			if _, err := catalog.ImportReview(ctx, db, in); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: err %v, want ErrInvalid", name, err)
			}
		}
		p, _ := catalog.GetProduct(ctx, db, "JKT-1")
		if rs, _ := catalog.ProductReviews(ctx, db, p.ID, 10); len(rs) != 0 || p.RatingCount != 0 {
			t.Fatalf("refused input stored %+v (rating count %d)", rs, p.RatingCount)
		}
	})
}

// Panels that hide the same review at once fold its rating out once.
func TestHideReviewConcurrently(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("JKT-1", 9900, 5))
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		for i, rating := range []int{2, 5} {
			in := catalog.ReviewInput{SKU: "JKT-1", Rating: rating, Author: "A" + strconv.Itoa(i), Title: "t", Body: "b", CreatedAt: at}
			if _, err := catalog.ImportReview(ctx, db, in); err != nil {
				t.Fatal(err)
			}
		}
		p, _ := catalog.GetProduct(ctx, db, "JKT-1")
		rs, err := catalog.ListReviews(ctx, db, p.ID, 10)
		if err != nil || len(rs) != 2 {
			t.Fatalf("reviews: %+v, %v", rs, err)
		}
		hide := rs[0].ID
		if rs[0].Rating != 2 {
			hide = rs[1].ID
		}
		var wg sync.WaitGroup
		gate := make(chan struct{})
		for range 8 {
			wg.Go(func() {
				<-gate
				if err := catalog.SetReviewHidden(ctx, db, hide, true); err != nil {
					t.Error(err)
				}
			})
		}
		close(gate)
		wg.Wait()
		p, _ = catalog.GetProduct(ctx, db, "JKT-1")
		if p.RatingCount != 1 || p.RatingAvg != 5 {
			t.Fatalf("rating after 8 concurrent hides: %.2f from %d, want 5 from 1", p.RatingAvg, p.RatingCount)
		}
	})
}
