package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
)

// TestSearchHonoursPins: the search bot wires goes through the pins once
// load has the database: a pinned product is listed first for its query.
func TestSearchHonoursPins(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := demo.Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, envFunc(map[string]string{}))
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSearch(&cfg, slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.load(ctx, db, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	var last catalog.Product
	if err := db.NewSelect().Model(&last).Where("parent_id IS NULL").Where("active").Order("price").Limit(1).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.AddSearchPin(ctx, db, "running shoes", last.SKU); err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(ctx, search.Query{Text: "Running Shoes", Limit: 3})
	if err != nil || len(res.Products) == 0 || res.Products[0].SKU != last.SKU {
		t.Fatalf("search = %+v, %v; want %s first", res.Products, err, last.SKU)
	}
}

// TestPinSourceCache: pins live in memory. An edit made by this process is
// seen by the next search; one made elsewhere (another replica, written
// straight to the database here) within pinRefresh, and a deleted one
// likewise; a query without pins costs no read of its products.
func TestPinSourceCache(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	p := &pinSource{now: func() time.Time { return now }}
	p.db.Store(db)
	var prods []catalog.Product
	if err := db.NewSelect().Model(&prods).Where("parent_id IS NULL").Where("active").Order("id").Limit(2).Scan(ctx); err != nil || len(prods) < 2 {
		t.Fatalf("products: %v, %v", prods, err)
	}
	want := func(query string, skus ...string) {
		t.Helper()
		got, err := p.PinnedProducts(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		var have []string
		for _, pr := range got {
			have = append(have, pr.SKU)
		}
		if fmt.Sprint(have) != fmt.Sprint(skus) {
			t.Fatalf("pins of %q = %v, want %v", query, have, skus)
		}
	}
	want("gift ideas")
	pin, err := catalog.AddSearchPin(ctx, db, "Gift ideas", prods[0].SKU)
	if err != nil {
		t.Fatal(err)
	}
	want("GIFT  ideas", prods[0].SKU) // this process's edit: at once

	// Another replica's pin: not seen before the set is pinRefresh old.
	if _, err := db.NewInsert().Model(&catalog.SearchPin{Query: "socks", ProductID: prods[1].ID, CreatedAt: now}).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	want("socks")
	now = now.Add(pinRefresh)
	want("socks", prods[1].SKU)

	// Another replica's delete: likewise.
	if _, err := db.NewDelete().Model((*catalog.SearchPin)(nil)).Where("id = ?", pin.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	want("gift ideas") // its products are read again: none left
	if err := catalog.DeleteSearchPin(ctx, db, mustPinID(ctx, t, db, "socks")); err != nil {
		t.Fatal(err)
	}
	want("socks")
}

func mustPinID(ctx context.Context, t *testing.T, db *bun.DB, query string) int64 {
	t.Helper()
	var id int64
	if err := db.NewSelect().Model((*catalog.SearchPin)(nil)).Column("id").Where("query = ?", query).Limit(1).Scan(ctx, &id); err != nil {
		t.Fatal(err)
	}
	return id
}
