package main

import (
	"context"
	"flag"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

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
