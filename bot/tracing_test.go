package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"shopbot/catalog/catalogtest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// collector is an OTLP/HTTP trace receiver on loopback.
type collector struct {
	*httptest.Server
	mu    sync.Mutex
	spans []*tracepb.Span
	got   chan struct{}
}

func newCollector(t *testing.T) *collector {
	c := &collector{got: make(chan struct{}, 100)}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req collectortrace.ExportTraceServiceRequest
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, &req) != nil {
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				c.spans = append(c.spans, ss.Spans...)
			}
		}
		c.mu.Unlock()
		c.got <- struct{}{}
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
		w.Write(out)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *collector) named(name string) []*tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*tracepb.Span
	for _, s := range c.spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// TestServeExportsTraces: with OTEL_EXPORTER_OTLP_ENDPOINT set, a web
// chat message is one trace at the collector — the HTTP span of the
// route, the turn under it, the model-less planner's database statements
// — continuing the caller's traceparent, and the turn's log lines carry
// its trace id.
func TestServeExportsTraces(t *testing.T) {
	col := newCollector(t)
	s := startServer(t, map[string]string{
		"DATABASE_URL": catalogtest.SQLiteSeededURL(t), "OTEL_EXPORTER_OTLP_ENDPOINT": col.URL,
		"LOG_FORMAT": "json", "LOG_LEVEL": "debug",
	})
	s.waitReady(t)
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	req, _ := http.NewRequest(http.MethodPost, s.base+"/api/chat", strings.NewReader(`{"session":"0123456789abcdef0123","message":"waterproof jacket under 150"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	s.stop(t) // flushes the batch

	https, turns := col.named("POST /api/chat"), col.named("turn")
	if len(https) != 1 || len(turns) != 1 {
		t.Fatalf("%d HTTP spans, %d turn spans exported, want 1 each", len(https), len(turns))
	}
	h, turn := https[0], turns[0]
	if got := hexID(h.TraceId); got != traceID {
		t.Errorf("HTTP span trace %s, want the caller's %s", got, traceID)
	}
	if hexID(turn.TraceId) != traceID || hexID(turn.ParentSpanId) != hexID(h.SpanId) {
		t.Errorf("the turn span is not a child of the HTTP span")
	}
	db := 0
	col.mu.Lock()
	for _, sp := range col.spans {
		for _, a := range sp.Attributes {
			if a.Key == "db.statement" && hexID(sp.TraceId) == traceID {
				db++
			}
		}
	}
	col.mu.Unlock()
	if db == 0 {
		t.Error("no database statement in the trace")
	}
	// Every line logged while the chat request was served (the turn's
	// among them) carries the request's trace id.
	var reqID string
	lines := strings.Split(s.stderr.String(), "\n")
	for _, line := range lines {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["route"] == "POST /api/chat" {
			reqID, _ = rec["request_id"].(string)
		}
	}
	inTurn := 0
	for _, line := range lines {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || reqID == "" || rec["request_id"] != reqID {
			continue
		}
		inTurn++
		if rec["trace_id"] != traceID {
			t.Errorf("a line of the request without its trace id: %s", line)
		}
	}
	if inTurn < 2 {
		t.Errorf("%d log lines of the chat request, want the turn's and the access line; stderr:\n%s", inTurn, s.stderr)
	}
}

func hexID(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// TestWeaviateCallsTraced: with tracing on, each REST call to Weaviate is
// a client span under the caller's (method and path, the status), and the
// API key still goes with it.
func TestWeaviateCallsTraced(t *testing.T) {
	var auth atomic.Value
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusOK)
	}))
	defer fake.Close()
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, envFunc(map[string]string{
		"SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": fake.URL, "WEAVIATE_API_KEY": "wv-key",
	}))
	if err != nil {
		t.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	tr := &tracing{provider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)), on: true}
	s, err := newSearchVia(&cfg, slog.New(slog.DiscardHandler), prometheus.NewRegistry(), tr.transport())
	if err != nil {
		t.Fatal(err)
	}
	ctx, parent := tr.provider.Tracer("test").Start(context.Background(), "caller")
	if err := s.weaviate.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	parent.End()
	if got, _ := auth.Load().(string); got != "Bearer wv-key" {
		t.Errorf("Authorization %q, want the API key", got)
	}
	var call sdktrace.ReadOnlySpan
	for _, sp := range rec.Ended() {
		if sp.Name() == "weaviate GET /v1/.well-known/ready" {
			call = sp
		}
	}
	if call == nil {
		t.Fatalf("no weaviate span among %d", len(rec.Ended()))
	}
	if call.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Error("the weaviate span is not under the caller's")
	}
	found := false
	for _, kv := range call.Attributes() {
		if kv.Key == "http.response.status_code" && kv.Value.AsInt64() == 200 {
			found = true
		}
	}
	if !found {
		t.Errorf("weaviate span attributes: %v", call.Attributes())
	}
}
