package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/catalog/search/searchtest"
	"shopbot/engine/llmtest"
	"shopbot/engine/logctx"
	"shopbot/engine/openai"
)

// TestTurnLogLinesNameTheConversation: a line the turn logs once its
// conversation is open carries conversation_id (set once by Handle, not
// by the call), and the request id of the context it was handed.
func TestTurnLogLinesNameTheConversation(t *testing.T) {
	var buf bytes.Buffer
	env := newTestEnv(t)
	llm := llmtest.NewServer(t, llmtest.Fail(500, "server_error"), llmtest.Fail(500, "server_error"))
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db), Registry: prometheus.NewRegistry(),
		Now:    func() time.Time { return fixedNow },
		Model:  openai.New(openai.Config{BaseURL: llm.URL, Model: "test-model", MaxRetries: 1, RequestTimeout: 10 * time.Second}),
		Logger: slog.New(logctx.NewHandler(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := logctx.WithRequest(context.Background(), "req-7")
	if err := eng.Handle(ctx, Turn{Channel: "web", ChatID: "c1", UserID: "u1", Text: "running shoes", DedupKey: "k1"}, &events{}); err != nil {
		t.Fatal(err)
	}
	var conv int64
	if err := env.db.NewSelect().Table("conversations").Column("id").Where("chat_id = ?", "c1").Scan(context.Background(), &conv); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if rec["request_id"] != "req-7" {
			t.Errorf("line without the request id: %s", line)
		}
		if rec["msg"] == "model unavailable, offline planner answers" {
			found = true
			if rec["conversation_id"] != float64(conv) {
				t.Errorf("conversation_id = %v, want %d: %s", rec["conversation_id"], conv, line)
			}
		}
	}
	if !found {
		t.Fatalf("no line on the model's failure:\n%s", buf.String())
	}
}
