package catalog_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestConcurrentCartAdds: concurrent adds to one shared cart line (tools of
// one reply, threads of one channel, replicas) lose nothing, and adds past
// stock are refused without changing the line.
func TestConcurrentCartAdds(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 50), product("B-1", 500, 99))
		team := catalog.SharedCart("slack", "C1")
		people := make([]*catalog.Customer, 4)
		for i := range people {
			people[i] = customer(t, db, "slack", "U"+string(rune('A'+i)))
		}
		const adds = 60 // 10 more than A-1's stock
		var wg sync.WaitGroup
		var refused, failed sync.Map
		for i := range adds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				by := people[i%len(people)].ID
				if _, err := catalog.AddCartItem(ctx, db, team, "A-1", 1, by); errors.Is(err, catalog.ErrOutOfStock) {
					refused.Store(i, err)
				} else if err != nil {
					failed.Store(i, err)
				}
				if _, err := catalog.AddCartItem(ctx, db, team, "B-1", 1, by); err != nil {
					failed.Store(-i-1, err)
				}
			}()
		}
		wg.Wait()
		failed.Range(func(k, v any) bool { t.Errorf("add %v: %v", k, v); return true })
		n := 0
		refused.Range(func(_, v any) bool {
			n++
			if !strings.Contains(v.(error).Error(), "(50 available)") {
				t.Errorf("refusal = %v, want the count available", v)
			}
			return true
		})
		c := mustCart(t)(catalog.GetCart(ctx, db, team))
		if got := qtyOf(c, "A-1"); got != 50 || n != adds-50 {
			t.Errorf("A-1: %d in cart, %d refused; want 50 and %d", got, n, adds-50)
		}
		if got := qtyOf(c, "B-1"); got != adds {
			t.Errorf("B-1: %d in cart, want %d (lost updates)", got, adds)
		}
	})
}

// TestCartWriteRefusals: each refused change names its reason in the
// texts tools show, and changes nothing.
func TestCartWriteRefusals(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 200), product("B-1", 500, 3))
		ann := customer(t, db, "web", "ann")
		cart := catalog.PersonalCart(ann.ID)
		if q, err := catalog.AddCartItem(ctx, db, cart, "A-1", 90, ann.ID); err != nil || q != 90 {
			t.Fatalf("add 90 = %d, %v", q, err)
		}
		cases := []struct {
			name string
			run  func() error
			want error
			text string
		}{
			{"over 99", func() error { _, err := catalog.AddCartItem(ctx, db, cart, "A-1", 10, ann.ID); return err },
				catalog.ErrInvalid, "quantity must be 0–99"},
			{"over stock", func() error { _, err := catalog.AddCartItem(ctx, db, cart, "B-1", 4, ann.ID); return err },
				catalog.ErrOutOfStock, "B-1: out of stock (3 available)"},
			{"set over stock", func() error { _, err := catalog.SetCartQuantity(ctx, db, cart, "B-1", 4, ann.ID); return err },
				catalog.ErrOutOfStock, "(3 available)"},
			{"unknown", func() error { _, err := catalog.AddCartItem(ctx, db, cart, "NOPE", 1, ann.ID); return err },
				catalog.ErrNotFound, "NOPE"},
			{"zero add", func() error { _, err := catalog.AddCartItem(ctx, db, cart, "A-1", 0, ann.ID); return err },
				catalog.ErrInvalid, "quantity"},
			{"remove absent", func() error { return catalog.RemoveCartItem(ctx, db, cart, "B-1") },
				catalog.ErrNotFound, "remove B-1: not found in cart"},
		}
		for _, tc := range cases {
			err := tc.run()
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("%s: err = %v, want %v containing %q", tc.name, err, tc.want, tc.text)
			}
		}
		c := mustCart(t)(catalog.GetCart(ctx, db, cart))
		if len(c.Items) != 1 || qtyOf(c, "A-1") != 90 {
			t.Errorf("refusals changed the cart: %+v", c.Items)
		}
		if err := catalog.SetProductActive(ctx, db, "A-1", false); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.AddCartItem(ctx, db, cart, "A-1", 1, ann.ID); !errors.Is(err, catalog.ErrOutOfStock) || !strings.Contains(err.Error(), "(0 available)") {
			t.Errorf("inactive: err = %v", err)
		}
		if q, err := catalog.SetCartQuantity(ctx, db, cart, "A-1", 0, ann.ID); err != nil || q != 0 {
			t.Errorf("set 0 = %d, %v", q, err)
		}
		if c := mustCart(t)(catalog.GetCart(ctx, db, cart)); len(c.Items) != 0 {
			t.Errorf("set 0 left %+v", c.Items)
		}
	})
}

// TestClaimEffect: an effect is claimed once per turn; a claim rolled back
// with its transaction is free again; old rows are pruned.
func TestClaimEffect(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		claim := func(db bun.IDB, turn, effect string, at time.Time) bool {
			t.Helper()
			ok, err := catalog.ClaimEffect(ctx, db, turn, effect, at)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !claim(db, "1:t1", "add#1", old) || claim(db, "1:t1", "add#1", old) {
			t.Error("the second claim of one effect must report false")
		}
		if !claim(db, "1:t1", "add#2", old) || !claim(db, "2:t1", "add#1", old) {
			t.Error("another occurrence or another turn is another effect")
		}
		rollback := errors.New("crash")
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if !claim(tx, "1:t2", "add#1", old) {
				t.Error("fresh claim refused")
			}
			return rollback
		})
		if !errors.Is(err, rollback) || !claim(db, "1:t2", "add#1", time.Now()) {
			t.Error("a rolled-back claim must leave the effect unclaimed")
		}
		if _, err := catalog.ClaimEffect(ctx, db, "", "x", old); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("empty key: err = %v", err)
		}
		n, err := catalog.PruneEffects(ctx, db, old.Add(time.Hour))
		if err != nil || n != 3 {
			t.Errorf("pruned %d, %v; want 3", n, err)
		}
		if claim(db, "1:t2", "add#1", time.Now()) {
			t.Error("prune removed a recent row")
		}
	})
}

func qtyOf(c *catalog.Cart, sku string) int {
	for _, it := range c.Items {
		if it.Product != nil && it.Product.SKU == sku {
			return it.Quantity
		}
	}
	return 0
}
