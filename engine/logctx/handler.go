package logctx

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// The keys of the attributes Handler adds.
const (
	KeyRequest      = "request_id"
	KeyConversation = "conversation_id"
	KeyTrace        = "trace_id"
)

// Handler wraps a slog.Handler: each record gets request_id,
// conversation_id and trace_id from the context it is logged with, those
// the context has.
type Handler struct{ next slog.Handler }

// NewHandler wraps next.
func NewHandler(next slog.Handler) Handler { return Handler{next} }

func (h Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h Handler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String(KeyRequest, id))
	}
	if id := ConversationID(ctx); id != 0 {
		r.AddAttrs(slog.Int64(KeyConversation, id))
	}
	if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
		r.AddAttrs(slog.String(KeyTrace, sc.TraceID().String()))
	}
	return h.next.Handle(ctx, r)
}

func (h Handler) WithAttrs(as []slog.Attr) slog.Handler { return Handler{h.next.WithAttrs(as)} }

func (h Handler) WithGroup(name string) slog.Handler { return Handler{h.next.WithGroup(name)} }
