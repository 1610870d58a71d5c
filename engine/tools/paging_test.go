package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"shopbot/engine/toolkit"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// pageData is what the listing tools tell the model about paging.
type pageData struct {
	Offset     int  `json:"offset"`
	More       bool `json:"more"`
	NextOffset int  `json:"next_offset"`
	Total      int  `json:"total"`
	Products   []struct {
		SKU string `json:"sku"`
	} `json:"products"`
	Orders []struct {
		Number string `json:"number"`
	} `json:"orders"`
}

// pageThrough calls a listing tool from offset 0 on, following
// next_offset, and returns every item listed; it fails on an item listed
// twice, on a More button without more or more without a More button, and
// on a listing that does not match the tool's data.
func pageThrough(t *testing.T, e *testEnv, name, args string, kind string) []string {
	t.Helper()
	var all []string
	seen := map[string]bool{}
	for off, pages := 0, 0; ; pages++ {
		if pages > 30 {
			t.Fatalf("%s: more than 30 pages", name)
		}
		res := e.call(t, name, fmt.Sprintf(`{%s"offset":%d}`, args, off))
		var d pageData
		toolData(t, res, &d)
		items := d.Orders
		for _, p := range d.Products {
			items = append(items, struct {
				Number string `json:"number"`
			}{p.SKU})
		}
		for _, it := range items {
			if seen[it.Number] {
				t.Fatalf("%s offset %d: %s listed again", name, off, it.Number)
			}
			seen[it.Number] = true
			all = append(all, it.Number)
		}
		l := e.session.State.Listing
		if l == nil || l.ListKind() != kind || l.Offset != off+len(items) {
			t.Fatalf("%s offset %d: listing %+v, want kind %s offset %d", name, off, l, kind, off+len(items))
		}
		hasButton := len(res.Buttons) == 1 && res.Buttons[0].Action.Kind == view.ActMore && l.NamedBy(res.Buttons[0].Action.Arg)
		if d.More != hasButton || d.More != l.HasMore() {
			t.Fatalf("%s offset %d: more %v, More button %v (%+v)", name, off, d.More, hasButton, res.Buttons)
		}
		if !d.More {
			return all
		}
		if d.NextOffset != off+len(items) || len(items) == 0 {
			t.Fatalf("%s offset %d: next_offset %d after %d items", name, off, d.NextOffset, len(items))
		}
		off = d.NextOffset
	}
}

func TestPagingSearchAndCategory(t *testing.T) {
	e := newTestEnv(t)
	// Every page of a category, concatenated, is the category listed at once.
	got := pageThrough(t, e, "search_products", `"category":"Shoes","limit":3,`, session.ListCategory)
	res := e.call(t, "search_products", `{"category":"Shoes","limit":10}`)
	var first pageData
	toolData(t, res, &first)
	if len(got) != first.Total || first.Total <= 3 {
		t.Fatalf("paged %d of %d shoes: %v", len(got), first.Total, got)
	}
	for i, p := range first.Products {
		if got[i] != p.SKU {
			t.Fatalf("page order %v, at once %v", got, first.Products)
		}
	}
	got = pageThrough(t, e, "search_products", `"query":"shoes","limit":4,`, session.ListSearch)
	if len(got) < 5 {
		t.Fatalf("search paged %v", got)
	}
}

func TestPagingSimilarAndTop(t *testing.T) {
	e := newTestEnv(t)
	sku := skuOfLargestCategory(t, e)
	got := pageThrough(t, e, "get_similar_products", `"sku":"`+sku+`",`, session.ListSimilar)
	all, err := e.deps.Search.Similar(context.Background(), sku, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(all) || len(got) <= similarLimit {
		t.Fatalf("paged %d similar, backend has %d", len(got), len(all))
	}
	if e.session.State.Listing.SKU != sku {
		t.Errorf("similar listing %+v", e.session.State.Listing)
	}
	got = pageThrough(t, e, "get_top_selling_products", `"category":"Shoes",`, session.ListTop)
	if len(got) <= 5 {
		t.Fatalf("top sellers paged %v", got)
	}
	if e.session.State.Listing.Category != "Shoes" {
		t.Errorf("top listing %+v", e.session.State.Listing)
	}
}

// TestPagingOrders pages through twelve orders placed at the same moment
// (the tie is broken by id, on both databases), five at a time.
func TestPagingOrders(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		e := newTestEnvOnDemo(t, db)
		var want []string
		for i := range 12 {
			o := placeTestOrder(t, e, e.session, fmt.Sprintf("page-%d", i), 3, map[string]int{"BOO-FIC-001": 1})
			want = append([]string{o.Number}, want...) // newest first
		}
		got := pageThrough(t, e, "get_order_status", ``, session.ListOrders)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("orders paged\n%v\nwant\n%v", got, want)
		}
		// A page past the end lists nothing and offers no more.
		res := e.call(t, "get_order_status", `{"offset":40}`)
		var d pageData
		toolData(t, res, &d)
		if len(d.Orders) != 0 || d.More || res.Order != nil || len(res.Buttons) != 0 {
			t.Errorf("past the end: %+v %+v", d, res.Buttons)
		}
	})
}

