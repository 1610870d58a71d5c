package catalog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
)

// save validates the inputs and runs one SaveProducts, as the admin
// panel does.
func save(ctx context.Context, db bun.IDB, edits ...catalog.ProductEdit) error {
	for i := range edits {
		if err := edits[i].In.Validate(); err != nil {
			return err
		}
	}
	_, err := catalog.SaveProducts(ctx, db, edits)
	return err
}

func mustProduct(t *testing.T, db bun.IDB, sku string) *catalog.Product {
	t.Helper()
	p, err := catalog.GetProduct(context.Background(), db, sku)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sell places an order of n units of sku for a new customer.
func sell(t *testing.T, db bun.IDB, sku string, n int, key string) *catalog.Order {
	t.Helper()
	c := customer(t, db, "web", key)
	mustCart(t)(catalog.AddToCart(context.Background(), db, catalog.PersonalCart(c.ID), sku, n, c.ID))
	o, err := order(t, db, c, key)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestSaveProductsVersions: a form saves its content only over the
// version it was loaded at, and its stock only as a change to the stock
// as it is; orders change stock without moving the version, imports and
// archiving move it; a refused save writes nothing.
func TestSaveProductsVersions(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 100))
		loaded := mustProduct(t, db, "A-1")
		if loaded.Version != 1 {
			t.Fatalf("new product at version %d, want 1", loaded.Version)
		}
		for i := range 10 {
			sell(t, db, "A-1", 1, fmt.Sprintf("o%d", i))
		}
		if p := mustProduct(t, db, "A-1"); p.Version != 1 || p.Stock != 90 {
			t.Fatalf("orders moved the version to %d (stock %d)", p.Version, p.Stock)
		}

		// A title-only save after 10 orders keeps the 90.
		in := product("A-1", 1000, 100)
		in.Title = "Renamed"
		if err := save(ctx, db, catalog.ProductEdit{In: in, Version: loaded.Version}); err != nil {
			t.Fatal(err)
		}
		if p := mustProduct(t, db, "A-1"); p.Title != "Renamed" || p.Stock != 90 || p.Version != 2 {
			t.Fatalf("after a title save: %q stock %d version %d", p.Title, p.Stock, p.Version)
		}

		// Each stale or bad save is refused and writes nothing.
		stale := product("A-1", 999, 100)
		stale.Title = "Stale"
		for name, tc := range map[string]struct {
			edit catalog.ProductEdit
			want error
		}{
			"stale version":         {catalog.ProductEdit{In: stale, Version: 1}, catalog.ErrConflict},
			"stale version and add": {catalog.ProductEdit{In: stale, Version: 1, Stock: catalog.StockChange{Add: 10}}, catalog.ErrConflict},
			"count moved":           {catalog.ProductEdit{In: stale, Version: 2, Stock: catalog.StockChange{Set: true, From: 100, To: 110}}, catalog.ErrConflict},
			"below zero":            {catalog.ProductEdit{In: stale, Version: 2, Stock: catalog.StockChange{Add: -91}}, catalog.ErrInvalid},
			"negative count":        {catalog.ProductEdit{In: stale, Version: 2, Stock: catalog.StockChange{Set: true, From: 90, To: -1}}, catalog.ErrInvalid},
			"create over existing":  {catalog.ProductEdit{In: stale, Version: 0}, catalog.ErrConflict},
			"future version":        {catalog.ProductEdit{In: stale, Version: 7}, catalog.ErrConflict},
		} {
			if err := save(ctx, db, tc.edit); !errors.Is(err, tc.want) {
				t.Errorf("%s: err = %v, want %v", name, err, tc.want)
			}
		}
		if p := mustProduct(t, db, "A-1"); p.Title != "Renamed" || p.Price != 1000 || p.Stock != 90 || p.Version != 2 {
			t.Fatalf("a refused save wrote: %q price %d stock %d version %d", p.Title, p.Price, p.Stock, p.Version)
		}

		// Adjustments apply to the stock as it is; a count applies while
		// the stock is still the one shown.
		if err := save(ctx, db, catalog.ProductEdit{In: in, Version: 2, Stock: catalog.StockChange{Add: 10}}); err != nil {
			t.Fatal(err)
		}
		if err := save(ctx, db, catalog.ProductEdit{In: in, Version: 3, Stock: catalog.StockChange{Set: true, From: 100, To: 40}}); err != nil {
			t.Fatal(err)
		}
		if p := mustProduct(t, db, "A-1"); p.Stock != 40 || p.Version != 4 {
			t.Fatalf("after +10 and =40: stock %d version %d", p.Stock, p.Version)
		}

		// An import and archiving move the version: a form opened before
		// either is refused.
		seed(t, db, product("A-1", 1000, 40))
		if p := mustProduct(t, db, "A-1"); p.Version != 5 {
			t.Fatalf("import left version %d, want 5", p.Version)
		}
		if err := catalog.SetProductActive(ctx, db, "A-1", false); err != nil {
			t.Fatal(err)
		}
		if err := save(ctx, db, catalog.ProductEdit{In: in, Version: 5}); !errors.Is(err, catalog.ErrConflict) {
			t.Fatalf("save from before the archive: err = %v", err)
		}
	})
}

