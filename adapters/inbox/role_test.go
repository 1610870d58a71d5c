package inbox_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func role(t *testing.T, db *bun.DB, holder string, c *clock, renew time.Duration) *inbox.Role {
	t.Helper()
	r, err := inbox.NewRole(db, "telegram-poll", inbox.Lease{Holder: holder, For: 30 * time.Second, Renew: renew, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustAcquire(t *testing.T, r *inbox.Role, who string, want bool) {
	t.Helper()
	got, err := r.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("%s acquired the role: %v, want %v", who, got, want)
	}
}

// TestRoleOneHolder: one replica holds the role at a time; the holder
// renews it; another takes it only once the lease has run out, or at once
// when the holder releases it. The role's row is no update of the inbox.
func TestRoleOneHolder(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		c := &clock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
		a, b := role(t, dbs[0], "A", c, 10*time.Second), role(t, dbs[1], "B", c, 10*time.Second)
		mustAcquire(t, a, "A", true)
		mustAcquire(t, b, "B", false)
		if h, _ := b.Holder(context.Background()); h != "A" {
			t.Errorf("holder %q, want A", h)
		}
		c.advance(20 * time.Second)
		mustAcquire(t, a, "A renewing", true) // until 12:00:50
		c.advance(29 * time.Second)
		mustAcquire(t, b, "B while A's renewed lease runs", false)
		c.advance(2 * time.Second)
		mustAcquire(t, b, "B once A's lease ran out", true)
		mustAcquire(t, a, "A after B took over", false)
		if err := b.Release(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := a.Release(context.Background()); err != nil { // not A's: changes nothing
			t.Fatal(err)
		}
		if h, _ := a.Holder(context.Background()); h != "" {
			t.Errorf("holder %q after release, want nobody", h)
		}
		mustAcquire(t, a, "A after B released", true)

		in := leased(t, dbs[0], "A", c)
		c.advance(time.Hour)
		if ks := claimedKeys(t, in); len(ks) != 0 {
			t.Errorf("the inbox took the role's row for an update: %v", ks)
		}
	})
}

// TestRoleDo: Do runs the job while the replica holds the role, stops it
// as soon as a renewal finds the role taken, returns the job's own error,
// and releases the role when its context ends.
func TestRoleDo(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		// B's clock jumps 31 s once B has read the database's clock:
		// to B, A's lease has run out, while A keeps renewing it (as a
		// replica whose renewals stalled would not).
		ca := &clock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
		cb := &clock{now: ca.now}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		a, b := role(t, dbs[0], "A", ca, 5*time.Millisecond), role(t, dbs[1], "B", cb, 5*time.Millisecond)
		if _, err := b.Holder(context.Background()); err != nil {
			t.Fatal(err)
		}
		cb.advance(31 * time.Second)

		started, stopped := make(chan struct{}, 10), make(chan struct{}, 10)
		job := func(ctx context.Context) error {
			started <- struct{}{}
			<-ctx.Done()
			stopped <- struct{}{}
			return nil
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- a.Do(ctx, log, job) }()
		wait(t, started, "A's job to start")

		mustAcquire(t, b, "B", true) // until A's 12:01:01
		wait(t, stopped, "A's job to stop once the role is taken")

		ca.advance(62 * time.Second) // B died: A takes the role back
		wait(t, started, "A's job to start again")
		cancel()
		wait(t, stopped, "A's job to stop when Do's context ends")
		if err := <-done; err != nil {
			t.Errorf("Do = %v", err)
		}
		if h, _ := b.Holder(context.Background()); h != "" {
			t.Errorf("holder %q once A stopped, want nobody", h)
		}

		boom := errors.New("boom")
		err := b.Do(context.Background(), log, func(context.Context) error { return boom })
		if !errors.Is(err, boom) {
			t.Errorf("Do = %v, want the job's error", err)
		}
		if h, _ := b.Holder(context.Background()); h != "" {
			t.Errorf("holder %q after the job failed, want nobody", h)
		}
	})
}

func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// TestRoleSkewedClocks: on Postgres, replicas compare leases on the
// database's clock, not their own. B's clock runs an hour ahead of the
// real time and C's an hour behind: B does not take A's live lease (by
// its own clock A's ran out long ago); once A has released the role and
// B holds it, neither A nor C can take it while it runs, and C, by whose
// own clock B's lease ends an hour later than it does, sees B hold it.
// (SQLite serves one process: its replicas share one clock.)
func TestRoleSkewedClocks(t *testing.T) {
	first, url := catalogtest.Postgres(t)
	second, _, err := catalog.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	skewed := func(d time.Duration) *clock { return &clock{now: time.Now().Add(d)} }
	a := role(t, first, "A", skewed(0), 10*time.Second)
	b := role(t, second, "B", skewed(time.Hour), 10*time.Second)
	c := role(t, second, "C", skewed(-time.Hour), 10*time.Second)
	mustAcquire(t, a, "A", true)
	mustAcquire(t, b, "B, an hour ahead, while A's lease runs", false)
	mustAcquire(t, c, "C, an hour behind, while A's lease runs", false)
	if err := a.Release(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustAcquire(t, b, "B once A released", true)
	mustAcquire(t, a, "A while B's lease runs", false)
	mustAcquire(t, c, "C while B's lease runs", false)
	if h, err := c.Holder(context.Background()); err != nil || h != "B" {
		t.Errorf("C sees holder %q (%v), want B", h, err)
	}
}
