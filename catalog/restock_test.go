package catalog_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

var alertNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func subscribe(t *testing.T, db bun.IDB, c *catalog.Customer, sku string, now time.Time) (*catalog.StockAlert, bool, error) {
	t.Helper()
	return catalog.SubscribeStockAlert(context.Background(), db, catalog.StockAlertRequest{
		CustomerID: c.ID, SKU: sku, Where: catalog.ConversationKey{Channel: c.Channel, ChatID: "chat-" + c.PlatformUserID}, Now: now,
	})
}

func alertState(t *testing.T, db bun.IDB, c *catalog.Customer, sku string) catalog.StockAlertState {
	t.Helper()
	a, err := catalog.GetStockAlert(context.Background(), db, c.ID, sku)
	if err != nil {
		t.Fatal(err)
	}
	return a.State
}

func TestStockAlertSubscribe(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("OUT-1", 100, 0), product("IN-1", 100, 3))
		ann := customer(t, db, "telegram", "1")
		if _, created, err := subscribe(t, db, ann, "OUT-1", alertNow); err != nil || !created {
			t.Fatalf("subscribe = %v, %v", created, err)
		}
		// Asking again renews, it does not add a second alert.
		if _, created, err := subscribe(t, db, ann, "OUT-1", alertNow.Add(time.Hour)); err != nil || created {
			t.Fatalf("second subscribe = %v, %v", created, err)
		}
		a, _ := catalog.GetStockAlert(ctx, db, ann.ID, "OUT-1")
		if !a.ExpiresAt.Equal(alertNow.Add(time.Hour + catalog.StockAlertTTL)) {
			t.Errorf("expires %v", a.ExpiresAt)
		}
		for _, tc := range []struct {
			sku  string
			want error
		}{{"IN-1", catalog.ErrInStock}, {"NOPE", catalog.ErrNotFound}, {"", catalog.ErrNotFound}} {
			if _, _, err := subscribe(t, db, ann, tc.sku, alertNow); !errors.Is(err, tc.want) {
				t.Errorf("subscribe %q: %v, want %v", tc.sku, err, tc.want)
			}
		}
		if err := catalog.SetProductActive(ctx, db, "OUT-1", false); err != nil {
			t.Fatal(err)
		}
		bob := customer(t, db, "slack", "2")
		if _, _, err := subscribe(t, db, bob, "OUT-1", alertNow); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("archived product: %v", err)
		}
		if _, _, err := catalog.SubscribeStockAlert(ctx, db, catalog.StockAlertRequest{SKU: "OUT-1", Now: alertNow}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("no customer: %v", err)
		}
	})
}

// Every stock write that makes a product sellable wakes its alerts in the
// same transaction: an edit (upsert), SetStock, stock returned by a
// cancellation; a write that leaves it at 0 does not.
func TestStockAlertWake(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 100, 0), product("B", 100, 0), product("C", 100, 1))
		ann := customer(t, db, "telegram", "1")
		for _, sku := range []string{"A", "B"} {
			if _, _, err := subscribe(t, db, ann, sku, alertNow); err != nil {
				t.Fatal(err)
			}
		}
		seed(t, db, product("A", 120, 0)) // price change, still out
		if s := alertState(t, db, ann, "A"); s != catalog.AlertWaiting {
			t.Fatalf("A after an edit at 0: %s", s)
		}
		seed(t, db, product("A", 120, 4))
		if s := alertState(t, db, ann, "A"); s != catalog.AlertDue {
			t.Fatalf("A after restock: %s", s)
		}
		// A write rolled back wakes nothing.
		_ = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if err := catalog.SetStock(ctx, tx, "B", 5); err != nil {
				t.Fatal(err)
			}
			return errors.New("rollback")
		})
		if s := alertState(t, db, ann, "B"); s != catalog.AlertWaiting {
			t.Fatalf("B after a rolled back restock: %s", s)
		}
		if err := catalog.SetStock(ctx, db, "B", 5); err != nil {
			t.Fatal(err)
		}
		if s := alertState(t, db, ann, "B"); s != catalog.AlertDue {
			t.Fatalf("B after SetStock: %s", s)
		}
	})
}

