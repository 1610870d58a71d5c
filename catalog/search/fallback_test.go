package search_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// fake is a Searcher answering with err, or one product named after it.
type fake struct {
	name  string
	err   error
	calls atomic.Int32
}

func (f *fake) Search(context.Context, search.Query) (search.Results, error) {
	f.calls.Add(1)
	if f.err != nil {
		return search.Results{}, f.err
	}
	return search.Results{Products: []catalog.Product{{SKU: f.name}}, Total: 1}, nil
}

func (f *fake) Similar(_ context.Context, sku string, _ int) ([]catalog.Product, error) {
	f.calls.Add(1)
	if f.err != nil {
		return nil, f.err
	}
	return []catalog.Product{{SKU: f.name}}, nil
}

func TestFallback(t *testing.T) {
	ctx := context.Background()
	primary, secondary := &fake{name: "primary"}, &fake{name: "secondary"}
	reg := prometheus.NewRegistry()
	m := search.NewMetrics(reg)
	fb := search.NewFallback(search.Named{Name: "weaviate", Searcher: primary}, search.Named{Name: "embedded", Searcher: secondary},
		search.FallbackConfig{Cooldown: 50 * time.Millisecond, Metrics: m})
	got := func() string {
		res, err := fb.Search(ctx, search.Query{Text: "x"})
		if err != nil {
			t.Fatalf("the shopper saw an error: %v", err)
		}
		return res.Products[0].SKU
	}
	if got() != "primary" {
		t.Fatal("primary not asked first")
	}
	primary.err = fmt.Errorf("weaviate: query: %w", errors.New("connection refused"))
	if got() != "secondary" {
		t.Fatal("no fallback on failure")
	}
	calls := primary.calls.Load()
	if got() != "secondary" || primary.calls.Load() != calls {
		t.Error("primary asked again during the cooldown")
	}
	if n := fallbacks(t, reg, "weaviate"); n != 2 {
		t.Errorf("fallbacks = %v, want 2", n)
	}
	time.Sleep(60 * time.Millisecond)
	primary.err = nil
	if got() != "primary" {
		t.Error("primary not asked again after the cooldown")
	}

	// An unknown product is not an outage: the secondary is asked quietly.
	primary.err = fmt.Errorf("weaviate: %w", catalog.ErrNotFound)
	if ps, err := fb.Similar(ctx, "X", 3); err != nil || ps[0].SKU != "secondary" {
		t.Errorf("similar: %v, %v", ps, err)
	}
	if n := fallbacks(t, reg, "weaviate"); n != 2 {
		t.Errorf("not found counted as a fallback: %v", n)
	}

	// A caller that gives up gets its error, not the secondary's answer.
	primary.err = context.Canceled
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := fb.Search(cctx, search.Query{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if c := testutil.CollectAndCount(reg, "shopbot_search_latency_seconds"); c != 2 {
		t.Errorf("latency series: %d, want one per backend", c)
	}
}

// fallbacks reads shopbot_search_fallback_total{backend} from reg, as a
// scrape would; 0 when the series does not exist yet.
func fallbacks(t *testing.T, reg *prometheus.Registry, backend string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "shopbot_search_fallback_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "backend" && l.GetValue() == backend {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}
