package catalog_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestMedia(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		data := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}
		if err := catalog.SaveMedia(ctx, db, &catalog.MediaFile{Name: "a.png", ContentType: "image/png", Data: data, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		m, err := catalog.GetMedia(ctx, db, "a.png")
		if err != nil || m.ContentType != "image/png" || !bytes.Equal(m.Data, data) {
			t.Fatalf("get = %+v, %v; want the bytes saved", m, err)
		}
		if _, err := catalog.GetMedia(ctx, db, "b.png"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("missing media: %v, want ErrNotFound", err)
		}
	})
}

// TestCountShop counts orders by status, non-empty carts, and
// conversations needing a human or paused; GetProductByID loads by id.
func TestCountShop(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if n, err := catalog.CountShop(ctx, db); err != nil || len(n.OrdersByStatus) != 0 || n.Carts != 0 || n.NeedsHuman != 0 || n.Paused != 0 {
			t.Fatalf("empty shop = %+v, %v", n, err)
		}
		seed(t, db, product("A-1", 100, 10))
		ann, bob, cy := customer(t, db, "telegram", "ann"), customer(t, db, "telegram", "bob"), customer(t, db, "web", "cy")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
		o, err := order(t, db, ann, "k1")
		if err != nil {
			t.Fatal(err)
		}
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(bob.ID), "A-1", 2, bob.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(cy.ID), "A-1", 1, cy.ID))
		c1, c2 := openConv(t, db, ann), openConv(t, db, bob)
		if err := catalog.FlagNeedsHuman(ctx, db, c1.ID, "x"); err != nil {
			t.Fatal(err)
		}
		if err := catalog.SetPaused(ctx, db, c2.ID, true); err != nil {
			t.Fatal(err)
		}
		n, err := catalog.CountShop(ctx, db)
		if err != nil || n.OrdersByStatus[catalog.StatusNew] != 1 || len(n.OrdersByStatus) != 1 || n.Carts != 2 || n.NeedsHuman != 1 || n.Paused != 1 {
			t.Errorf("CountShop = %+v, %v; want 1 new order, 2 carts, 1 needing a human, 1 paused", n, err)
		}
		if want := []catalog.StatusRevenue{{Status: catalog.StatusNew, Currency: o.Currency, Minor: o.Total}}; !slices.Equal(n.Revenue, want) || o.Total <= 0 {
			t.Errorf("revenue = %+v, want %+v", n.Revenue, want)
		}
		p, _ := catalog.GetProduct(ctx, db, "A-1")
		if got, err := catalog.GetProductByID(ctx, db, p.ID); err != nil || got.SKU != "A-1" || got.Category == nil {
			t.Errorf("GetProductByID = %+v, %v", got, err)
		}
		if _, err := catalog.GetProductByID(ctx, db, p.ID+1000); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("GetProductByID of no product: %v, want ErrNotFound", err)
		}
	})
}
