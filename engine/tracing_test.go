package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun/extra/bunotel"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"shopbot/catalog/search/searchtest"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
)

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// TestTurnTrace: one model turn that searches gives one trace: the turn
// span (channel, conversation, outcome, not degraded) with, as children,
// the two model calls (model, tokens, latency), the tool call (name,
// outcome) and database statements (Bun's own hook, bunotel), whose
// statements carry placeholders, never the shopper's words.
func TestTurnTrace(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	env := newTestEnv(t)
	db := env.db.WithQueryHook(bunotel.NewQueryHook(bunotel.WithTracerProvider(tp), bunotel.WithMeterProvider(metricnoop.NewMeterProvider())))
	llm := llmtest.NewServer(t,
		llmtest.CallTools(llmtest.ToolCall{Name: "search_products", Arguments: `{"query":"running shoes"}`}),
		llmtest.Step{Text: "Here are running shoes.", PromptTokens: 900, CompletionTokens: 30},
	)
	eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), Registry: prometheus.NewRegistry(),
		Now: func() time.Time { return fixedNow }, Tracer: tp,
		Model: openai.New(openai.Config{BaseURL: llm.URL, Model: "test-model", MaxRetries: 1, RequestTimeout: 10 * time.Second})})
	if err != nil {
		t.Fatal(err)
	}
	const words = "running shoes for eva@example.com"
	if err := eng.Handle(context.Background(), Turn{Channel: "web", ChatID: "c1", UserID: "u1", Text: words, DedupKey: "k1"}, &events{}); err != nil {
		t.Fatal(err)
	}
	var conv int64
	if err := env.db.NewSelect().Table("conversations").Column("id").Where("chat_id = 'c1'").Scan(context.Background(), &conv); err != nil {
		t.Fatal(err)
	}

	spans := rec.Ended()
	var turn sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == "turn" {
			turn = s
		}
	}
	if turn == nil {
		t.Fatalf("no turn span among %d", len(spans))
	}
	if turn.Parent().IsValid() {
		t.Error("the turn span has a parent; want a root here")
	}
	a := attrs(turn)
	if a["shopbot.channel"].AsString() != "web" || a["shopbot.conversation_id"].AsInt64() != conv ||
		a["shopbot.turn.outcome"].AsString() != "model" || a["shopbot.turn.degraded"].AsBool() {
		t.Errorf("turn span attributes: %v", turn.Attributes())
	}
	children := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		if s.SpanContext().TraceID() != turn.SpanContext().TraceID() {
			continue
		}
		for _, kv := range s.Attributes() {
			if strings.Contains(kv.Value.Emit(), "eva@example.com") {
				t.Errorf("span %s shows the shopper's e-mail in %s", s.Name(), kv.Key)
			}
		}
		if s.Parent().SpanID() == turn.SpanContext().SpanID() {
			children[s.Name()] = append(children[s.Name()], s)
		}
	}
	if n := len(children["model.chat"]); n != 2 {
		t.Errorf("%d model spans under the turn, want 2", n)
	} else if m := attrs(children["model.chat"][1]); m["gen_ai.request.model"].AsString() != "test-model" ||
		m["gen_ai.usage.input_tokens"].AsInt64() != 900 || m["gen_ai.usage.output_tokens"].AsInt64() != 30 {
		t.Errorf("second model span: %v", children["model.chat"][1].Attributes())
	}
	if n := len(children["tool"]); n != 1 {
		t.Errorf("%d tool spans under the turn, want 1", n)
	} else if m := attrs(children["tool"][0]); m["gen_ai.tool.name"].AsString() != "search_products" || m["shopbot.tool.outcome"].AsString() != "ok" {
		t.Errorf("tool span: %v", children["tool"][0].Attributes())
	}
	statements := 0
	for _, ss := range children {
		for _, s := range ss {
			if _, ok := attrs(s)["db.statement"]; ok {
				statements++
			}
		}
	}
	if statements == 0 {
		t.Errorf("no database statement under the turn; children: %v", keys(children))
	}
	// Every message of the turn names the turn's trace, for the transcript.
	var ids []string
	if err := env.db.NewSelect().Table("messages").Column("trace_id").Where("conversation_id = ?", conv).Scan(context.Background(), &ids); err != nil {
		t.Fatal(err)
	}
	want := turn.SpanContext().TraceID().String()
	if len(ids) < 4 {
		t.Errorf("%d messages stored, want user, model, tool, model", len(ids))
	}
	for _, id := range ids {
		if id != want {
			t.Errorf("a message's trace id is %q, want the turn's %s", id, want)
		}
	}
}

// TestNoTraceIDWhenTracingIsOff: without a tracer provider the turn's
// messages carry no trace id.
func TestNoTraceIDWhenTracingIsOff(t *testing.T) {
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db), Registry: prometheus.NewRegistry(),
		Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Handle(context.Background(), Turn{Channel: "web", ChatID: "c2", UserID: "u2", Text: "running shoes", DedupKey: "k2"}, &events{}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	if err := env.db.NewSelect().Table("messages").Column("trace_id").Scan(context.Background(), &ids); err != nil || len(ids) == 0 {
		t.Fatalf("%d messages: %v", len(ids), err)
	}
	for _, id := range ids {
		if id != "" {
			t.Errorf("trace id %q stored with tracing off", id)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