// TestStaleFormsRaceOrders: while shoppers order and a merchant cancels
// an order, two members of staff save forms loaded at the same moment
// (one adds 2 units, the other types a count 10 above what it showed).
// Exactly one save wins, and the final stock is always the initial stock
// minus what was sold plus what came back and what the winner added: no
// sold unit is ever resurrected. 100 rounds take about a second per
// database; 20 with -short or under the race detector.
func TestStaleFormsRaceOrders(t *testing.T) {
	rounds := 100
	if testing.Short() || raceEnabled {
		rounds = 20
	}
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 10_000))
		const buyers = 3
		var prev []*catalog.Order
		resurrected := 0
		for round := range rounds {
			carts := make([]*catalog.Customer, buyers)
			for i := range carts {
				carts[i] = customer(t, db, "web", fmt.Sprintf("r%d-%d", round, i))
				mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(carts[i].ID), "A-1", 1+i, carts[i].ID))
			}
			loaded := mustProduct(t, db, "A-1")
			a, b := product("A-1", 1000, 0), product("A-1", 1000, 0)
			a.Title, b.Title = fmt.Sprintf("A%d", round), fmt.Sprintf("B%d", round)
			edits := []catalog.ProductEdit{
				{In: a, Version: loaded.Version, Stock: catalog.StockChange{Add: 2}},
				{In: b, Version: loaded.Version, Stock: catalog.StockChange{Set: true, From: loaded.Stock, To: loaded.Stock + 10}},
			}
			var wg sync.WaitGroup
			orders := make([]*catalog.Order, buyers)
			errs := make([]error, buyers+3)
			for i := range carts {
				wg.Go(func() { orders[i], errs[i] = order(t, db, carts[i], fmt.Sprintf("r%d-%d", round, i)) })
			}
			for k := range edits {
				wg.Go(func() { errs[buyers+k] = save(ctx, db, edits[k]) })
			}
			returned := 0
			if len(prev) > 0 {
				returned = prev[0].Items[0].Quantity
				wg.Go(func() {
					_, _, errs[buyers+2] = catalog.CancelOrder(ctx, db, catalog.OrderChange{Number: prev[0].Number, FormKey: "c" + prev[0].Number, Staff: "admin"})
				})
			}
			wg.Wait()
			sold := 0
			for i, o := range orders {
				if errs[i] != nil {
					t.Fatalf("round %d: order: %v", round, errs[i])
				}
				sold += o.Items[0].Quantity
			}
			if errs[buyers+2] != nil {
				t.Fatalf("round %d: cancel: %v", round, errs[buyers+2])
			}
			want, wins, title := loaded.Stock-sold+returned, 0, loaded.Title
			for k, add := range []int{2, 10} {
				switch err := errs[buyers+k]; {
				case err == nil:
					want, wins, title = want+add, wins+1, edits[k].In.Title
				case !errors.Is(err, catalog.ErrConflict):
					t.Fatalf("round %d: save %d: %v", round, k, err)
				}
			}
			p := mustProduct(t, db, "A-1")
			if wins != 1 || p.Title != title || p.Version != loaded.Version+1 {
				t.Fatalf("round %d: %d saves won, title %q (want %q), version %d → %d", round, wins, p.Title, title, loaded.Version, p.Version)
			}
			resurrected += p.Stock - want
			if p.Stock != want {
				t.Errorf("round %d: stock %d, want %d (loaded %d, sold %d, returned %d)", round, p.Stock, want, loaded.Stock, sold, returned)
			}
			prev = orders
		}
		t.Logf("%d rounds, %d units resurrected", rounds, resurrected)
	})
}

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
		if n, err := panel.CountShop(ctx, db); err != nil || len(n.OrdersByStatus) != 0 || n.Carts != 0 || n.NeedsHuman != 0 || n.Paused != 0 {
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
		c1, c2 := catalogtest.OpenConversation(t, db, ann), catalogtest.OpenConversation(t, db, bob)
		if err := catalog.FlagNeedsHuman(ctx, db, c1.ID, "x"); err != nil {
			t.Fatal(err)
		}
		if err := catalog.SetPaused(ctx, db, c2.ID, true); err != nil {
			t.Fatal(err)
		}
		n, err := panel.CountShop(ctx, db)
		if err != nil || n.OrdersByStatus[catalog.StatusNew] != 1 || len(n.OrdersByStatus) != 1 || n.Carts != 2 || n.NeedsHuman != 1 || n.Paused != 1 {
			t.Errorf("CountShop = %+v, %v; want 1 new order, 2 carts, 1 needing a human, 1 paused", n, err)
		}
		if want := []panel.StatusRevenue{{Status: catalog.StatusNew, Currency: o.Currency, Minor: o.Total}}; !slices.Equal(n.Revenue, want) || o.Total <= 0 {
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
