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

// TestUCPRecords: a claim wins once until the record expires; Get hides
// expired records; Release deletes only the value given; the prune
// deletes what expired; bad keys change nothing.
func TestUCPRecords(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		u := &catalog.UCPRecords{DB: db}
		t0 := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
		ok, err := u.Claim(ctx, "lease", "chk_1", []byte("a"), t0.Add(time.Minute), t0)
		if err != nil || !ok {
			t.Fatalf("first claim = %v, %v", ok, err)
		}
		if ok, err := u.Claim(ctx, "lease", "chk_1", []byte("b"), t0.Add(2*time.Minute), t0.Add(time.Second)); err != nil || ok {
			t.Fatalf("claim of a held record = %v, %v", ok, err)
		}
		if err := u.Release(ctx, "lease", "chk_1", []byte("b")); err != nil {
			t.Fatal(err)
		}
		if v, ok, err := u.Get(ctx, "lease", "chk_1", t0); err != nil || !ok || string(v) != "a" {
			t.Fatalf("get after a foreign release = %q, %v, %v", v, ok, err)
		}
		// Expired: hidden, and a new claim takes it over.
		later := t0.Add(time.Hour)
		if _, ok, err := u.Get(ctx, "lease", "chk_1", later); err != nil || ok {
			t.Fatalf("get of an expired record = %v, %v", ok, err)
		}
		if ok, err := u.Claim(ctx, "lease", "chk_1", []byte("c"), later.Add(time.Minute), later); err != nil || !ok {
			t.Fatalf("claim of an expired record = %v, %v", ok, err)
		}
		if err := u.Release(ctx, "lease", "chk_1", []byte("c")); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := u.Get(ctx, "lease", "chk_1", later); ok {
			t.Fatal("released record still there")
		}
		if err := u.Put(ctx, "session", "chk_2", []byte(`{"v":1}`), t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := u.Put(ctx, "session", "chk_2", []byte(`{"v":2}`), t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if v, _, _ := u.Get(ctx, "session", "chk_2", t0); string(v) != `{"v":2}` {
			t.Fatalf("put did not replace: %s", v)
		}
		if n, err := catalog.PruneUCPRecords(ctx, db, later); err != nil || n != 1 {
			t.Fatalf("prune = %d, %v; want 1", n, err)
		}
		if _, err := u.Claim(ctx, "", "k", nil, later, later); !errors.Is(err, catalog.ErrInvalid) {
			t.Fatalf("empty kind: %v", err)
		}
		if err := u.Put(ctx, "session", string(make([]byte, 300)), nil, later); !errors.Is(err, catalog.ErrInvalid) {
			t.Fatalf("long key: %v", err)
		}
	})
}

// TestUCPRecordsClaimRace: of many replicas claiming one key at once,
// exactly one wins.
func TestUCPRecordsClaimRace(t *testing.T) {
	catalogtest.EachReplicas(t, 4, func(t *testing.T, dbs []*bun.DB) {
		now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				u := &catalog.UCPRecords{DB: dbs[i%len(dbs)]}
				ok, err := u.Claim(context.Background(), "reply", "key-1", []byte{byte('a' + i)}, now.Add(time.Minute), now)
				if err != nil {
					t.Error(err)
				}
				if ok {
					wins.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Fatalf("%d claims won; want 1", n)
		}
	})
}
