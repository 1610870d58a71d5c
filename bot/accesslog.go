package main

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"shopbot/engine/logctx"
)

// requestIDHeader carries a request's id: taken from a proxy in front
// when it is well formed, made up otherwise, and answered back.
const requestIDHeader = "X-Request-Id"

// accessLog gives each request an id (in its context, for every line
// logged while it is served, see logctx) and writes one line once it is
// answered: method, route pattern, status, duration and bytes. The route
// is the pattern, never the path or the query, which may hold a sign-in
// token or a shopper's e-mail; no header is logged. Probes and /metrics
// log at debug level unless they fail: they come every few seconds.
//
// With tracing on, each request is a server span (continuing the caller's
// trace when a W3C traceparent header comes with it), named after the
// route.
func accessLog(log *slog.Logger, tp trace.TracerProvider, next http.Handler) http.Handler {
	tracer := tp.Tracer("shopbot/http")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := requestID(r.Header.Get(requestIDHeader))
		w.Header().Set(requestIDHeader, id)
		ctx := propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		ctx, span := tracer.Start(ctx, r.Method, trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		r = r.WithContext(logctx.WithRequest(ctx, id))
		rec := &countingWriter{ResponseWriter: w}
		next.ServeHTTP(rec, r) // the mux sets r.Pattern
		route := r.Pattern
		if route == "" {
			route = "unmatched"
		}
		status := rec.status()
		if span.IsRecording() {
			span.SetName(route)
			span.SetAttributes(attribute.String("http.request.method", r.Method), attribute.String("http.route", route),
				attribute.Int("http.response.status_code", status), attribute.String("shopbot.request_id", id))
			if status >= 500 {
				span.SetStatus(codes.Error, http.StatusText(status))
			}
		}
		level := slog.LevelInfo
		if quietRoutes[route] && status < 500 {
			level = slog.LevelDebug
		}
		log.LogAttrs(r.Context(), level, "http request",
			slog.String("method", r.Method), slog.String("route", route), slog.Int("status", status),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000), slog.Int64("bytes", rec.bytes))
	})
}

// quietRoutes are logged at debug level while they succeed.
var quietRoutes = map[string]bool{"GET /healthz": true, "GET /readyz": true, "GET /metrics": true}

// requestID is the proxy's id when it is 1–64 letters, digits, dots,
// dashes or underscores (nothing that could forge a log line), else a
// new random one.
func requestID(given string) string {
	if len(given) > 0 && len(given) <= 64 {
		ok := true
		for _, c := range given {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				ok = false
				break
			}
		}
		if ok {
			return given
		}
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// countingWriter records the status and the body bytes of a response.
type countingWriter struct {
	http.ResponseWriter
	code  int
	bytes int64
}

func (c *countingWriter) WriteHeader(code int) {
	if c.code == 0 {
		c.code = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.code == 0 {
		c.code = http.StatusOK
	}
	n, err := c.ResponseWriter.Write(p)
	c.bytes += int64(n)
	return n, err
}

// Flush keeps the web chat's event stream flowing through the wrapper.
func (c *countingWriter) Flush() {
	_ = http.NewResponseController(c.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (c *countingWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

func (c *countingWriter) status() int {
	if c.code == 0 {
		return http.StatusOK
	}
	return c.code
}
