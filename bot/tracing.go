package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/extra/bunotel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// tracing is the process's OpenTelemetry tracer provider: a no-op one
// unless the standard settings ask for traces (OTEL_TRACES_EXPORTER=otlp,
// or an OTEL_EXPORTER_OTLP_ENDPOINT without OTEL_TRACES_EXPORTER=none).
// It is handed to what makes spans (the engine, the HTTP middleware, the
// database hook); nothing is registered globally.
type tracing struct {
	provider trace.TracerProvider
	on       bool
	shutdown func(context.Context) error
}

// parseTracing checks the trace settings: OTEL_TRACES_EXPORTER is otlp,
// none or unset; the endpoint, if any, an http(s) URL.
func (c *Config) parseTracing() error {
	switch c.OTelTracesExporter {
	case "", "otlp", "none":
	default:
		return usagef("OTEL_TRACES_EXPORTER is %q: shopbot exports traces by otlp (or none)", c.OTelTracesExporter)
	}
	if c.OTelEndpoint != "" {
		u, err := url.Parse(c.OTelEndpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usagef("OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL of an OTLP/HTTP collector, such as http://otel-collector:4318")
		}
	}
	return nil
}

// newTracing builds the tracer provider the settings ask for. Traces go
// by OTLP over HTTP (protobuf) to OTEL_EXPORTER_OTLP_ENDPOINT (default
// http://localhost:4318), in batches; the exporter reads the other
// standard OTEL_EXPORTER_OTLP_* settings (headers, timeout, certificates)
// itself.
func newTracing(ctx context.Context, cfg *Config) (*tracing, error) {
	on := cfg.OTelTracesExporter == "otlp" || (cfg.OTelTracesExporter == "" && cfg.OTelEndpoint != "")
	if !on {
		return &tracing{provider: noop.NewTracerProvider(), shutdown: func(context.Context) error { return nil }}, nil
	}
	var opts []otlptracehttp.Option
	if cfg.OTelEndpoint != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(strings.TrimSuffix(cfg.OTelEndpoint, "/")+"/v1/traces"))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("traces: OTLP exporter: %w", err)
	}
	res := resource.NewSchemaless(attribute.String("service.name", "shopbot"), attribute.String("service.version", buildVersion()))
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &tracing{provider: tp, on: true, shutdown: tp.Shutdown}, nil
}

// traceDB is db with Bun's OpenTelemetry hook: a span per statement, with
// the statement's text without its arguments (contact details stay out);
// db itself without tracing.
func (t *tracing) traceDB(db *bun.DB) *bun.DB {
	if !t.on {
		return db
	}
	return db.WithQueryHook(bunotel.NewQueryHook(bunotel.WithTracerProvider(t.provider), bunotel.WithMeterProvider(metricnoop.NewMeterProvider())))
}

// transport wraps Weaviate's REST calls in client spans (method and
// path: the query text, in the body, stays out); nil without tracing.
func (t *tracing) transport() http.RoundTripper {
	if !t.on {
		return nil
	}
	return tracedTransport{base: http.DefaultTransport, tracer: t.provider.Tracer("shopbot/weaviate")}
}

type tracedTransport struct {
	base   http.RoundTripper
	tracer trace.Tracer
}

func (t tracedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, span := t.tracer.Start(r.Context(), "weaviate "+r.Method+" "+r.URL.Path, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("http.request.method", r.Method), attribute.String("url.path", r.URL.Path),
			attribute.String("server.address", r.URL.Host)))
	defer span.End()
	resp, err := t.base.RoundTrip(r.WithContext(ctx))
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, "weaviate unreachable")
		return nil, err
	}
	span.SetAttributes(attribute.Int("http.response.status_code", resp.StatusCode))
	if resp.StatusCode >= 500 {
		span.SetStatus(codes.Error, resp.Status)
	}
	return resp, nil
}

// close flushes the spans still buffered, for at most 5 s.
func (t *tracing) close(log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := t.shutdown(ctx); err != nil {
		log.Warn("traces not flushed", "err", err)
	}
}
