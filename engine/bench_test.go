package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/prometheus/client_golang/prometheus"

	"shopbot/catalog/search"
	"shopbot/catalog/search/embed"
	"shopbot/catalog/search/embedded"
	"shopbot/engine/llmtest"
)

// timedModel wraps a Model and accumulates the time spent in it, so a
// benchmark can subtract the model's own time from a turn.
type timedModel struct {
	m     Model
	spent atomic.Int64
}

func (t *timedModel) Chat(ctx context.Context, req ChatRequest, onDelta func(string)) (ChatResponse, error) {
	start := time.Now()
	resp, err := t.m.Chat(ctx, req, onDelta)
	t.spent.Add(int64(time.Since(start)))
	return resp, err
}

// benchEngine is an engine on the demo shop (SQLite) whose model is served
// by a loopback fake answering instantly: a search_products call for a
// user message, a text answer after a tool result.
func benchEngine(b testing.TB) (*Engine, *timedModel, *llmtest.Server) {
	b.Helper()
	env := newTestEnv(b)
	llm := llmtest.NewServer(b)
	llm.SetResponder(dynamicSearchTurn)
	tm := &timedModel{m: NewOpenAI(OpenAIConfig{BaseURL: llm.URL, Model: "bench", RequestTimeout: 5 * time.Second})}
	idx := embedded.New(embedded.Options{Embedder: embed.NewLocal(0)}) // the production default
	if err := idx.Rebuild(context.Background(), env.db); err != nil {
		b.Fatal(err)
	}
	eng, err := New(Config{DB: env.db, Search: idx, Model: tm, Registry: prometheus.NewRegistry(),
		RateLimit: 1 << 30, DailyTokens: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	return eng, tm, llm
}

// dynamicSearchTurn answers a request: search first, then text.
func dynamicSearchTurn(r llmtest.Request) llmtest.Step {
	if last := r.Messages[len(r.Messages)-1]; last.Role == "tool" {
		return llmtest.Reply("Here are a few running shoes.")
	}
	return llmtest.CallTools(llmtest.ToolCall{Name: "search_products", Arguments: `{"query":"running shoes","max_price":150}`})
}

type discard struct{}

func (discard) Send(context.Context, Event) error { return nil }

// BenchmarkEngineTurn measures the engine's own time per turn (prompt,
// history, tools, search, persistence; the model's time subtracted) with an
// instant scripted model. Targets: p50 ≤ 1 ms, p99 ≤ 5 ms.
func BenchmarkEngineTurn(b *testing.B) {
	eng, tm, _ := benchEngine(b)
	ctx := context.Background()
	var overhead []time.Duration
	i := 0
	for b.Loop() {
		i++
		before := tm.spent.Load()
		start := time.Now()
		err := eng.Handle(ctx, Turn{Channel: "web", ChatID: fmt.Sprint("c", i%50), UserID: fmt.Sprint("u", i%50),
			Text: "running shoes under 150", DedupKey: fmt.Sprint(i)}, discard{})
		if err != nil {
			b.Fatal(err)
		}
		overhead = append(overhead, time.Since(start)-time.Duration(tm.spent.Load()-before))
	}
	reportPercentiles(b, overhead)
}

// BenchmarkEngineThroughput runs turns from 100 concurrent conversations.
// Target: ≥ 2,000 turns/s on 2 cores.
func BenchmarkEngineThroughput(b *testing.B) {
	eng, _, _ := benchEngine(b)
	var next atomic.Int64
	cpu := processCPU()
	b.SetParallelism(max(1, 100/runtime.GOMAXPROCS(0)))
	b.RunParallel(func(pb *testing.PB) {
		conv := next.Add(1)
		n := 0
		for pb.Next() {
			n++
			err := eng.Handle(context.Background(), Turn{Channel: "web", ChatID: fmt.Sprint("p", conv), UserID: fmt.Sprint("p", conv),
				Text: "running shoes under 150", DedupKey: fmt.Sprint(conv, "-", n)}, discard{})
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
	// CPU per turn, model server included: what 2 cores can sustain is
	// 2000/cpu-ms-per-turn turns/s, whatever else the machine is doing.
	b.ReportMetric(float64(processCPU()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/turn")
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBareLoop is the yardstick: the same scripted turn through a bare
// openai-go loop (one search round, no persistence, no prompt building).
func BenchmarkBareLoop(b *testing.B) {
	env := newTestEnv(b)
	llm := llmtest.NewServer(b)
	llm.SetResponder(dynamicSearchTurn)
	client := openai.NewClient(option.WithBaseURL(llm.URL), option.WithAPIKey("bench"), option.WithMaxRetries(0))
	searcher := embedded.New(embedded.Options{Embedder: embed.NewLocal(0)})
	if err := searcher.Rebuild(context.Background(), env.db); err != nil {
		b.Fatal(err)
	}
	tool := openai.ChatCompletionToolUnionParam{OfFunction: &openai.ChatCompletionFunctionToolParam{
		Function: openai.FunctionDefinitionParam{Name: "search_products", Parameters: openai.FunctionParameters(searchProductsTool(env.deps).Schema)},
	}}
	ctx := context.Background()
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("running shoes under 150")}
		for {
			resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "bench", Messages: msgs, Tools: []openai.ChatCompletionToolUnionParam{tool}})
			if err != nil {
				b.Fatal(err)
			}
			choice := resp.Choices[0].Message
			if len(choice.ToolCalls) == 0 {
				break
			}
			msgs = append(msgs, choice.ToParam())
			for _, tc := range choice.ToolCalls {
				var a searchProductsArgs
				_ = json.Unmarshal([]byte(tc.Function.Arguments), &a)
				res, err := searcher.Search(ctx, search.Query{Text: a.Query, MaxPrice: 15000, InStockOnly: true, Limit: 5})
				if err != nil {
					b.Fatal(err)
				}
				out, _ := json.Marshal(briefs(cardsOf(res.Products)))
				msgs = append(msgs, openai.ToolMessage(string(out), tc.ID))
			}
		}
		times = append(times, time.Since(start))
	}
	reportPercentiles(b, times)
}

func reportPercentiles(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds())/1000, "p99-ms")
}
