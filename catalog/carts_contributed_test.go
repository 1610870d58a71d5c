package catalog_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestSharedCartsAddedTo(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 10), product("B-1", 250, 3))
		anna, bob := customer(t, db, "slack", "U1"), customer(t, db, "slack", "U2")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.SharedCart("slack", "C1"), "A-1", 1, anna.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.SharedCart("slack", "C1"), "B-1", 1, bob.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.SharedCart("slack", "C2"), "B-1", 1, bob.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.SharedCart("telegram", "-100"), "A-1", 1, anna.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(anna.ID), "A-1", 1, anna.ID))

		carts, err := catalog.SharedCartsAddedTo(ctx, db, "slack", anna.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(carts) != 1 || carts[0].ChatID != "C1" || len(carts[0].Items) != 2 || carts[0].Items[1].Adder.ID != bob.ID {
			t.Fatalf("anna's slack carts = %+v", carts)
		}
		carts, err = catalog.SharedCartsAddedTo(ctx, db, "slack", bob.ID, 1)
		if err != nil || len(carts) != 1 {
			t.Fatalf("bob's carts with limit 1 = %d, %v", len(carts), err)
		}
		if carts, err := catalog.SharedCartsAddedTo(ctx, db, "web", anna.ID, 10); err != nil || len(carts) != 0 {
			t.Errorf("web carts = %d, %v", len(carts), err)
		}
	})
}
