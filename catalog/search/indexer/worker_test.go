package indexer_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/indexer"
)

// fakeIndex records upserts and fails while down or for a poison SKU.
type fakeIndex struct {
	mu     sync.Mutex
	down   bool
	poison string
	got    []string
}

func (f *fakeIndex) Upsert(_ context.Context, _ search.Catalog, skus ...string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return errors.New("connection refused")
	}
	if slices.Contains(skus, f.poison) {
		return errors.New("rejected " + f.poison)
	}
	f.got = append(f.got, skus...)
	return nil
}

func (f *fakeIndex) Ready(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return errors.New("down")
	}
	return nil
}

func product(sku string) catalog.ProductInput {
	return catalog.ProductInput{SKU: sku, Title: "Thing " + sku, Price: 100, Currency: "USD", Stock: 1}
}

// TestRetriesUntilDelivered: while the index is down the cursor stays
// put; once it is back every change is delivered, once.
func TestRetriesUntilDelivered(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		idx := &fakeIndex{down: true}
		reg := prometheus.NewRegistry()
		m := indexer.NewMetrics(reg)
		w := indexer.New(db, idx, indexer.Config{Metrics: m})
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{product("A"), product("B")}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Drain(ctx); err == nil {
			t.Fatal("drain while down: no error")
		}
		if got := testutil.ToFloat64(counter(t, reg, "shopbot_outbox_failures_total")); got != 2 {
			t.Errorf("failures %v", got)
		}
		if c, err := catalog.LoadCursor(ctx, db, "weaviate"); err != nil || !c.Products.IsZero() {
			t.Errorf("cursor moved while down: %+v, %v", c, err)
		}
		idx.mu.Lock()
		idx.down = false
		idx.mu.Unlock()
		if _, err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(idx.got, []string{"A", "B"}) {
			t.Errorf("after recovery: delivered %v", idx.got)
		}
		if got := testutil.ToFloat64(counter(t, reg, "shopbot_outbox_delivered_total")); got != 2 {
			t.Errorf("delivered %v", got)
		}
		// The overlap window is re-read but nothing is delivered twice.
		if _, err := w.Drain(ctx); err != nil || len(idx.got) != 2 {
			t.Errorf("second drain: delivered %v, %v", idx.got, err)
		}
		// A restarted worker resumes from the stored cursor.
		if err := catalog.SetStock(ctx, db, "B", 7); err != nil {
			t.Fatal(err)
		}
		again := &fakeIndex{}
		if _, err := indexer.New(db, again, indexer.Config{}).Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(again.got, "B") {
			t.Errorf("restarted worker delivered %v, want B's stock change", again.got)
		}
	})
}

// TestPoisonChangeDoesNotBlockOthers: with the index up, a batch it
// rejects is retried change by change; the refused one is retried every
// poll and the cursor moves on.
func TestPoisonChangeDoesNotBlockOthers(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	idx := &fakeIndex{poison: "BAD"}
	w := indexer.New(db, idx, indexer.Config{})
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{product("A"), product("BAD"), product("C")}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(idx.got, []string{"A", "C"}) {
		t.Errorf("delivered %v, want A and C", idx.got)
	}
	idx.mu.Lock()
	idx.poison = ""
	idx.mu.Unlock()
	if _, err := w.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(idx.got, "BAD") {
		t.Errorf("BAD not retried: %v", idx.got)
	}
}

// TestSetCursor: after a rebuild the worker resumes from its start, so
// the changes it covered are not delivered again.
func TestSetCursor(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{product("OLD")}); err != nil {
		t.Fatal(err)
	}
	if err := indexer.SetCursor(ctx, db, "", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	idx := &fakeIndex{}
	if _, err := indexer.New(db, idx, indexer.Config{}).Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if len(idx.got) != 0 {
		t.Errorf("delivered %v after the rebuild's cursor", idx.got)
	}
}

// TestDeletionsReachTheIndex: a product deleted outright (the demo
// removal) reaches the index through its tombstone.
func TestDeletionsReachTheIndex(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{product("KEEP")}); err != nil {
			t.Fatal(err)
		}
		idx := &fakeIndex{}
		w := indexer.New(db, idx, indexer.Config{})
		if _, err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewInsert().Model(&catalog.Tombstone{Kind: catalog.TombstoneProduct, Key: "GONE", DeletedAt: time.Now().UTC()}).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(idx.got, "GONE") {
			t.Errorf("tombstone not delivered: %v", idx.got)
		}
	})
}

func counter(t *testing.T, reg *prometheus.Registry, name string) prometheus.Collector {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			v := mf.GetMetric()[0].GetCounter().GetValue()
			c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: "copy"})
			c.Add(v)
			return c
		}
	}
	t.Fatalf("no %s", name)
	return nil
}
