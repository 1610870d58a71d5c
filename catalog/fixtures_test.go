package catalog_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// product, seed and customer are catalogtest's, short.
func product(sku string, price int64, stock int, category ...string) catalog.ProductInput {
	return catalogtest.Product(sku, price, stock, category...)
}

func seed(t *testing.T, db bun.IDB, ins ...catalog.ProductInput) {
	t.Helper()
	catalogtest.Seed(t, db, ins...)
}

func customer(t *testing.T, db bun.IDB, channel, userID string) *catalog.Customer {
	t.Helper()
	return catalogtest.Customer(t, db, channel, userID)
}

func stockOf(t *testing.T, db bun.IDB, sku string) int {
	t.Helper()
	p, err := catalog.GetProduct(context.Background(), db, sku)
	if err != nil {
		t.Fatal(err)
	}
	return p.Stock
}

// mustCart(t)(catalog.AddToCart(...)) fails the test on error.
func mustCart(t *testing.T) func(*catalog.Cart, error) *catalog.Cart {
	return func(c *catalog.Cart, err error) *catalog.Cart {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}

// categoryByPath finds a category of all by its full path.
func categoryByPath(t *testing.T, all []catalog.Category, path string) catalog.Category {
	t.Helper()
	for _, c := range all {
		if c.Path == path {
			return c
		}
	}
	t.Fatalf("no category %q", path)
	return catalog.Category{}
}
