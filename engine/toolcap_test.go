package engine

import (
	"context"
	"encoding/json"
	"log/slog"
	"shopbot/engine/toolkit"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
	"shopbot/engine/session"
)

// newEngineEnvOnDemo is newEngineEnv on a database holding the demo shop (catalogtest.EachDemo).
func newEngineEnvOnDemo(t *testing.T, db *bun.DB, script ...llmtest.Step) *engineEnv {
	t.Helper()
	env := newTestEnvOnDemo(t, db)
	llm := llmtest.NewServer(t, script...)
	reg := prometheus.NewRegistry()
	eng, err := New(Config{
		DB: db, Search: searchtest.NewDatabase(db), Registry: reg, Now: func() time.Time { return fixedNow },
		Model: openai.New(openai.Config{BaseURL: llm.URL, Model: "test-model", MaxRetries: 1, RequestTimeout: 10 * time.Second}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &engineEnv{testEnv: env, llm: llm, eng: eng, reg: reg}
}

// manyCalls is a model reply asking for n tool calls.
func manyCalls(n int) llmtest.Step {
	calls := make([]llmtest.ToolCall, n)
	for i := range calls {
		calls[i] = llmtest.ToolCall{Name: "view_cart", Arguments: `{}`}
	}
	return llmtest.CallTools(calls...)
}

func TestCapToolCalls(t *testing.T) {
	calls := func(n int) []catalog.ToolCall {
		out := make([]catalog.ToolCall, n)
		for i := range out {
			out[i] = catalog.ToolCall{ID: "c" + strconv.Itoa(i), Name: "view_cart", Arguments: "{}"}
		}
		return out
	}
	for _, tc := range []struct{ n, run, skipped, dropped int }{
		{0, 0, 0, 0}, {1, 1, 0, 0}, {16, 16, 0, 0}, {17, 16, 1, 0}, {32, 16, 16, 0}, {33, 16, 16, 1}, {1000, 16, 16, 968},
	} {
		r := capToolCalls(calls(tc.n), 16)
		if len(r.run) != tc.run || len(r.skipped) != tc.skipped || r.dropped != tc.dropped || len(r.kept()) != tc.run+tc.skipped {
			t.Errorf("%d calls: run %d, skipped %d, dropped %d, kept %d; want %d, %d, %d", tc.n, len(r.run), len(r.skipped), r.dropped, len(r.kept()), tc.run, tc.skipped, tc.dropped)
		}
		outs := r.skippedOutcomes(16)
		for i, o := range outs {
			if !o.isErr || o.call != r.skipped[i] || !strings.Contains(o.content, "too many tool calls in one reply: at most 16 run; this one") {
				t.Errorf("%d calls: skipped outcome %d = %+v", tc.n, i, o)
			}
		}
		if tc.dropped > 0 && !strings.Contains(outs[len(outs)-1].content, "and the "+strconv.Itoa(tc.dropped)+" after it were skipped") {
			t.Errorf("%d calls: last skipped message %q does not count the dropped calls", tc.n, outs[len(outs)-1].content)
		}
	}
}

// TestHostileModelTurnIsBounded: a model answering five times with 1,000
// tool calls gets at most 16 run per reply, every call it sees answered,
// requests that stay bounded, and a turn that answers and is stored.
func TestHostileModelTurnIsBounded(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		e := newEngineEnvOnDemo(t, db, manyCalls(1000), manyCalls(1000), manyCalls(1000), manyCalls(1000), manyCalls(1000))
		ev := e.turn(t, "show my cart", "hostile-1")

		if got, want := ev.done(), engineMessage("", msgRoundsExhausted); got != want {
			t.Fatalf("done %q, want %q", got, want)
		}
		cfg := e.eng.cfg
		if ran := testutil.ToFloat64(e.eng.metrics.toolCalls.WithLabelValues("view_cart", "ok")); ran != float64(5*cfg.MaxToolCalls) {
			t.Errorf("%v tools ran, want %d", ran, 5*cfg.MaxToolCalls)
		}
		if skipped := testutil.ToFloat64(e.eng.metrics.toolCallsSkipped); skipped != 5*(1000-16) {
			t.Errorf("%v calls skipped, want %d", skipped, 5*(1000-16))
		}
		reqs := e.llm.Requests() // llmtest rejected any request whose calls and results do not pair up
		if len(reqs) != 5 {
			t.Fatalf("%d model requests, want 5", len(reqs))
		}
		for i, r := range reqs {
			if want := 2 + i*(1+2*16); len(r.Messages) != want || len(r.Messages) > maxRequestMessages(cfg) {
				t.Errorf("request %d has %d messages, want %d (cap %d)", i, len(r.Messages), want, maxRequestMessages(cfg))
			}
		}
		last := reqs[4].Messages
		if ran, skipped := last[len(last)-32], last[len(last)-16]; strings.Contains(ran.Content, "error") || !strings.Contains(skipped.Content, "at most 16 run; this one was skipped") {
			t.Errorf("results: ran %q, skipped %q", ran.Content, skipped.Content)
		}
		if m := last[len(last)-1]; !strings.Contains(m.Content, "this one and the 968 after it were skipped") {
			t.Errorf("last result %q", m.Content)
		}

		tr, err := catalog.RecentMessages(context.Background(), db, e.session.Conversation.ID, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 + 5*(1+32) + 1; len(tr) != want {
			t.Errorf("transcript has %d messages, want %d", len(tr), want)
		}
		if n := len(tr[1].ToolCalls); tr[1].Role != catalog.RoleAssistant || n != 32 {
			t.Errorf("stored reply: role %s with %d tool calls, want assistant with 32", tr[1].Role, n)
		}

		// The next turn's history window pairs up and stays bounded too.
		e.llm.Push(llmtest.Reply("Your cart is empty."))
		if got := e.turn(t, "thanks", "hostile-2").done(); got != "Your cart is empty." {
			t.Errorf("next turn answered %q", got)
		}
		if r := e.llm.Requests()[5]; len(r.Messages) > maxRequestMessages(cfg) {
			t.Errorf("next request has %d messages", len(r.Messages))
		}
	})
}

// TestRunToolsBoundsParallelism: the calls of a round run concurrently,
// maxParallelTools at a time, and each outcome lands in its call's place.
// (Without timing, a missing bound shows only when the ninth call starts
// before the test releases the first eight; the semaphore makes that
// impossible.)
func TestRunToolsBoundsParallelism(t *testing.T) {
	var mu sync.Mutex
	active, peak := 0, 0
	full, release := make(chan struct{}), make(chan struct{})
	var fullOnce sync.Once
	tb, err := toolkit.NewToolbox(toolkit.Tool{
		Name: "wait", Description: "waits", Schema: map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
			"n": map[string]any{"type": "integer", "description": "", "minimum": 0, "maximum": 100},
		}},
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			mu.Lock()
			active++
			peak = max(peak, active)
			if active == maxParallelTools {
				fullOnce.Do(func() { close(full) })
			}
			mu.Unlock()
			<-release
			mu.Lock()
			active--
			mu.Unlock()
			return toolkit.Result{Data: raw}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	e := &Engine{tools: tb, metrics: newMetrics(prometheus.NewRegistry()), log: slog.New(slog.DiscardHandler)}
	calls := make([]catalog.ToolCall, 2*maxParallelTools)
	for i := range calls {
		calls[i] = catalog.ToolCall{ID: "c" + strconv.Itoa(i), Name: "wait", Arguments: `{"n":` + strconv.Itoa(i) + `}`}
	}
	done := make(chan []toolOutcome)
	go func() { done <- e.runTools(context.Background(), &session.Session{State: &session.State{}}, calls) }()
	<-full // maxParallelTools calls are running at once
	close(release)
	outs := <-done
	if peak != maxParallelTools {
		t.Errorf("%d tools ran at once, want %d", peak, maxParallelTools)
	}
	for i, o := range outs {
		if o.isErr || o.call.ID != calls[i].ID || o.content != calls[i].Arguments {
			t.Errorf("outcome %d = %+v", i, o)
		}
	}
}
