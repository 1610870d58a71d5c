package engine

import (
	"context"
	"encoding/json"
	"shopbot/catalog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/searchtest"
	"shopbot/catalog/search/vectorizer"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
	"shopbot/engine/tools"
)

// TestModelAnswersFromShopPages: the model calls search_shop_info and
// reads the demo shop's passages (page title, heading, text) in the tool
// result; the system prompt tells it to answer policy questions from them
// only.
func TestModelAnswersFromShopPages(t *testing.T) {
	env := newTestEnv(t)
	pages := embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0)})
	if err := pages.Rebuild(context.Background(), catalog.NewSearchSource(env.db)); err != nil {
		t.Fatal(err)
	}
	llm := llmtest.NewServer(t,
		llmtest.CallTools(llmtest.ToolCall{Name: "search_shop_info", Arguments: `{"query":"ship to Canada"}`}),
		llmtest.Reply("Yes — per our Shipping and delivery page we ship to Canada ($12, 5–8 business days)."),
	)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db), Pages: pages, Registry: prometheus.NewRegistry(),
		Now:   func() time.Time { return fixedNow },
		Model: openai.New(openai.Config{BaseURL: llm.URL, Model: "test-model", MaxRetries: 1, RequestTimeout: 5 * time.Second})})
	if err != nil {
		t.Fatal(err)
	}
	e := &engineEnv{testEnv: env, llm: llm, eng: eng}
	ev := e.turn(t, "do you ship to Canada?", "u1")
	if !strings.Contains(ev.done(), "Shipping and delivery") || len(ev.of(EventCards)) != 0 {
		t.Errorf("reply %q, cards %d", ev.done(), len(ev.of(EventCards)))
	}
	reqs := llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	if sys := reqs[0].Messages[0].Content; !strings.Contains(sys, "search_shop_info") || !strings.Contains(sys, "say you do not know") {
		t.Errorf("system prompt does not route policy questions: %q", sys)
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	var info tools.ShopInfo
	if err := json.Unmarshal([]byte(last.Content), &info); err != nil {
		t.Fatalf("tool result %q: %v", last.Content, err)
	}
	if len(info.Passages) == 0 || info.Passages[0].Page != "Shipping and delivery" || !strings.Contains(info.Passages[0].Text, "Canada") {
		t.Errorf("tool result: %+v", info)
	}
}