// TestPagingBadOffsets: offsets outside 0..100 are refused by the schema,
// as the model or a forged call may send them.
func TestPagingBadOffsets(t *testing.T) {
	e := newTestEnv(t)
	for _, c := range []struct{ name, args string }{
		{"get_similar_products", `{"sku":"BOO-FIC-001","offset":-1}`},
		{"get_similar_products", `{"sku":"BOO-FIC-001","offset":101}`},
		{"get_top_selling_products", `{"offset":1000000}`},
		{"get_order_status", `{"offset":-5}`},
		{"get_order_status", `{"offset":"5"}`},
		{"search_products", `{"query":"shoes","offset":101}`},
	} {
		_, err := e.tools.Call(context.Background(), e.session, c.name, c.args)
		if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr {
			t.Errorf("%s(%s) = %s, want an error", c.name, c.args, msg)
		}
	}
	// The largest offset is served, and ends the list.
	res := e.call(t, "get_top_selling_products", `{"offset":100}`)
	var d pageData
	toolData(t, res, &d)
	if d.More || len(res.Buttons) != 0 {
		t.Errorf("offset 100: %+v", d)
	}
}

// TestListingNamedBy: a More button names its list by kind and
// fingerprint; anything else a client sends names no list.
func TestListingNamedBy(t *testing.T) {
	l := &session.Listing{Kind: session.ListSearch, Query: "shoes", Offset: 5, Total: 20}
	arg := l.MoreArg()
	if !l.NamedBy(arg) {
		t.Fatalf("%q does not name its listing", arg)
	}
	paged := *l
	paged.Offset = 10
	if !paged.NamedBy(arg) {
		t.Errorf("the next page of the same list is not named by %q", arg)
	}
	other := &session.Listing{Kind: session.ListSearch, Query: "boots", Offset: 5, Total: 20}
	var nilListing *session.Listing
	for _, bad := range []string{"", ".", "search", "search.", "." + strings.SplitN(arg, ".", 2)[1],
		"category." + strings.SplitN(arg, ".", 2)[1], arg + "0", arg + "|x", strings.Repeat("a", 200), "search.zzzzzzzz",
		other.MoreArg()} {
		if l.NamedBy(bad) {
			t.Errorf("%q names the listing", bad)
		}
	}
	if nilListing.NamedBy(arg) || nilListing.HasMore() {
		t.Error("a nil listing is named or has more")
	}
	// Older state has no kind: a search.
	var old session.State
	if err := json.Unmarshal([]byte(`{"listing":{"query":"shoes","offset":5,"total":9}}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Listing.ListKind() != session.ListSearch || !old.Listing.NamedBy((&session.Listing{Kind: session.ListSearch, Query: "shoes"}).MoreArg()) {
		t.Errorf("old listing %+v", old.Listing)
	}
	// The button's callback data fits Telegram's 64 bytes for the longest kind.
	b := MoreButton("ru", &session.Listing{Kind: session.ListCategory, Category: strings.Repeat("Категория ", 10)})
	if len(b.Data) > 64 || b.Label != "Ещё" {
		t.Errorf("button %q (%d bytes) %q", b.Data, len(b.Data), b.Label)
	}
	if a, err := view.ParseAction(b.Data); err != nil || a.Kind != view.ActMore || a.Arg != b.Action.Arg {
		t.Errorf("parse %q: %+v %v", b.Data, a, err)
	}
	if MoreButton("de", l).Label != "More" {
		t.Error("unknown language is not labelled in English")
	}
}

// skuOfLargestCategory is a product of the category with the most active
// products, whose alternatives (same category) span two pages or more.
func skuOfLargestCategory(t *testing.T, e *testEnv) string {
	t.Helper()
	var row struct {
		CategoryID int64 `bun:"category_id"`
		N          int   `bun:"n"`
	}
	err := e.db.NewSelect().Table("products").Column("category_id").ColumnExpr("COUNT(*) AS n").
		Where("active = ?", true).Where("category_id IS NOT NULL").Group("category_id").
		OrderExpr("n DESC, category_id").Limit(1).Scan(context.Background(), &row)
	if err != nil {
		t.Fatal(err)
	}
	var sku string
	err = e.db.NewSelect().Table("products").Column("sku").Where("category_id = ?", row.CategoryID).
		Where("active = ?", true).OrderExpr("id").Limit(1).Scan(context.Background(), &sku)
	if err != nil || row.N <= similarLimit+1 {
		t.Fatalf("largest category %d has %d products (%v)", row.CategoryID, row.N, err)
	}
	return sku
}
