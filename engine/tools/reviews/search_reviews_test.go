package reviews_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools/reviews"
	"shopbot/engine/tools/toolstest"
)

func TestSearchReviews(t *testing.T) {
	e := toolstest.SQLite(t)
	ctx := context.Background()
	// Two reviews with the same words score the same: the newer comes first.
	for i, author := range []string{"Old Owl", "New Newt"} {
		in := catalog.ReviewInput{SKU: "ELE-HPH-002", Rating: 2 + i, Author: author, Title: "Hinge",
			Body: "The hinge creaked after a month.", CreatedAt: time.Date(2026, 1, 1+i, 0, 0, 0, 0, time.UTC)}
		if _, err := catalog.ImportReview(ctx, e.DB, in); err != nil {
			t.Fatal(err)
		}
	}
	e.IndexPassages(t)

	var got reviews.Quotes
	toolstest.DataOf(t, e.Call(t, "search_reviews", `{"query":"how long does the battery last","sku":"ELE-HPH-001"}`), &got)
	if len(got.Reviews) == 0 || len(got.Reviews) > reviews.Passages || !strings.Contains(got.Note, "not instructions") {
		t.Fatalf("battery: %+v", got)
	}
	top := got.Reviews[0]
	if top.SKU != "ELE-HPH-001" || top.Author != "Anna P." || top.Rating != 5 || !strings.Contains(top.Text, "battery") ||
		top.Product == "" || len(top.Date) != len("2006-01-02") {
		t.Errorf("battery: top %+v", top)
	}
	for _, r := range got.Reviews {
		if r.SKU != "ELE-HPH-001" {
			t.Errorf("battery of ELE-HPH-001: review of %s", r.SKU)
		}
	}

	toolstest.DataOf(t, e.Call(t, "search_reviews", `{"query":"hinge creaked"}`), &got)
	if len(got.Reviews) < 2 || got.Reviews[0].Author != "New Newt" || got.Reviews[1].Author != "Old Owl" {
		t.Errorf("tie: %+v, want the newer review first", got.Reviews)
	}

	toolstest.DataOf(t, e.Call(t, "search_reviews", `{"query":"zqxv blorft","sku":"ELE-HPH-001"}`), &got)
	if len(got.Reviews) != 0 || !strings.Contains(got.Note, "No reviews mention") {
		t.Errorf("no match: %+v", got)
	}
}

// TestSearchReviewsHidden: a hidden review is not returned even before
// the index has caught up (the database has the last word).
func TestSearchReviewsHidden(t *testing.T) {
	e := toolstest.SQLite(t)
	e.IndexPassages(t)
	ctx := context.Background()
	var got reviews.Quotes
	toolstest.DataOf(t, e.Call(t, "search_reviews", `{"query":"noise cancelling flights","sku":"ELE-HPH-001"}`), &got)
	if len(got.Reviews) == 0 || got.Reviews[0].Author != "David R." {
		t.Fatalf("before: %+v", got)
	}
	p, err := catalog.GetProduct(ctx, e.DB, "ELE-HPH-001")
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := catalog.ListReviews(ctx, e.DB, p.ID, 10)
	for _, r := range rs {
		if r.Author == "David R." {
			if err := catalog.SetReviewHidden(ctx, e.DB, r.ID, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	toolstest.DataOf(t, e.Call(t, "search_reviews", `{"query":"noise cancelling flights","sku":"ELE-HPH-001"}`), &got)
	for _, r := range got.Reviews {
		if r.Author == "David R." {
			t.Errorf("hidden review returned: %+v", r)
		}
	}
}

func TestSearchReviewsHostileArgs(t *testing.T) {
	e := toolstest.SQLite(t)
	e.IndexPassages(t)
	ctx := context.Background()
	for _, tc := range []struct{ args, want string }{
		{`{}`, "query"},
		{`{"query":5}`, "string"},
		{`{"query":" x "}`, "say what to look for"},
		{`{"query":"` + strings.Repeat("a", 201) + `"}`, "maxLength"},
		{`{"query":"battery","sku":"NO-SUCH-SKU"}`, "not found"},
		{`{"query":"battery","customer_id":7}`, "additional"},
		{`not json`, "JSON"},
	} {
		_, err := e.Tools.Call(ctx, e.Session, "search_reviews", tc.args)
		if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(strings.ToLower(msg), strings.ToLower(tc.want)) {
			t.Errorf("search_reviews(%.40s): %s, want %q", tc.args, msg, tc.want)
		}
	}
	e.Deps.Passages = nil
	_, err := e.Tools.Call(ctx, e.Session, "search_reviews", `{"query":"battery"}`)
	if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(msg, "get_reviews_summary") {
		t.Errorf("no index: %s", msg)
	}
}
