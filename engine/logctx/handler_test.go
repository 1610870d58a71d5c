package logctx

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

func TestHandlerAttachesIDs(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewHandler(slog.NewJSONHandler(&buf, nil))).With("component", "test")
	line := func() map[string]any {
		t.Helper()
		var rec map[string]any
		if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
			t.Fatalf("%v: %s", err, buf.String())
		}
		buf.Reset()
		return rec
	}

	log.InfoContext(context.Background(), "plain")
	if rec := line(); rec[KeyRequest] != nil || rec[KeyConversation] != nil || rec[KeyTrace] != nil || rec["component"] != "test" {
		t.Errorf("a context without ids: %v", rec)
	}

	ctx := WithRequest(context.Background(), "r1")
	ctx, turn := StartTurn(ctx)
	log.InfoContext(ctx, "before the conversation is open")
	if rec := line(); rec[KeyRequest] != "r1" || rec[KeyConversation] != nil {
		t.Errorf("turn without conversation: %v", rec)
	}
	turn.SetConversation(42)
	tid := trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	ctx = trace.ContextWithSpanContext(ctx, trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{1}}))
	log.WarnContext(ctx, "inside")
	rec := line()
	if rec[KeyRequest] != "r1" || rec[KeyConversation] != float64(42) || rec[KeyTrace] != tid.String() {
		t.Errorf("ids: %v", rec)
	}
	if ConversationID(context.Background()) != 0 || RequestID(context.Background()) != "" {
		t.Error("ids outside a request or turn")
	}
}
