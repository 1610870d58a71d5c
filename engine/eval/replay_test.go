package eval_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
	"shopbot/engine/eval"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
)

// serveExample has shoppers talk to the shop as the example scenarios do,
// through an engine serving the shop's own database: the stored
// conversations replay reads (searches, references, buttons, cart edits,
// a checkout to its order, Russian).
func serveExample(t *testing.T, s *testShop) {
	t.Helper()
	ctx := context.Background()
	serving, err := engine.New(engine.Config{DB: s.src, Search: s.index, Pages: s.pages, RateLimit: 1 << 30, Registry: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	for i, sc := range parseFile(t, "testdata/example.yaml") {
		who := fmt.Sprintf("shopper-%d", i+1)
		for k, turn := range sc.Turns {
			in := engine.Turn{Channel: "web", ChatID: who, UserID: who, UserName: sc.User, Locale: sc.Locale,
				Text: turn.Say, Action: turn.Press, DedupKey: fmt.Sprintf("%s-%d", who, k)}
			if err := serving.Handle(ctx, in, engine.SinkFunc(func(context.Context, engine.Event) error { return nil })); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// storedTB loads every conversation of s's shop.
func storedTB(tb testing.TB, s *testShop, since time.Time) []*eval.Stored {
	return stored(tb, s.src, since, 0)
}

// stored loads every conversation of the shop as replay would.
func stored(t testing.TB, db *bun.DB, since time.Time, limit int) []*eval.Stored {
	t.Helper()
	ctx := context.Background()
	ids, err := catalog.ConversationsWithTurnsSince(ctx, db, since)
	if err != nil {
		t.Fatal(err)
	}
	var out []*eval.Stored
	for _, id := range ids {
		st, err := eval.LoadStored(ctx, db, id, since, limit)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, st)
	}
	return out
}

func (s *testShop) replayer(r *eval.Runner) *eval.Replayer {
	return &eval.Replayer{Template: s.tmpl, NewEngine: r.NewEngine, Parallel: r.Parallel}
}

func TestReplayUnchangedConfigurationChangesNothing(t *testing.T) {
	catalogtest.EachSeeded(t, func(t *testing.T, db *bun.DB) {
		s := newTestShop(t, db)
		serveExample(t, s)
		before := digestShop(t, db)
		convs := stored(t, db, time.Time{}, 0)
		rep, err := s.replayer(s.runner(nil, 4)).Replay(context.Background(), convs)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := rep.Write(&out); err != nil {
			t.Fatal(err)
		}
		if want := "replayed 22 turns: 0 changed (tools 0, products 0, cart 0)\n"; out.String() != want {
			t.Errorf("got\n%s\nwant %s", out.String(), want)
		}
		// The checkout replayed to its order, from the cart rebuilt from
		// the transcript.
		confirm := rep.Turns[6]
		if confirm.Input != "[button] confirm" || confirm.Then.Order == "" || confirm.Now.Order == "" || len(confirm.Now.Cart) != 0 {
			t.Errorf("the confirm turn: %+v", confirm)
		}
		if got := rep.Turns[5].Then.Cart; got["SHO-RUN-001-42"] != 2 {
			t.Errorf("cart before confirming = %v", got)
		}
		if after := digestShop(t, db); after != before {
			t.Errorf("the shop changed:\nbefore\n%s\nafter\n%s", before, after)
		}
		if left := s.leftFiles(t); left != "" {
			t.Errorf("files left in the sandbox dir: %s", left)
		}
	})
}

func TestReplayWithAScriptedModelReportsEachChange(t *testing.T) {
	catalogtest.EachSeeded(t, func(t *testing.T, db *bun.DB) {
		s := newTestShop(t, db)
		serveExample(t, s)
		llm := llmtest.NewServer(t)
		// The new "model" adds a cooking knife whatever was said, and
		// says so.
		llm.SetResponder(func(req llmtest.Request) llmtest.Step {
			if last := req.Messages[len(req.Messages)-1]; last.Role == "tool" {
				return llmtest.Reply("Added a knife.")
			}
			return llmtest.CallTools(llmtest.ToolCall{Name: "add_to_cart", Arguments: `{"sku":"KIT-CKW-001","quantity":1}`})
		})
		model := openai.New(openai.Config{BaseURL: llm.URL, Model: "scripted"})
		before := digestShop(t, db)
		convs := stored(t, db, time.Time{}, 1) // the first turn of each
		rep, err := s.replayer(s.runner(model, 3)).Replay(context.Background(), convs)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := rep.Write(&out); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 10 {
			t.Fatalf("got %d lines:\n%s", len(lines), out.String())
		}
		want := `conversation 1 turn 1: tools search_products{"query":"running shoes","max_price":150,"limit":5} → add_to_cart{"sku":"KIT-CKW-001","quantity":1}; products [SHO-TRL-001 SHO-RUN-001 SHO-RUN-004 SHO-TRL-002 SHO-RUN-002] → []; cart {} (empty) → {KIT-CKW-001: 1}; reply`
		if !strings.HasPrefix(lines[0], want) {
			t.Errorf("line 1:\n%s\nwant prefix\n%s", lines[0], want)
		}
		// The cart-editing conversation begins with a button, which no
		// model answers: unchanged, so not listed.
		want9 := `conversation 9 turn 1: tools view_cart{} → add_to_cart{"sku":"KIT-CKW-001","quantity":1}; cart {} (empty) → {KIT-CKW-001: 1}; reply "Your cart is empty. Tell me what you're looking for!" → "Added a knife."`
		if lines[7] != want9 || strings.Contains(out.String(), "conversation 7 ") {
			t.Errorf("line 8:\n%s\nwant\n%s", lines[7], want9)
		}
		if got, want := lines[9], "replayed 10 turns: 9 changed (tools 9, products 6, cart 9)"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
		if n := llm.Calls(); n != 18 {
			t.Errorf("model calls = %d, want 18", n)
		}
		if after := digestShop(t, db); after != before {
			t.Errorf("the shop changed:\nbefore\n%s\nafter\n%s", before, after)
		}
	})
}

func TestReplaySinceSelectsTurns(t *testing.T) {
	s := newTestShop(t, catalogtest.SQLiteSeeded(t))
	serveExample(t, s)
	if convs := stored(t, s.src, time.Now().Add(time.Hour), 0); len(convs) != 0 {
		t.Errorf("turns from the future: %d conversations", len(convs))
	}
	convs := stored(t, s.src, time.Now().Add(-time.Hour), 2)
	n := 0
	for _, c := range convs {
		n += len(c.Turns)
	}
	if len(convs) != 10 || n != 15 {
		t.Errorf("%d conversations, %d turns; want 10 and 15", len(convs), n)
	}
}

// leftFiles names the files in the sandbox dir besides the template.
func (s *testShop) leftFiles(t testing.TB) string {
	t.Helper()
	left, _ := os.ReadDir(s.dir)
	var names []string
	for _, e := range left {
		if e.Name() != "template.db" {
			names = append(names, e.Name())
		}
	}
	return strings.Join(names, " ")
}

// A stored conversation saved as a scenario parses, and passes when run:
// its expectations are what happened.
func TestWriteScenarioRoundTrips(t *testing.T) {
	s := newTestShop(t, catalogtest.SQLiteSeeded(t))
	serveExample(t, s)
	var scs []eval.Scenario
	for _, c := range stored(t, s.src, time.Time{}, 0) {
		src, err := eval.WriteScenario(c, fmt.Sprintf("conversation %d", c.ID))
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := eval.Parse(bytes.NewReader(src), "saved.yaml")
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		scs = append(scs, parsed...)
	}
	rep := s.run(t, s.runner(nil, 4), scs)
	var out bytes.Buffer
	_ = rep.Write(&out, false)
	if rep.Passed != 10 || rep.Total != 10 {
		t.Errorf("saved scenarios:\n%s", out.String())
	}
}
