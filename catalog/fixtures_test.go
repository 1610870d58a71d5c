package catalog_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// product returns a valid input; tests change what they need.
func product(sku string, price int64, stock int, category ...string) catalog.ProductInput {
	if len(category) == 0 {
		category = []string{"Shoes", "Running"}
	}
	return catalog.ProductInput{
		SKU: sku, Title: "Product " + sku, Description: "A test product", Brand: "Acme",
		CategoryPath: category, Price: price, Currency: "USD", Stock: stock,
		Attributes: map[string]string{"color": "red"}, ImageURLs: []string{"https://img.test/" + sku + ".jpg"},
	}
}

func seed(t *testing.T, db bun.IDB, ins ...catalog.ProductInput) {
	t.Helper()
	for i := range ins {
		if err := ins[i].Validate(); err != nil {
			t.Fatalf("fixture %s: %v", ins[i].SKU, err)
		}
	}
	if _, err := catalog.UpsertProducts(context.Background(), db, ins); err != nil {
		t.Fatalf("seed: %v", err)
	}
}

func customer(t *testing.T, db bun.IDB, channel, userID string) *catalog.Customer {
	t.Helper()
	c, err := catalog.ResolveCustomer(context.Background(), db, catalog.Identity{Channel: channel, PlatformUserID: userID, DisplayName: "User " + userID})
	if err != nil {
		t.Fatal(err)
	}
	return c
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
