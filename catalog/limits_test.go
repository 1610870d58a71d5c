package catalog_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestHitWindow: Max hits are allowed in a window, the next are refused
// with the time left, and the next window starts the count again.
func TestHitWindow(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		lim := catalog.Limit{Max: 3, Window: time.Minute}
		t0 := time.Date(2026, 11, 25, 10, 0, 10, 0, time.UTC) // 10 s into a window
		for i := 1; i <= 5; i++ {
			res, err := catalog.Hit(ctx, db, "turn:1", lim, t0)
			if err != nil {
				t.Fatal(err)
			}
			if res.Count != i || res.Allowed != (i <= 3) || res.RetryAfter != 50*time.Second {
				t.Fatalf("hit %d: %+v, want count %d, allowed %v, retry after 50s", i, res, i, i <= 3)
			}
		}
		if res, _ := catalog.Hit(ctx, db, "turn:2", lim, t0); !res.Allowed || res.Count != 1 {
			t.Errorf("another key shares the count: %+v", res)
		}
		res, err := catalog.Hit(ctx, db, "turn:1", lim, t0.Add(50*time.Second))
		if err != nil || !res.Allowed || res.Count != 1 {
			t.Errorf("next window: %+v, %v; want a fresh count", res, err)
		}
		// A replica whose clock lags counts into the newer window.
		res, err = catalog.Hit(ctx, db, "turn:1", lim, t0)
		if err != nil || res.Count != 2 {
			t.Errorf("hit from a lagging clock: %+v, %v; want count 2 in the newer window", res, err)
		}
	})
}

// TestHitBadInput: a bad key or limit is refused and counts nothing.
func TestHitBadInput(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx, now := context.Background(), time.Now()
		long := string(make([]byte, 201))
		for name, tc := range map[string]struct {
			key string
			lim catalog.Limit
		}{
			"empty key": {"", catalog.Limit{Max: 1, Window: time.Minute}},
			"long key":  {long, catalog.Limit{Max: 1, Window: time.Minute}},
			"no max":    {"k", catalog.Limit{Window: time.Minute}},
			"no window": {"k", catalog.Limit{Max: 1}},
		} {
			if _, err := catalog.Hit(ctx, db, tc.key, tc.lim, now); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: %v, want ErrInvalid", name, err)
			}
		}
		var n int
		if err := db.NewSelect().TableExpr("rate_limits").ColumnExpr("count(*)").Scan(ctx, &n); err != nil || n != 0 {
			t.Errorf("%d counters stored (%v), want none", n, err)
		}
	})
}

// TestHitAcrossReplicas: 90 concurrent hits through three pools on one
// database allow exactly Max.
func TestHitAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 3, func(t *testing.T, dbs []*bun.DB) {
		lim := catalog.Limit{Max: 7, Window: time.Hour}
		now := time.Now()
		var allowed atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, 90)
		for i := range 90 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := catalog.Hit(context.Background(), dbs[i%3], "login:user:admin", lim, now)
				if err != nil {
					errs <- err
					return
				}
				if res.Allowed {
					allowed.Add(1)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := allowed.Load(); got != int32(lim.Max) {
			t.Errorf("%d hits allowed across replicas, want exactly %d", got, lim.Max)
		}
	})
}

// TestPruneLimits: ended windows are deleted, current ones kept; the
// pruner prunes at most once per interval.
func TestPruneLimits(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		for _, k := range []string{"a", "b"} {
			if _, err := catalog.Hit(ctx, db, k, catalog.Limit{Max: 1, Window: time.Minute}, t0); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := catalog.Hit(ctx, db, "c", catalog.Limit{Max: 1, Window: time.Hour}, t0); err != nil {
			t.Fatal(err)
		}
		p := &catalog.LimitPruner{Every: time.Hour}
		if err := p.Maybe(ctx, db, t0.Add(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if n := countLimits(t, db); n != 1 {
			t.Fatalf("%d counters after pruning, want 1 (the hour window)", n)
		}
		if _, err := catalog.Hit(ctx, db, "a", catalog.Limit{Max: 1, Window: time.Minute}, t0); err != nil {
			t.Fatal(err)
		}
		if err := p.Maybe(ctx, db, t0.Add(3*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if n := countLimits(t, db); n != 2 {
			t.Errorf("%d counters, want 2: the pruner ran again within its interval", n)
		}
		if err := p.Maybe(ctx, db, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if n := countLimits(t, db); n != 0 {
			t.Errorf("%d counters after the interval, want 0", n)
		}
	})
}

func countLimits(t *testing.T, db bun.IDB) int {
	t.Helper()
	var n int
	if err := db.NewSelect().TableExpr("rate_limits").ColumnExpr("count(*)").Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}
