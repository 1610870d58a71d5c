package demo_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
)

func TestDemoPages(t *testing.T) {
	pages, err := demo.Pages()
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, p := range pages {
		slugs = append(slugs, p.Slug)
		if len(catalog.ChunkPage(p.Body)) < 2 {
			t.Errorf("%s: fewer than 2 passages", p.Slug)
		}
	}
	for _, want := range []string{"about", "contact", "payment", "returns", "shipping", "warranty"} {
		if !slices.Contains(slugs, want) {
			t.Errorf("no %s page among %v", want, slugs)
		}
	}
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	if _, err := demo.Seed(ctx, db); err != nil {
		t.Fatal(err)
	}
	p, err := catalog.GetPage(ctx, db, "shipping")
	if err != nil || !strings.Contains(p.Body, "Canada") {
		t.Errorf("seeded shipping page: %+v, %v", p, err)
	}
}
