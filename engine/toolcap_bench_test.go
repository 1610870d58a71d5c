package engine

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/catalog/search/searchtest"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
)

// BenchmarkHostileTurn runs the turn of a model that answers every
// request with 1,000 tool calls (five rounds) on SQLite, and reports the
// heap it takes: peak-heap-MB is the most heap in use while turns run
// above what was in use before (sampled every millisecond; the scripted
// model's server shares the process and is included), alloc-MB/op what a
// turn allocates in all.
//
//	go test -run '^$' -bench HostileTurn -benchtime 5x ./engine/
func BenchmarkHostileTurn(b *testing.B) {
	env := newTestEnv(b)
	llm := llmtest.NewServer(b)
	calls := make([]llmtest.ToolCall, 1000)
	for i := range calls {
		calls[i] = llmtest.ToolCall{Name: "view_cart", Arguments: `{}`}
	}
	llm.SetDefault(llmtest.CallTools(calls...))
	eng, err := New(Config{
		DB: env.db, Search: searchtest.NewDatabase(env.db), Registry: prometheus.NewRegistry(),
		RateLimit: 1 << 30, DailyTokens: 1 << 30,
		Model: openai.New(openai.Config{BaseURL: llm.URL, Model: "test-model", MaxRetries: 1, RequestTimeout: time.Minute}),
	})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	peak, stop := sampleHeap()
	b.ResetTimer()
	for i := range b.N {
		id := "hostile-" + strconv.Itoa(i)
		if err := eng.Handle(context.Background(), Turn{Channel: "web", ChatID: id, UserID: id, Text: "show my cart", DedupKey: id}, &events{}); err != nil {
			b.Errorf("turn %d: %v", i, err)
		}
	}
	b.StopTimer()
	stop()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(*peak-before.HeapInuse)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20)/float64(b.N), "alloc-MB/op")
}

// sampleHeap records the most heap in use until stop is called.
func sampleHeap() (peak *uint64, stop func()) {
	peak = new(uint64)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			*peak = max(*peak, m.HeapInuse)
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	}()
	return peak, func() { close(quit); wg.Wait() }
}
