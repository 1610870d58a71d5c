package mcp_test

import (
	"context"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"shopbot/adapters/mcp"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

// BenchmarkAgentSearch: a tools/call of search_products on the demo shop
// (SQLite, the embedded search) over loopback HTTP with the SDK's
// client, one session; reports p50 and p99 of a call.
func BenchmarkAgentSearch(b *testing.B) {
	srv, _ := shop(b, catalogtest.SQLite(b), engine.Config{}, mcp.Options{})
	cs, err := connect(b, srv.URL, "")
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"sneakers", "coffee mug", "wireless headphones", "rain jacket", "desk lamp"}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "search_products", Arguments: map[string]any{"query": queries[i%len(queries)]}})
		lat = append(lat, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("call %d: %v %+v", i, err, res)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
