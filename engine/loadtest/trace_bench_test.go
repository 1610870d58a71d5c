package loadtest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"shopbot/catalog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun/extra/bunotel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
	"shopbot/engine"
	"shopbot/engine/loadtest"
	"shopbot/engine/openai"
)

// BenchmarkEngineTurnTraced is BenchmarkEngineTurn with tracing on as
// serve runs it with OTEL_EXPORTER_OTLP_ENDPOINT set: every span (turn,
// model calls, tool call, each database statement through bunotel)
// batched and exported by OTLP/HTTP to a collector on loopback. Target:
// within 5 % of BenchmarkEngineTurn.
func BenchmarkEngineTurnTraced(b *testing.B) {
	var exported atomic.Int64
	col := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		exported.Add(n)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer col.Close()
	ctx := context.Background()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(col.URL+"/v1/traces"))
	if err != nil {
		b.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))

	db := catalogtest.SQLite(b)
	if _, err := demo.Load(ctx, db); err != nil {
		b.Fatal(err)
	}
	idx := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0)})
	if err := idx.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		b.Fatal(err)
	}
	db = db.WithQueryHook(bunotel.NewQueryHook(bunotel.WithTracerProvider(tp), bunotel.WithMeterProvider(metricnoop.NewMeterProvider())))
	model, err := loadtest.StartModel(0, searchArgs)
	if err != nil {
		b.Fatal(err)
	}
	defer model.Close()
	eng, err := engine.New(engine.Config{DB: db, Search: idx, Registry: prometheus.NewRegistry(), Tracer: tp,
		Model:     loadtest.TimedModel{Model: openai.New(openai.Config{BaseURL: model.URL, Model: "bench", RequestTimeout: 5 * time.Second})},
		RateLimit: 1 << 30, DailyTokens: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
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
	b.StopTimer()
	if err := tp.Shutdown(ctx); err != nil {
		b.Fatal(err)
	}
	if exported.Load() == 0 {
		b.Fatal("no span reached the collector")
	}
	reportPercentiles(b, overhead, "")
	reportPercentiles(b, whole, "turn-")
}
