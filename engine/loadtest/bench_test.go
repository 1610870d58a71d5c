package loadtest_test

// The engine's benchmarks. They share the scripted model of `shopbot bench`
// (loadtest.StartModel: instant, served in-process over the OpenAI wire
// format) and the production defaults: the demo shop on SQLite and the
// embedded hybrid index with the local embedder.

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"shopbot/catalog"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/prometheus/client_golang/prometheus"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
	"shopbot/engine"
	"shopbot/engine/loadtest"
	"shopbot/engine/openai"
	"shopbot/engine/tools"
)

const searchArgs = `{"query":"running shoes","max_price":150}`

// benchShop is the demo shop on SQLite with the production search index,
// and the scripted model.
func benchShop(b *testing.B) (*embedded.Index, *loadtest.Model, func() *engine.Engine) {
	b.Helper()
	db := catalogtest.SQLite(b)
	ctx := context.Background()
	if _, err := demo.Load(ctx, db); err != nil {
		b.Fatal(err)
	}
	idx := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0)})
	if err := idx.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		b.Fatal(err)
	}
	model, err := loadtest.StartModel(0, searchArgs)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = model.Close() })
	newEngine := func() *engine.Engine {
		eng, err := engine.New(engine.Config{DB: db, Search: idx, Registry: prometheus.NewRegistry(),
			Model:     loadtest.TimedModel{Model: openai.New(openai.Config{BaseURL: model.URL, Model: "bench", RequestTimeout: 5 * time.Second})},
			RateLimit: 1 << 30, DailyTokens: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		return eng
	}
	return idx, model, newEngine
}

// BenchmarkEngineTurn measures the engine's own time per turn (prompt,
// history, tools, search, persistence; the model's time subtracted), one
// turn at a time. Targets: p50 ≤ 1 ms, p99 ≤ 5 ms.
func BenchmarkEngineTurn(b *testing.B) {
	_, _, newEngine := benchShop(b)
	eng := newEngine()
	ctx := context.Background()
	var overhead, whole []time.Duration
	i := 0
	for b.Loop() {
		i++
		spent := new(atomic.Int64)
		tctx := loadtest.WithSpent(ctx, spent)
		start := time.Now()
		err := eng.Handle(tctx, engine.Turn{Channel: "web", ChatID: fmt.Sprint("c", i%50), UserID: fmt.Sprint("u", i%50),
			Text: "running shoes under 150", DedupKey: fmt.Sprint(i)}, discard)
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		overhead = append(overhead, took-time.Duration(spent.Load()))
		whole = append(whole, took)
	}
	reportPercentiles(b, overhead, "")
	// The whole turn, model included: comparable with BenchmarkBareLoop.
	reportPercentiles(b, whole, "turn-")
}

// BenchmarkEngineThroughput runs turns from 100 concurrent conversations.
// Target: ≥ 2,000 turns/s on 2 cores.
func BenchmarkEngineThroughput(b *testing.B) {
	_, _, newEngine := benchShop(b)
	eng := newEngine()
	var next atomic.Int64
	cpu0, _ := loadtest.ProcessCPU()
	b.SetParallelism(max(1, 100/runtime.GOMAXPROCS(0)))
	b.RunParallel(func(pb *testing.PB) {
		conv := next.Add(1)
		n := 0
		for pb.Next() {
			n++
			err := eng.Handle(context.Background(), engine.Turn{Channel: "web", ChatID: fmt.Sprint("p", conv), UserID: fmt.Sprint("p", conv),
				Text: "running shoes under 150", DedupKey: fmt.Sprint(conv, "-", n)}, discard)
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
	cpu1, _ := loadtest.ProcessCPU()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
	// CPU per turn, model server included: what 2 cores can sustain is
	// 2000/cpu-ms-per-turn turns/s, whatever else the machine is doing.
	b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/turn")
}

// BenchmarkBareLoop is the yardstick: the same scripted turn through a bare
// openai-go loop (one search round on the same index, no persistence, no
// prompt building, no validation).
func BenchmarkBareLoop(b *testing.B) {
	idx, model, _ := benchShop(b)
	client := sdk.NewClient(option.WithBaseURL(model.URL), option.WithAPIKey("bench"), option.WithMaxRetries(0))
	var schema map[string]any
	for _, t := range tools.Tools(&tools.Deps{}) {
		if t.Name == "search_products" {
			schema = t.Schema
		}
	}
	tool := sdk.ChatCompletionToolUnionParam{OfFunction: &sdk.ChatCompletionFunctionToolParam{
		Function: sdk.FunctionDefinitionParam{Name: "search_products", Parameters: sdk.FunctionParameters(schema)},
	}}
	ctx := context.Background()
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		msgs := []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("running shoes under 150")}
		for {
			stream := client.Chat.Completions.NewStreaming(ctx, sdk.ChatCompletionNewParams{Model: "bench", Messages: msgs, Tools: []sdk.ChatCompletionToolUnionParam{tool}})
			var acc sdk.ChatCompletionAccumulator
			for stream.Next() {
				acc.AddChunk(stream.Current())
			}
			if err := stream.Err(); err != nil {
				b.Fatal(err)
			}
			choice := acc.Choices[0].Message
			if len(choice.ToolCalls) == 0 {
				break
			}
			msgs = append(msgs, choice.ToParam())
			for _, tc := range choice.ToolCalls {
				var a struct {
					Query    string  `json:"query"`
					MaxPrice float64 `json:"max_price"`
				}
				_ = json.Unmarshal([]byte(tc.Function.Arguments), &a)
				res, err := idx.Search(ctx, search.Query{Text: a.Query, MaxPrice: int64(a.MaxPrice * 100), InStockOnly: true, Limit: 5})
				if err != nil {
					b.Fatal(err)
				}
				out, _ := json.Marshal(res.Products)
				msgs = append(msgs, sdk.ToolMessage(string(out), tc.ID))
			}
		}
		times = append(times, time.Since(start))
	}
	reportPercentiles(b, times, "")
}

var discard = engine.SinkFunc(func(context.Context, engine.Event) error { return nil })

func reportPercentiles(b *testing.B, ds []time.Duration, prefix string) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds())/1000, prefix+"p99-ms")
}