// Two workers claiming at once, as two replicas would: every due alert is
// claimed by exactly one of them.
func TestStockAlertClaimOnce(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		db := dbs[0]
		seed(t, db, product("A", 100, 0))
		const n = 20
		for i := range n {
			c := customer(t, db, "telegram", string(rune('a'+i)))
			if _, _, err := subscribe(t, db, c, "A", alertNow); err != nil {
				t.Fatal(err)
			}
		}
		seed(t, db, product("A", 100, 3))
		claimed := make(map[int64]int)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					got, err := catalog.ClaimStockAlerts(ctx, dbs[w%2], alertNow.Add(time.Minute), time.Minute, 3)
					if err != nil {
						t.Error(err)
						return
					}
					if len(got) == 0 {
						return
					}
					mu.Lock()
					for _, a := range got {
						claimed[a.ID]++
					}
					mu.Unlock()
					for _, a := range got {
						if err := catalog.MarkStockAlertSent(ctx, dbs[w%2], a.ID, alertNow); err != nil {
							t.Error(err)
						}
					}
				}
			}()
		}
		wg.Wait()
		if len(claimed) != n {
			t.Fatalf("claimed %d alerts, want %d", len(claimed), n)
		}
		for id, k := range claimed {
			if k != 1 {
				t.Errorf("alert %d claimed %d times", id, k)
			}
		}
	})
}

func TestStockAlertLifecycle(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 100, 0), product("B", 100, 0))
		ann, bob := customer(t, db, "telegram", "1"), customer(t, db, "telegram", "2")
		for _, c := range []*catalog.Customer{ann, bob} {
			for _, sku := range []string{"A", "B"} {
				if _, _, err := subscribe(t, db, c, sku, alertNow); err != nil {
					t.Fatal(err)
				}
			}
		}
		seed(t, db, product("A", 100, 2))
		now := alertNow.Add(time.Hour)
		got, err := catalog.ClaimStockAlerts(ctx, db, now, time.Minute, 10)
		if err != nil || len(got) != 2 || got[0].Product.SKU != "A" || got[0].Customer == "" {
			t.Fatalf("claim = %+v, %v", got, err)
		}
		// A lease not yet lapsed is not claimed again; a lapsed one is.
		if again, _ := catalog.ClaimStockAlerts(ctx, db, now.Add(30*time.Second), time.Minute, 10); len(again) != 0 {
			t.Fatalf("claimed within the lease: %d", len(again))
		}
		again, _ := catalog.ClaimStockAlerts(ctx, db, now.Add(2*time.Minute), time.Minute, 10)
		if len(again) != 2 {
			t.Fatalf("after the lease lapsed: %d", len(again))
		}
		byCustomer := map[int64]catalog.DueStockAlert{}
		for _, a := range again {
			byCustomer[a.CustomerID] = a
		}
		if err := catalog.MarkStockAlertSent(ctx, db, byCustomer[ann.ID].ID, now); err != nil {
			t.Fatal(err)
		}
		// Bob blocked the bot: his alert and his other waiting one end.
		if err := catalog.MarkStockAlertBlocked(ctx, db, byCustomer[bob.ID].StockAlert, now, errors.New("403")); err != nil {
			t.Fatal(err)
		}
		if s := alertState(t, db, bob, "B"); s != catalog.AlertBlocked {
			t.Errorf("bob's other alert: %s", s)
		}
		if s := alertState(t, db, ann, "A"); s != catalog.AlertSent {
			t.Errorf("ann's alert: %s", s)
		}
		// Ann's alert on B expires after 60 days, not a second before.
		if n, _ := catalog.ExpireStockAlerts(ctx, db, alertNow.Add(catalog.StockAlertTTL-time.Second)); n != 0 {
			t.Errorf("expired early: %d", n)
		}
		if n, _ := catalog.ExpireStockAlerts(ctx, db, alertNow.Add(catalog.StockAlertTTL)); n != 1 {
			t.Errorf("expired %d, want 1", n)
		}
		seed(t, db, product("B", 100, 2))
		if got, _ := catalog.ClaimStockAlerts(ctx, db, alertNow.Add(catalog.StockAlertTTL), time.Minute, 10); len(got) != 0 {
			t.Errorf("expired or blocked alerts claimed: %+v", got)
		}
		// Subscribing again after a delivery starts a new alert.
		seed(t, db, product("A", 100, 0))
		if _, created, err := subscribe(t, db, ann, "A", now); err != nil || !created || alertState(t, db, ann, "A") != catalog.AlertWaiting {
			t.Errorf("resubscribe = %v, %v", created, err)
		}
	})
}
