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
	"shopbot/catalog/search/indexer"
)

// fakeIndex records upserts and fails while down or for a poison SKU.
type fakeIndex struct {
	mu     sync.Mutex
	down   bool
	poison string
	got    []string
}

func (f *fakeIndex) Upsert(_ context.Context, _ bun.IDB, skus ...string) error {
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

// TestRetriesUntilDelivered: while the index is down events stay in the
// outbox with their attempts; once it is back all are delivered.
func TestRetriesUntilDelivered(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		idx := &fakeIndex{down: true}
		reg := prometheus.NewRegistry()
		m := indexer.NewMetrics(reg)
		w := indexer.New(db, idx, indexer.Config{MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond, Metrics: m})
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{product("A"), product("B")}); err != nil {
			t.Fatal(err)
		}
		n, err := w.Drain(ctx)
		if err != nil || n != 2 {
			t.Fatalf("drain while down: %d, %v", n, err)
		}
		var evs []catalog.OutboxEvent
		if err := db.NewSelect().Model(&evs).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if len(evs) != 2 || evs[0].Attempts != 1 || evs[0].LastError != "connection refused" || !evs[0].AvailableAt.After(evs[0].CreatedAt) {
			t.Fatalf("after a failure: %+v", evs)
		}
		if got := testutil.ToFloat64(counter(t, reg, "shopbot_outbox_failures_total")); got != 2 {
			t.Errorf("failures %v", got)
		}
		idx.mu.Lock()
		idx.down = false
		idx.mu.Unlock()
		time.Sleep(5 * time.Millisecond) // past the backoff
		if _, err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if left, _ := catalog.CountOutbox(ctx, db); left != 0 || !slices.Equal(idx.got, []string{"A", "B"}) {
			t.Errorf("after recovery: %d left, delivered %v", left, idx.got)
		}
		if got := testutil.ToFloat64(counter(t, reg, "shopbot_outbox_delivered_total")); got != 2 {
			t.Errorf("delivered %v", got)
		}
	})
}

// TestPoisonEventDoesNotBlockOthers: with the index up, a batch it
// rejects is retried event by event.
func TestPoisonEventDoesNotBlockOthers(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	idx := &fakeIndex{poison: "BAD"}
	w := indexer.New(db, idx, indexer.Config{MinBackoff: time.Hour})
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{product("A"), product("BAD"), product("C")}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(idx.got, []string{"A", "C"}) {
		t.Errorf("delivered %v, want A and C", idx.got)
	}
	evs, err := catalog.PendingOutbox(ctx, db, 10)
	if err != nil || len(evs) != 0 {
		t.Errorf("BAD should wait an hour: %+v, %v", evs, err)
	}
	if n, _ := catalog.CountOutbox(ctx, db); n != 1 {
		t.Errorf("outbox holds %d, want the poison event", n)
	}
}

func TestDiscard(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	if err := catalog.EnqueueOutbox(ctx, db, catalog.OutboxProductUpsert, "OLD1", "OLD2"); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	time.Sleep(10 * time.Millisecond)
	if err := catalog.EnqueueOutbox(ctx, db, catalog.OutboxProductUpsert, "NEW"); err != nil {
		t.Fatal(err)
	}
	n, err := indexer.Discard(ctx, db, cut)
	if err != nil || n != 2 {
		t.Fatalf("discarded %d, %v", n, err)
	}
	evs, _ := catalog.PendingOutbox(ctx, db, 10)
	if len(evs) != 1 || evs[0].SKU != "NEW" {
		t.Errorf("left %+v", evs)
	}
}

// TestNoIndexDropsEvents: with the embedded backend nothing reads the
// outbox, and a worker over NoIndex empties it so it does not grow.
func TestNoIndexDropsEvents(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{product("A"), product("B"), product("C")}); err != nil {
			t.Fatal(err)
		}
		n, err := indexer.New(db, indexer.NoIndex, indexer.Config{}).Drain(ctx)
		if err != nil || n != 3 {
			t.Fatalf("drain: %d, %v; want 3 events handled", n, err)
		}
		if left, err := catalog.CountOutbox(ctx, db); err != nil || left != 0 {
			t.Errorf("outbox holds %d (%v), want 0", left, err)
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
