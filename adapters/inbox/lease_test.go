package inbox_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/catalog/catalogtest"
)

// clock is a test clock the leases read.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func leased(t *testing.T, db *bun.DB, holder string, c *clock) *inbox.Inbox {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	in, err := inbox.NewLeased(ctx, db, "telegram", inbox.Lease{Holder: holder, For: 30 * time.Second, Renew: 10 * time.Second, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func claimedKeys(t *testing.T, in *inbox.Inbox) []string {
	t.Helper()
	rows, err := in.ClaimOrphans(context.Background(), inbox.MaxResume)
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, r := range rows {
		ks = append(ks, r.Key)
	}
	return ks
}

func mustClaim(t *testing.T, in *inbox.Inbox, key string, want bool) {
	t.Helper()
	got, err := in.Claim(context.Background(), key)
	if err != nil || got != want {
		t.Fatalf("%s claims %s: %v, %v; want %v", in.Holder(), key, got, err, want)
	}
}

// TestLeaseTakeover: the replica that records an update holds it; while
// its lease runs (renewed) no other replica can claim or sweep it; once
// it runs out (the holder died) the first sweep takes it, and the old
// holder can no longer claim it; once handled nobody takes it again.
// SQLite and Postgres, each replica with its own pool.
func TestLeaseTakeover(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		c := &clock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
		a, b := leased(t, dbs[0], "a", c), leased(t, dbs[1], "b", c)
		if _, err := a.Record(ctx, inbox.Update{Key: "1", Chat: "c", Kind: "update", Payload: "{}"}, nil); err != nil {
			t.Fatal(err)
		}
		mustClaim(t, a, "1", true) // the turn starts on a
		if ks := claimedKeys(t, b); len(ks) != 0 {
			t.Fatalf("b swept %v while a holds it", ks)
		}
		mustClaim(t, b, "1", false)
		c.advance(25 * time.Second)
		if err := a.Renew(ctx); err != nil { // a lives: 30 s more
			t.Fatal(err)
		}
		c.advance(25 * time.Second)
		if ks := claimedKeys(t, b); len(ks) != 0 {
			t.Fatalf("b swept %v although a renewed", ks)
		}
		c.advance(6 * time.Second) // a died: no renewal for 31 s
		if ks := fmt.Sprint(claimedKeys(t, b)); ks != "[1]" {
			t.Fatalf("b swept %s, want [1]", ks)
		}
		mustClaim(t, a, "1", false) // a, back from a pause, must not run it
		if err := a.Renew(ctx); err != nil {
			t.Fatal(err)
		}
		mustClaim(t, b, "1", true)
		if err := b.Done(ctx, "1"); err != nil {
			t.Fatal(err)
		}
		c.advance(time.Hour)
		if ks := claimedKeys(t, a); len(ks) != 0 {
			t.Errorf("a swept %v after it was handled", ks)
		}
		mustClaim(t, a, "1", false)
	})
}

// TestLeaseRelease: what a stopping replica releases, another takes at
// its next sweep without waiting out the lease; a release touches only
// the replica's own claims.
func TestLeaseRelease(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		c := &clock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
		a, b := leased(t, dbs[0], "a", c), leased(t, dbs[1], "b", c)
		for _, k := range []string{"1", "2", "3"} {
			if _, err := a.Record(ctx, inbox.Update{Key: k, Chat: "c", Payload: "{}"}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Release(ctx, "2"); err != nil { // the queue refused it
			t.Fatal(err)
		}
		if ks := fmt.Sprint(claimedKeys(t, b)); ks != "[2]" {
			t.Fatalf("b swept %s, want [2]", ks)
		}
		if err := a.ReleaseAll(ctx); err != nil { // a stops
			t.Fatal(err)
		}
		if ks := fmt.Sprint(claimedKeys(t, b)); ks != "[1 3]" {
			t.Fatalf("b swept %s, want [1 3]", ks)
		}
		if err := a.ReleaseAll(ctx); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"1", "2", "3"} {
			mustClaim(t, a, k, false) // b's, whatever a released
		}
	})
}

// TestLeaseSweepExactlyOnce: three replicas sweep 60 orphaned updates at
// the same moment: each update is claimed by exactly one of them.
func TestLeaseSweepExactlyOnce(t *testing.T) {
	catalogtest.EachReplicas(t, 3, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		c := &clock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
		dead := leased(t, dbs[0], "dead", c)
		for i := range 60 {
			if _, err := dead.Record(ctx, inbox.Update{Key: fmt.Sprintf("k%02d", i), Chat: fmt.Sprint(i % 7), Payload: "{}"}, nil); err != nil {
				t.Fatal(err)
			}
		}
		var ins []*inbox.Inbox
		for i, db := range dbs {
			ins = append(ins, leased(t, db, fmt.Sprint("r", i), c))
		}
		c.advance(31 * time.Second)
		gate := make(chan struct{})
		var mu sync.Mutex
		got := map[string]int{}
		var wg sync.WaitGroup
		for _, in := range ins {
			wg.Go(func() {
				<-gate
				for _, k := range claimedKeys(t, in) {
					mu.Lock()
					got[k]++
					mu.Unlock()
				}
			})
		}
		close(gate)
		wg.Wait()
		if len(got) != 60 {
			t.Errorf("%d of 60 updates claimed", len(got))
		}
		for k, n := range got {
			if n != 1 {
				t.Errorf("%s claimed %d times", k, n)
			}
		}
	})
}

// TestLeaseUnleasedRows: rows recorded without a lease (before the
// upgrade, or by a plain inbox) are anyone's; a plain inbox's Claim always
// succeeds and it cannot sweep.
func TestLeaseUnleasedRows(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		plain := newInbox(t, db, "telegram")
		if _, err := plain.Record(ctx, inbox.Update{Key: "old", Payload: "{}"}, nil); err != nil {
			t.Fatal(err)
		}
		mustClaim(t, plain, "old", true)
		if _, err := plain.ClaimOrphans(ctx, 10); err == nil {
			t.Error("a plain inbox swept")
		}
		c := &clock{now: time.Now()}
		if ks := fmt.Sprint(claimedKeys(t, leased(t, db, "b", c))); ks != "[old]" {
			t.Errorf("swept %s, want [old]", ks)
		}
	})
}

// TestLeaseBadSettings: a renewal not shorter than the lease is refused.
func TestLeaseBadSettings(t *testing.T) {
	db := catalogtest.SQLite(t)
	_, err := inbox.NewLeased(context.Background(), db, "telegram", inbox.Lease{For: time.Second, Renew: time.Second})
	if !errors.Is(err, inbox.ErrBadLease) {
		t.Errorf("err %v, want ErrBadLease", err)
	}
}

// TestCartTurn: the cart message remembers the turn that posted it; a
// plain RememberCart (Slack) posts it for no turn.
func TestCartTurn(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		in := newInbox(t, db, "telegram")
		if err := in.RememberCartOf(ctx, "42", "", inbox.Cart{MessageID: "7", Turn: "tg100"}); err != nil {
			t.Fatal(err)
		}
		if c, err := in.Cart(ctx, "42", ""); err != nil || c != (inbox.Cart{MessageID: "7", Turn: "tg100"}) {
			t.Fatalf("cart %+v, %v", c, err)
		}
		if err := in.RememberCart(ctx, "42", "", "8"); err != nil {
			t.Fatal(err)
		}
		if c, err := in.Cart(ctx, "42", ""); err != nil || c != (inbox.Cart{MessageID: "8"}) {
			t.Fatalf("cart %+v, %v", c, err)
		}
	})
}
