package mcp_test

import (
	"context"
	"fmt"
	"shopbot/catalog"
	"slices"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"shopbot/adapters/mcp"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
	"shopbot/engine"
)

var benchQueries = []string{"sneakers", "coffee mug", "wireless headphones", "rain jacket", "desk lamp"}

// demoShop is the demo shop as `shopbot serve` runs it by default:
// SQLite and the embedded search index, served on loopback.
func demoShop(b *testing.B) string {
	db := catalogtest.SQLite(b)
	ctx := context.Background()
	if _, err := demo.Load(ctx, db); err != nil {
		b.Fatal(err)
	}
	idx := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0)})
	if err := idx.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		b.Fatal(err)
	}
	srv, _ := shop(b, db, engine.Config{Search: idx}, mcp.Options{})
	return srv.URL
}

func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkAgentSearch: a tools/call of search_products on the demo shop
// over loopback HTTP with the SDK's client, one session; reports p50
// and p99 of a call.
func BenchmarkAgentSearch(b *testing.B) {
	cs, err := connect(b, demoShop(b), "")
	if err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "search_products", Arguments: map[string]any{"query": benchQueries[i%len(benchQueries)]}})
		lat = append(lat, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("call %d: %v %+v", i, err, res)
		}
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkAgentSessions200: 200 MCP sessions open at once, each making
// b.N search calls concurrently; any error fails. Reports p50 and p99
// of a call under that load.
func BenchmarkAgentSessions200(b *testing.B) {
	url := demoShop(b)
	const sessions = 200
	css := make([]*sdk.ClientSession, sessions)
	for i := range css {
		cs, err := connect(b, url, "")
		if err != nil {
			b.Fatalf("session %d: %v", i, err)
		}
		css[i] = cs
	}
	lats := make([][]time.Duration, sessions)
	errs := make(chan error, sessions)
	var wg sync.WaitGroup
	b.ResetTimer()
	for i, cs := range css {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range b.N {
				start := time.Now()
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "search_products", Arguments: map[string]any{"query": benchQueries[(i+j)%len(benchQueries)]}})
				lats[i] = append(lats[i], time.Since(start))
				if err != nil || res.IsError {
					errs <- fmt.Errorf("session %d call %d: %v %+v", i, j, err, res)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Error(err)
	}
	reportLatency(b, slices.Concat(lats...))
}
