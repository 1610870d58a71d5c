package weaviate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
	"shopbot/catalog/search/indexer"
	"shopbot/catalog/search/searchtest"
)

// TestOutage stops the Weaviate server while the catalog changes: the
// shopper's searches are answered by the embedded index (with the
// fallback metric), the change-feed worker keeps its cursor behind the
// changes it could not deliver (counting the failures), and after the
// restart it delivers them all, on the data Weaviate kept.
func TestOutage(t *testing.T) {
	ctx := context.Background()
	db := catalogtest.SQLite(t)
	if _, err := demo.Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	st := newStack(t, db, indexer.Config{MinBackoff: 100 * time.Millisecond, MaxBackoff: 500 * time.Millisecond, Metrics: indexer.NewMetrics(reg)})
	fb := search.NewFallback(search.Named{Name: "weaviate", Searcher: st.backend}, search.Named{Name: "embedded", Searcher: st.local},
		search.FallbackConfig{Cooldown: 200 * time.Millisecond, Metrics: search.NewMetrics(reg), Logger: testLogger(t)})
	couch := search.Query{Text: "couch", Limit: 20}
	if !searchtest.Finds(t, st.backend, couch, "HOM-FUR-001") {
		t.Fatal("the sofa is not found before the outage")
	}

	st.srv.Stop()
	t.Cleanup(func() {
		if !st.srv.Running() {
			_ = st.srv.Start() // leave the shared server up for other tests
		}
	})
	if _, err := st.backend.Search(ctx, couch); err == nil {
		t.Fatal("the backend answered with Weaviate stopped")
	}
	if !searchtest.Finds(t, fb, couch, "HOM-FUR-001") {
		t.Error("fallback: the sofa is not found during the outage")
	}
	if n := metricValue(t, reg, "shopbot_search_fallback_total"); n < 1 {
		t.Errorf("shopbot_search_fallback_total = %v during the outage", n)
	}

	// Change the catalog while Weaviate is down.
	lantern := catalog.ProductInput{SKU: "ZZ-OUT-001", Title: "Driftwood Harmonica in C", Brand: "Quokka",
		Description: "A ten-hole diatonic harmonica.", CategoryPath: []string{"Toys & Games"},
		Price: 1999, Currency: "USD", Stock: 3}
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{lantern}); err != nil {
		t.Fatal(err)
	}
	if err := catalog.SetProductActive(ctx, db, "HOM-FUR-001", false); err != nil {
		t.Fatal(err)
	}
	searchtest.Eventually(t, "failed deliveries recorded", func() bool {
		return metricValue(t, reg, "shopbot_outbox_failures_total") > 0 && metricValue(t, reg, "shopbot_outbox_pending") >= 2
	})
	changed, err := catalog.GetProduct(ctx, db, "HOM-FUR-001")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := catalog.LoadCursor(ctx, db, "weaviate"); err != nil || !c.Products.Before(changed.UpdatedAt) {
		t.Fatalf("cursor %v (%v) passed the changes made during the outage (%v)", c.Products, err, changed.UpdatedAt)
	}
	searchtest.Eventually(t, "the fallback seeing the changes", func() bool {
		return searchtest.Finds(t, fb, search.Query{Text: "harmonica"}, "ZZ-OUT-001") && !searchtest.Finds(t, fb, couch, "HOM-FUR-001")
	})

	if err := st.srv.Start(); err != nil {
		t.Fatal(err)
	}
	searchtest.Eventually(t, "the changes delivered after the restart", func() bool {
		return metricValue(t, reg, "shopbot_outbox_pending") == 0 &&
			searchtest.Finds(t, st.backend, search.Query{Text: "harmonica"}, "ZZ-OUT-001")
	})
	if !searchtest.Finds(t, st.backend, search.Query{Text: "harmonica"}, "ZZ-OUT-001") {
		t.Error("the product added during the outage is missing from Weaviate")
	}
	if searchtest.Finds(t, st.backend, couch, "HOM-FUR-001") {
		t.Error("the product archived during the outage is still in Weaviate")
	}
	if !searchtest.Finds(t, st.backend, couch, "HOM-FUR-003") {
		t.Error("Weaviate lost the products indexed before the outage")
	}
	before := metricValue(t, reg, "shopbot_search_fallback_total")
	time.Sleep(250 * time.Millisecond) // the cooldown
	if _, err := fb.Search(ctx, couch); err != nil {
		t.Fatal(err)
	}
	if after := metricValue(t, reg, "shopbot_search_fallback_total"); after != before {
		t.Errorf("fallbacks went from %v to %v with Weaviate back", before, after)
	}
}

// TestCancelledIsNotAnOutage: a query the caller gave up on is not
// retried on the fallback.
func TestCancelledIsNotAnOutage(t *testing.T) {
	db := catalogtest.SQLite(t)
	if _, err := demo.Load(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	st := newStack(t, db, indexer.Config{})
	reg := prometheus.NewRegistry()
	fb := search.NewFallback(search.Named{Name: "weaviate", Searcher: st.backend}, search.Named{Name: "embedded", Searcher: st.local},
		search.FallbackConfig{Metrics: search.NewMetrics(reg)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fb.Search(ctx, search.Query{Text: "shoes"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if n := metricValue(t, reg, "shopbot_search_fallback_total"); n != 0 {
		t.Errorf("a cancelled query counted as %v fallbacks", n)
	}
}

// metricValue sums a counter or gauge family of reg.
func metricValue(t testing.TB, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			sum += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	return sum
}
