package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestCartScopes(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 10), product("B-1", 250, 3))
		anna, bob := customer(t, db, "slack", "U1"), customer(t, db, "slack", "U2")

		// Personal carts are separate.
		annaCart := catalog.PersonalCart(anna.ID)
		mustCart(t)(catalog.AddToCart(ctx, db, annaCart, "A-1", 2, anna.ID))
		c := mustCart(t)(catalog.AddToCart(ctx, db, annaCart, "A-1", 1, anna.ID))
		if c.Count() != 3 {
			t.Errorf("anna's cart has %d units, want 3", c.Count())
		}
		if c := mustCart(t)(catalog.GetCart(ctx, db, catalog.PersonalCart(bob.ID))); len(c.Items) != 0 || c.ID != 0 {
			t.Errorf("bob's cart = %+v, want empty and unsaved", c)
		}

		// A channel cart is shared and remembers who added what.
		team := catalog.SharedCart("slack", "C42")
		mustCart(t)(catalog.AddToCart(ctx, db, team, "A-1", 1, anna.ID))
		c = mustCart(t)(catalog.AddToCart(ctx, db, team, "B-1", 2, bob.ID))
		if len(c.Items) != 2 || c.Items[0].Adder == nil || c.Items[0].Adder.ID != anna.ID || c.Items[1].Adder.ID != bob.ID {
			t.Fatalf("team cart = %+v", c.Items)
		}
		if total, cur := c.Total(); total != 1000+2*250 || cur != "USD" {
			t.Errorf("team total = %d %s", total, cur)
		}
		if sum, err := catalog.SummarizeCart(ctx, db, team); err != nil || sum.Units != 3 || sum.Total != 1500 || sum.Currency != "USD" {
			t.Errorf("summary = %+v, %v", sum, err)
		}
		if sum, err := catalog.SummarizeCart(ctx, db, catalog.PersonalCart(bob.ID)); err != nil || sum.Units != 0 || sum.Total != 0 {
			t.Errorf("empty summary = %+v, %v", sum, err)
		}

		// Quantities are bounded by stock and by MaxCartQuantity.
		if _, err := catalog.AddToCart(ctx, db, team, "B-1", 2, anna.ID); !errors.Is(err, catalog.ErrOutOfStock) {
			t.Errorf("beyond stock: err = %v, want ErrOutOfStock", err)
		}
		if _, err := catalog.SetCartQuantity(ctx, db, team, "A-1", catalog.MaxCartQuantity+1, anna.ID); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("huge quantity: err = %v, want ErrInvalid", err)
		}
		if _, err := catalog.AddToCart(ctx, db, team, "NOPE", 1, anna.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("unknown sku: err = %v, want ErrNotFound", err)
		}
		if err := catalog.SetProductActive(ctx, db, "B-1", false); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.AddToCart(ctx, db, annaCart, "B-1", 1, anna.ID); !errors.Is(err, catalog.ErrOutOfStock) {
			t.Errorf("archived product: err = %v, want ErrOutOfStock", err)
		}

		// Setting 0 removes; removing twice is not found.
		if _, err := catalog.SetCartQuantity(ctx, db, team, "B-1", 0, bob.ID); err != nil {
			t.Fatal(err)
		}
		c = mustCart(t)(catalog.GetCart(ctx, db, team))
		if len(c.Items) != 1 {
			t.Errorf("after removal: %d lines", len(c.Items))
		}
		if err := catalog.RemoveCartItem(ctx, db, team, "B-1"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("remove twice: err = %v, want ErrNotFound", err)
		}
		if _, err := catalog.GetCart(ctx, db, catalog.CartScope{}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("empty scope: err = %v, want ErrInvalid", err)
		}
		if err := catalog.ClearCart(ctx, db, team); err != nil {
			t.Fatal(err)
		}
		if c := mustCart(t)(catalog.GetCart(ctx, db, team)); len(c.Items) != 0 {
			t.Errorf("cleared cart has %d lines", len(c.Items))
		}
		if c := mustCart(t)(catalog.GetCart(ctx, db, annaCart)); c.Count() != 3 {
			t.Errorf("clearing the team cart touched anna's: %d units", c.Count())
		}
	})
}

func TestCustomers(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		a := customer(t, db, "telegram", "100")
		b, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: "100", DisplayName: "Renamed"})
		if err != nil || b.ID != a.ID || b.DisplayName != "Renamed" {
			t.Fatalf("resolve again = %+v, %v", b, err)
		}
		if other := customer(t, db, "slack", "100"); other.ID == a.ID {
			t.Error("same user id on another channel must be another customer")
		}
		if err := catalog.SaveContact(ctx, db, a.ID, catalog.Contact{Name: "Ann", Phone: "+1 555", Address: "1 Main St"}); err != nil {
			t.Fatal(err)
		}
		got, err := catalog.GetCustomer(ctx, db, a.ID)
		if err != nil || got.Contact.Phone != "+1 555" || got.Contact.Address != "1 Main St" {
			t.Errorf("contact = %+v, %v", got, err)
		}
		if _, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram"}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("no user id: err = %v", err)
		}
	})
}

func TestReviews(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 1))
		p, _ := catalog.GetProduct(ctx, db, "A-1")
		if err := catalog.SetRating(ctx, db, p.ID, 4.0, 3); err != nil {
			t.Fatal(err)
		}
		if err := catalog.AddReview(ctx, db, catalog.Review{ProductID: p.ID, Author: "Ann", Rating: 5, Body: "Great"}); err != nil {
			t.Fatal(err)
		}
		p, _ = catalog.GetProduct(ctx, db, "A-1")
		if p.RatingCount != 4 || p.RatingAvg != 4.25 {
			t.Errorf("rating = %v from %d, want 4.25 from 4", p.RatingAvg, p.RatingCount)
		}
		rs, err := catalog.ListReviews(ctx, db, p.ID, 10)
		if err != nil || len(rs) != 1 || rs[0].Body != "Great" {
			t.Errorf("reviews = %+v, %v", rs, err)
		}
		if err := catalog.AddReview(ctx, db, catalog.Review{ProductID: p.ID, Rating: 6}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("rating 6: err = %v", err)
		}
	})
}

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
