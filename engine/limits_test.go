package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
)

// replicaClock is the engines' shared, injected clock.
type replicaClock struct{ ns atomic.Int64 }

func (c *replicaClock) now() time.Time      { return time.Unix(0, c.ns.Load()).UTC() }
func (c *replicaClock) add(d time.Duration) { c.ns.Add(int64(d)) }
func newReplicaClock(t time.Time) *replicaClock {
	c := &replicaClock{}
	c.ns.Store(t.UnixNano())
	return c
}

func limitedEngine(t *testing.T, db *bun.DB, clock *replicaClock) *Engine {
	t.Helper()
	e, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 5, RateWindow: time.Minute, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestRateLimitAcrossReplicas: one shopper's turns, sent at once through
// three engines on one database (two on SQLite), are accepted exactly
// RateLimit times per window; refused turns store nothing; the next
// window accepts again; a restarted engine keeps the count.
func TestRateLimitAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 3, func(t *testing.T, dbs []*bun.DB) {
		if dbs[0].Dialect().Name().String() == "sqlite" {
			dbs = dbs[:2]
		}
		ctx := context.Background()
		clock := newReplicaClock(time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC))
		engines := make([]*Engine, len(dbs))
		for i, db := range dbs {
			engines[i] = limitedEngine(t, db, clock)
		}
		const sent = 15
		var wg sync.WaitGroup
		results := make([]error, sent)
		for i := range sent {
			wg.Add(1)
			go func() {
				defer wg.Done()
				turn := Turn{Channel: "web", ChatID: fmt.Sprintf("chat-%d", i%4), UserID: "busy-shopper", Text: fmt.Sprintf("hello %d", i)}
				results[i] = engines[i%len(engines)].Handle(ctx, turn, SinkFunc(func(context.Context, Event) error { return nil }))
			}()
		}
		wg.Wait()
		accepted := 0
		for i, err := range results {
			stored := storedText(t, dbs[0], fmt.Sprintf("hello %d", i))
			switch {
			case err == nil:
				accepted++
				if !stored {
					t.Errorf("accepted turn %d not stored", i)
				}
			case errors.Is(err, ErrRateLimited):
				if stored {
					t.Errorf("refused turn %d stored its message", i)
				}
			default:
				t.Fatalf("turn %d: %v", i, err)
			}
		}
		if accepted != 5 {
			t.Errorf("%d of %d turns accepted across %d replicas, want exactly 5", accepted, sent, len(engines))
		}

		// A restarted replica keeps the count.
		restarted := limitedEngine(t, dbs[len(dbs)-1], clock)
		again := Turn{Channel: "web", ChatID: "chat-0", UserID: "busy-shopper", Text: "after restart", DedupKey: "again"}
		before := conversationRow(t, dbs[0], "chat-0")
		if err := restarted.Handle(ctx, again, SinkFunc(func(context.Context, Event) error { return nil })); !errors.Is(err, ErrRateLimited) {
			t.Errorf("after a restart: %v, want ErrRateLimited", err)
		}
		if after := conversationRow(t, dbs[0], "chat-0"); after != before {
			t.Errorf("a refused turn changed the conversation:\n%s\nthen\n%s", before, after)
		}
		clock.add(time.Minute)
		if err := restarted.Handle(ctx, again, SinkFunc(func(context.Context, Event) error { return nil })); err != nil {
			t.Errorf("in the next window: %v, want the turn accepted", err)
		}
	})
}

// storedText reports whether a user message with text is stored.
func storedText(t *testing.T, db *bun.DB, text string) bool {
	t.Helper()
	n, err := db.NewSelect().TableExpr("messages").Where("role = 'user' AND content = ?", text).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// conversationRow is the stored conversation of a web chat, as text.
func conversationRow(t *testing.T, db *bun.DB, chatID string) string {
	t.Helper()
	var c catalog.Conversation
	if err := db.NewSelect().Model(&c).Where("channel = 'web' AND chat_id = ?", chatID).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("state %s, last message %v, paused %v, needs human %v", c.State, c.LastMessageAt, c.Paused, c.NeedsHuman)
}

// TestDailyTokenBudgetAcrossReplicas: tokens one replica spent count on
// another: it answers with the planner without calling the model.
func TestDailyTokenBudgetAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		llm := llmtest.NewServer(t)
		llm.SetDefault(llmtest.Step{Text: "Hello!", PromptTokens: 800, CompletionTokens: 300})
		engines := make([]*Engine, len(dbs))
		for i, db := range dbs {
			e, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), DailyTokens: 1000, Now: func() time.Time { return fixedNow },
				Model: openai.New(openai.Config{BaseURL: llm.URL, Model: "m"})})
			if err != nil {
				t.Fatal(err)
			}
			engines[i] = e
		}
		for i, e := range engines {
			turn := Turn{Channel: "web", ChatID: fmt.Sprint("chat-", i), UserID: "spender", Text: "hi"}
			if err := e.Handle(context.Background(), turn, SinkFunc(func(context.Context, Event) error { return nil })); err != nil {
				t.Fatal(err)
			}
		}
		if llm.Calls() != 1 {
			t.Errorf("%d model calls, want 1: the second replica must see the budget spent", llm.Calls())
		}
		if got := testutil.ToFloat64(engines[1].metrics.degraded.WithLabelValues("token_budget")); got != 1 {
			t.Errorf("second replica degraded{token_budget} = %v, want 1", got)
		}
	})
}
