package engine

import (
	"context"
	"errors"
	"shopbot/engine/toolkit"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"shopbot/catalog"
	"shopbot/engine/llm"
)

// tracerName is the instrumentation scope of the engine's spans.
const tracerName = "shopbot/engine"

// The attributes of the engine's spans.
const (
	attrChannel      = attribute.Key("shopbot.channel")
	attrConversation = attribute.Key("shopbot.conversation_id")
	attrOutcome      = attribute.Key("shopbot.turn.outcome")
	attrDegraded     = attribute.Key("shopbot.turn.degraded")
	attrModel        = attribute.Key("gen_ai.request.model")
	attrPromptTokens = attribute.Key("gen_ai.usage.input_tokens")
	attrOutputTokens = attribute.Key("gen_ai.usage.output_tokens")
	attrLatencyMS    = attribute.Key("shopbot.latency_ms")
	attrTool         = attribute.Key("gen_ai.tool.name")
	attrToolOutcome  = attribute.Key("shopbot.tool.outcome")
)

// spans is the engine's tracer; a no-op one for an Engine not made by New.
func (e *Engine) spans() trace.Tracer {
	if e.tracer == nil {
		return noop.NewTracerProvider().Tracer(tracerName)
	}
	return e.tracer
}

// startTurnSpan starts the span of one turn: its conversation, once the
// turn has opened it, its outcome and whether the planner answered for a
// failed model are set on it as they are known.
func (e *Engine) startTurnSpan(ctx context.Context, t Turn) (context.Context, trace.Span) {
	return e.spans().Start(ctx, "turn", trace.WithAttributes(attrChannel.String(t.Channel)))
}

// startModelSpan starts the span of one model call.
func (e *Engine) startModelSpan(ctx context.Context) (context.Context, trace.Span) {
	return e.spans().Start(ctx, "model.chat", trace.WithSpanKind(trace.SpanKindClient))
}

// endModelSpan records the model's answer on its span and ends it.
func endModelSpan(span trace.Span, resp llm.ChatResponse, err error) {
	if span.IsRecording() {
		span.SetAttributes(attrModel.String(resp.Model), attrPromptTokens.Int(resp.PromptTokens),
			attrOutputTokens.Int(resp.CompletionTokens), attrLatencyMS.Int64(resp.Latency.Milliseconds()))
	}
	endSpan(span, err)
}

// startToolSpan starts the span of one tool call.
func (e *Engine) startToolSpan(ctx context.Context) (context.Context, trace.Span) {
	return e.spans().Start(ctx, "tool")
}

// endToolSpan records a tool call's name ("unknown" for a name the model
// made up) and outcome (ok, refused: the shopper's or the model's
// mistake, error) and ends its span.
func endToolSpan(span trace.Span, name string, out toolOutcome) {
	outcome := "ok"
	switch {
	case out.err != nil && !toolkit.IsUserError(out.err):
		outcome = "error"
		span.RecordError(out.err)
		span.SetStatus(codes.Error, "tool failed")
	case out.isErr:
		outcome = "refused"
	}
	span.SetAttributes(attrTool.String(name), attrToolOutcome.String(outcome), attrLatencyMS.Int64(out.latency.Milliseconds()))
	span.End()
}

// endSpan marks a span failed with err, unless err is an expected end
// (a replay, a rate limit), and ends it.
func endSpan(span trace.Span, err error) {
	if err != nil && !errors.Is(err, ErrReplayed) && !errors.Is(err, ErrRateLimited) {
		span.RecordError(catalog.Unavailable(err))
		span.SetStatus(codes.Error, "failed")
	}
	span.End()
}

// stampTrace records the turn's trace id on its messages, so the admin
// transcript can name the trace; only a recorded (sampled) span counts,
// so with tracing off the messages carry none.
func stampTrace(ctx context.Context, msgs []*catalog.Message) {
	span := trace.SpanFromContext(ctx)
	sc := span.SpanContext()
	if !span.IsRecording() || !sc.HasTraceID() {
		return
	}
	id := sc.TraceID().String()
	for _, m := range msgs {
		m.TraceID = id
	}
}
