package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/embedded"
	"shopbot/engine/tools"
)

// TestProductReviewsHideShow: the page lists a product's reviews; hiding
// one takes it out of search_reviews (once the index follows) and the
// rating; a forged post or a review of another product changes nothing.
func TestProductReviewsHideShow(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	ctx := context.Background()
	prod, err := catalog.GetProduct(ctx, p.db, "ELE-HPH-001")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := catalog.ListReviews(ctx, p.db, prod.ID, 10)
	if err != nil || len(rs) == 0 {
		t.Fatalf("demo reviews: %+v, %v", rs, err)
	}
	var david catalog.Review
	for _, r := range rs {
		if r.Author == "David R." {
			david = r
		}
	}
	page := fmt.Sprintf("/admin/products/%d/reviews", prod.ID)
	if code, body := p.get(page); code != http.StatusOK || !strings.Contains(body, "Noise cancelling is outstanding") || !strings.Contains(body, ">Hide</button>") {
		t.Fatalf("reviews page = %d:\n%.2000s", code, body)
	}
	index := embedded.NewPassages(embedded.PassageOptions{})
	search := func() []string {
		t.Helper()
		if err := index.Rebuild(ctx, catalog.NewSearchSource(p.db)); err != nil {
			t.Fatal(err)
		}
		got, err := tools.SearchReviews(ctx, &tools.Deps{DB: p.db, Passages: index}, "noise cancelling on flights", "ELE-HPH-001")
		if err != nil {
			t.Fatal(err)
		}
		var authors []string
		for _, r := range got.Reviews {
			authors = append(authors, r.Author)
		}
		return authors
	}
	if got := search(); len(got) == 0 || got[0] != "David R." {
		t.Fatalf("before hiding: %v", got)
	}

	hide := fmt.Sprintf("%s/%d/hide", page, david.ID)
	if code, _, _ := p.post(hide, url.Values{"csrf": {"forged"}}); code != http.StatusForbidden {
		t.Errorf("forged hide = %d, want 403", code)
	}
	other, _ := catalog.GetProduct(ctx, p.db, "ELE-HPH-002")
	if code, _, _ := p.post(fmt.Sprintf("/admin/products/%d/reviews/%d/hide", other.ID, david.ID), nil); code != http.StatusNotFound {
		t.Errorf("hide through another product = %d, want 404", code)
	}
	if r, _ := catalog.GetReview(ctx, p.db, david.ID); r.Hidden {
		t.Fatal("a refused post hid the review")
	}
	if code, loc, body := p.post(hide, nil); code != http.StatusSeeOther || loc != page {
		t.Fatalf("hide = %d %s:\n%s", code, loc, body)
	}
	for _, a := range search() {
		if a == "David R." {
			t.Errorf("hidden review still found by search_reviews")
		}
	}
	if code, body := p.get(page); code != http.StatusOK || !strings.Contains(body, ">Show</button>") || !strings.Contains(body, "hidden") {
		t.Errorf("reviews page after hide = %d", code)
	}
	if after, _ := catalog.GetProduct(ctx, p.db, "ELE-HPH-001"); after.RatingCount != prod.RatingCount-1 {
		t.Errorf("rating count %d → %d", prod.RatingCount, after.RatingCount)
	}
	if code, _, _ := p.post(fmt.Sprintf("%s/%d/show", page, david.ID), nil); code != http.StatusSeeOther {
		t.Fatalf("show = %d", code)
	}
	if got := search(); len(got) == 0 || got[0] != "David R." {
		t.Errorf("after showing: %v", got)
	}
}
