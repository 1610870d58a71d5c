package catalog_test

import (
	"context"
	"maps"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
)

// TestListOrderPage: newest first with customers, the status, channel and
// date filters, and id pages that neither skip nor repeat an order;
// ChangeOrderStatus cancels with the stock returned.
func TestListOrderPage(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 100, 10))
		place := func(c *catalog.Customer, key string) *catalog.Order {
			t.Helper()
			mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(c.ID), "A-1", 1, c.ID))
			o, err := order(t, db, c, key)
			if err != nil {
				t.Fatal(err)
			}
			return o
		}
		ann, bob := customer(t, db, "telegram", "ann"), customer(t, db, "slack", "bob")
		o1, o2, o3 := place(ann, "k1"), place(bob, "k2"), place(ann, "k3")
		if _, err := catalog.ChangeOrderStatus(ctx, db, o2.Number, catalog.StatusCancelled, ""); err != nil {
			t.Fatal(err)
		}
		if n := stockOf(t, db, "A-1"); n != 8 {
			t.Errorf("stock after cancelling one of three = %d, want 8", n)
		}
		if _, err := catalog.ChangeOrderStatus(ctx, db, o2.Number, catalog.StatusPaid, ""); err == nil {
			t.Error("a cancelled order became paid")
		}
		today := time.Now().UTC().Truncate(24 * time.Hour)
		for _, tc := range []struct {
			name string
			l    catalog.OrderList
			want []string
		}{
			{"all, newest first", catalog.OrderList{}, []string{o3.Number, o2.Number, o1.Number}},
			{"status", catalog.OrderList{Status: catalog.StatusCancelled}, []string{o2.Number}},
			{"channel", catalog.OrderList{Channel: "telegram"}, []string{o3.Number, o1.Number}},
			{"today", catalog.OrderList{From: today, Before: today.AddDate(0, 0, 1)}, []string{o3.Number, o2.Number, o1.Number}},
			{"tomorrow on", catalog.OrderList{From: today.AddDate(0, 0, 1)}, nil},
			{"before today", catalog.OrderList{Before: today}, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var got []string
				l := tc.l
				l.Limit = 1
				for range 10 {
					os, next, err := catalog.ListOrderPage(ctx, db, l)
					if err != nil {
						t.Fatal(err)
					}
					for _, o := range os {
						got = append(got, o.Number)
						if o.Customer == nil || o.Customer.ID != o.CustomerID {
							t.Errorf("order %s without its customer", o.Number)
						}
					}
					if next == 0 {
						break
					}
					l.AfterID = next
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("pages of 1: %v, want %v", got, tc.want)
				}
			})
		}
		chans, err := panel.OrderChannels(ctx, db)
		if err != nil || !slices.Equal(chans, []string{"slack", "telegram"}) {
			t.Errorf("OrderChannels = %v, %v", chans, err)
		}
	})
}

// queryCounter counts the queries run through a bun.DB.
type queryCounter struct{ n atomic.Int64 }

func (c *queryCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *queryCounter) AfterQuery(context.Context, *bun.QueryEvent) {}

// TestListOrderPageCounts: the order list carries each order's lines and
// units (it showed 0 items for every order), and a page is one query
// however many orders it holds (no query per order).
func TestListOrderPageCounts(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 100, 50), product("B-1", 200, 50))
		ann := customer(t, db, "telegram", "ann")
		cart := catalog.PersonalCart(ann.ID)
		mustCart(t)(catalog.AddToCart(ctx, db, cart, "A-1", 3, ann.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, cart, "B-1", 2, ann.ID))
		two, err := order(t, db, ann, "two lines")
		if err != nil {
			t.Fatal(err)
		}
		mustCart(t)(catalog.AddToCart(ctx, db, cart, "B-1", 1, ann.ID))
		one, err := order(t, db, ann, "one line")
		if err != nil {
			t.Fatal(err)
		}
		counter := &queryCounter{}
		os, _, err := catalog.ListOrderPage(ctx, db.WithQueryHook(counter), catalog.OrderList{})
		if err != nil {
			t.Fatal(err)
		}
		if n := counter.n.Load(); n != 1 {
			t.Errorf("a page of %d orders took %d queries, want 1", len(os), n)
		}
		got := map[string][2]int{}
		for _, o := range os {
			got[o.Number] = [2]int{o.LineCount, o.UnitCount}
			if o.Customer == nil || o.Customer.ID != ann.ID {
				t.Errorf("order %s without its customer", o.Number)
			}
		}
		want := map[string][2]int{two.Number: {2, 5}, one.Number: {1, 1}}
		if !maps.Equal(got, want) {
			t.Errorf("lines and units %v, want %v", got, want)
		}
	})
}
