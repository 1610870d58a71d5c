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

var testBackoff = catalog.Backoff{Base: time.Second, Max: 8 * time.Second, Forget: time.Hour}

// TestClaimDelayGrows: each claim makes the next wait twice as long (1 s,
// 2 s, 4 s, 8 s, capped); a claim during the wait is refused with the
// time left and does not lengthen it; clearing starts again at 1 s, and
// so does a key left alone for Forget.
func TestClaimDelayGrows(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		for i, want := range []time.Duration{1, 2, 4, 8, 8, 8} {
			want *= time.Second
			c, err := catalog.ClaimDelay(ctx, db, "user:a", testBackoff, now)
			if err != nil || !c.Allowed || c.Attempts != i+1 {
				t.Fatalf("claim %d: %+v, %v", i+1, c, err)
			}
			c, err = catalog.ClaimDelay(ctx, db, "user:a", testBackoff, now.Add(want-time.Millisecond))
			if err != nil || c.Allowed || c.Wait != time.Millisecond {
				t.Fatalf("claim %d during the wait: %+v, %v; want refused, 1ms left of %v", i+1, c, err, want)
			}
			now = now.Add(want)
		}
		if c, _ := catalog.ClaimDelay(ctx, db, "user:b", testBackoff, now); !c.Allowed || c.Attempts != 1 {
			t.Errorf("another key shares the wait: %+v", c)
		}
		if err := catalog.ClearDelay(ctx, db, "user:a"); err != nil {
			t.Fatal(err)
		}
		if c, _ := catalog.ClaimDelay(ctx, db, "user:a", testBackoff, now); !c.Allowed || c.Attempts != 1 {
			t.Errorf("after clearing: %+v, want a first attempt", c)
		}
		now = now.Add(time.Second)
		catalog.ClaimDelay(ctx, db, "user:a", testBackoff, now)
		if c, _ := catalog.ClaimDelay(ctx, db, "user:a", testBackoff, now.Add(time.Hour)); !c.Allowed || c.Attempts != 1 {
			t.Errorf("after an hour alone: %+v, want a first attempt", c)
		}
		if n, err := catalog.PruneDelays(ctx, db, now.Add(3*time.Hour)); err != nil || n != 2 {
			t.Errorf("pruned %d (%v), want both keys", n, err)
		}
	})
}

// TestClaimDelayBadInput: a bad key or backoff is refused and stores
// nothing.
func TestClaimDelayBadInput(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx, now := context.Background(), time.Now()
		for name, tc := range map[string]struct {
			key string
			b   catalog.Backoff
		}{
			"empty key":        {"", testBackoff},
			"long key":         {string(make([]byte, 201)), testBackoff},
			"no base":          {"k", catalog.Backoff{Max: time.Second, Forget: time.Hour}},
			"max below base":   {"k", catalog.Backoff{Base: time.Second, Max: time.Millisecond, Forget: time.Hour}},
			"forget below max": {"k", catalog.Backoff{Base: time.Second, Max: time.Minute, Forget: time.Second}},
		} {
			if _, err := catalog.ClaimDelay(ctx, db, tc.key, tc.b, now); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: %v, want ErrInvalid", name, err)
			}
		}
		var n int
		if err := db.NewSelect().TableExpr("signin_delays").ColumnExpr("count(*)").Scan(ctx, &n); err != nil || n != 0 {
			t.Errorf("%d delays stored (%v), want none", n, err)
		}
	})
}

// TestClaimDelayAcrossReplicas: 60 concurrent claims of one key through
// three pools let exactly one through.
func TestClaimDelayAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 3, func(t *testing.T, dbs []*bun.DB) {
		now := time.Now()
		var allowed atomic.Int32
		var wg sync.WaitGroup
		for i := range 60 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := catalog.ClaimDelay(context.Background(), dbs[i%3], "user:owner", testBackoff, now)
				if err != nil {
					t.Error(err)
				}
				if c.Allowed {
					allowed.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := allowed.Load(); n != 1 {
			t.Errorf("%d claims allowed, want 1", n)
		}
	})
}

// TestIdempotencyKeys: a remembered key is seen until it expires, per
// scope; bad input is refused.
func TestIdempotencyKeys(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		if seen, err := catalog.KeySeen(ctx, db, "web:s1", "k1", now); err != nil || seen {
			t.Fatalf("unknown key seen: %v %v", seen, err)
		}
		for range 2 { // remembering twice is fine
			if err := catalog.RememberKey(ctx, db, "web:s1", "k1", now.Add(24*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if seen, _ := catalog.KeySeen(ctx, db, "web:s1", "k1", now.Add(23*time.Hour)); !seen {
			t.Error("a remembered key is not seen")
		}
		if seen, _ := catalog.KeySeen(ctx, db, "web:s2", "k1", now); seen {
			t.Error("a key is seen in another scope")
		}
		if seen, _ := catalog.KeySeen(ctx, db, "web:s1", "k1", now.Add(24*time.Hour)); seen {
			t.Error("an expired key is seen")
		}
		if err := catalog.RememberKey(ctx, db, "", "k", now); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("empty scope: %v", err)
		}
		if n, err := catalog.PruneKeys(ctx, db, now.Add(25*time.Hour)); err != nil || n != 1 {
			t.Errorf("pruned %d (%v), want 1", n, err)
		}
	})
}

// TestServerSecret: the first call makes the secret, later calls (from
// any pool) return the same one.
func TestServerSecret(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		a, err := catalog.ServerSecret(ctx, dbs[0], "device")
		if err != nil || len(a) != 32 {
			t.Fatalf("%x, %v", a, err)
		}
		b, err := catalog.ServerSecret(ctx, dbs[1], "device")
		if err != nil || string(a) != string(b) {
			t.Errorf("second call: %x, %v; want %x", b, err, a)
		}
		if c, _ := catalog.ServerSecret(ctx, dbs[1], "other"); string(c) == string(a) {
			t.Error("two names share a secret")
		}
	})
}
