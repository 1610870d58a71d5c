package engine

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestHome: a shopper's Home holds their own cart, the shared carts of
// their channel they added to (their lines marked, other channels' and
// untouched carts left out) and their orders, newest first, with prices
// formatted; a first-time shopper gets an empty Home and a customer.
func TestHome(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		eng := newShopEngine(t, db)
		cust := func(user, name string) *catalog.Customer {
			c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "slack", PlatformUserID: user, DisplayName: name})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		add := func(scope catalog.CartScope, sku string, qty int, by *catalog.Customer) {
			if _, err := catalog.AddToCart(ctx, db, scope, sku, qty, by.ID); err != nil {
				t.Fatal(err)
			}
		}
		ann, bob := cust("UANN", "Ann"), cust("UBOB", "Bob")
		older := placeTestOrder(t, db, "slack", "UANN", "o1", "GRO-COF-005", 1)
		newer := placeTestOrder(t, db, "slack", "UANN", "o2", "GRO-COF-006", 1)
		add(catalog.PersonalCart(ann.ID), "SHO-RUN-001-42", 2, ann)
		add(catalog.SharedCart("slack", "CTEAM"), "SHO-RUN-001-42", 1, ann)
		add(catalog.SharedCart("slack", "CTEAM"), "GRO-PAN-001", 1, bob)
		add(catalog.SharedCart("slack", "COTHER"), "GRO-PAN-001", 1, bob)
		add(catalog.SharedCart("telegram", "-100"), "GRO-PAN-001", 1, ann) // not this channel's

		h, err := eng.Home(ctx, Shopper{Channel: "slack", UserID: "UANN", UserName: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Cart.Lines) != 1 || h.Cart.Lines[0].SKU != "SHO-RUN-001-42" || h.Cart.Lines[0].Qty != 2 || h.Cart.TotalText == "" {
			t.Errorf("own cart = %+v", h.Cart)
		}
		if len(h.Shared) != 1 || h.Shared[0].ChatID != "CTEAM" || len(h.Shared[0].Cart.Lines) != 2 {
			t.Fatalf("shared carts = %+v", h.Shared)
		}
		sc := h.Shared[0]
		if !sc.Yours["SHO-RUN-001-42"] || sc.Yours["GRO-PAN-001"] {
			t.Errorf("lines marked as Ann's: %v", sc.Yours)
		}
		for _, l := range sc.Cart.Lines {
			if l.SKU == "GRO-PAN-001" && l.AddedBy != "Bob" {
				t.Errorf("Bob's line added by %q", l.AddedBy)
			}
		}
		all, err := catalog.ListCategories(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		var roots []string
		for _, c := range catalog.Children(all, nil) {
			roots = append(roots, c.Name)
		}
		if len(roots) == 0 || !slices.Equal(h.Categories, roots) {
			t.Errorf("categories = %v, want the top-level ones %v", h.Categories, roots)
		}
		if len(h.Orders) != 2 || h.Orders[0].Number != newer.Number || h.Orders[1].Number != older.Number || h.Orders[0].TotalText == "" {
			t.Errorf("orders = %+v", h.Orders)
		}

		h, err = eng.Home(ctx, Shopper{Channel: "slack", UserID: "UNEW", UserName: "New\x00comer"})
		if err != nil || len(h.Cart.Lines) != 0 || len(h.Shared) != 0 || len(h.Orders) != 0 {
			t.Errorf("first-time shopper: %+v, %v", h, err)
		}
		var name string
		if err := db.NewSelect().Model((*catalog.Customer)(nil)).Column("display_name").Where("platform_user_id = ?", "UNEW").Scan(ctx, &name); err != nil || name != "Newcomer" {
			t.Errorf("newcomer's name stored as %q (%v)", name, err)
		}
		if _, err := eng.Home(ctx, Shopper{Channel: "slack", UserID: "U\x00"}); !errors.Is(err, ErrBadTurn) {
			t.Errorf("user id with a NUL: %v", err)
		}
	})
}
