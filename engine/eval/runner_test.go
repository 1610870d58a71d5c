package eval_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/engine"
	"shopbot/engine/eval"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
)

func TestExampleScenariosPass(t *testing.T) {
	catalogtest.EachSeeded(t, func(t *testing.T, db *bun.DB) {
		s := newTestShop(t, db)
		rep := s.run(t, s.runner(nil, 4), parseFile(t, "testdata/example.yaml"))
		var out bytes.Buffer
		if err := rep.Write(&out, true); err != nil {
			t.Fatal(err)
		}
		if rep.Passed != 10 || rep.Total != 10 || !strings.HasSuffix(out.String(), "\npassed 10/10 scenarios\n") {
			t.Errorf("report:\n%s", out.String())
		}
	})
}

// planted are scenarios whose last expectation fails, each of a kind.
const planted = `
- name: shows
  turns:
    - say: running shoes under 150
      expect: {shows: [SHO-RUN-001, SHO-RUN-003]}
- name: not_shows and first
  turns:
    - say: running shoes under 150
      expect: {not_shows: [SHO-RUN-003], first: SHO-RUN-001}
- name: max_price
  turns:
    - say: running shoes under 150
      expect: {min_price: 89.99, max_price: 149}
- name: cart after a button
  turns:
    - press: add|KIT-CKW-001|2
      expect: {cart: {KIT-CKW-001: 2}}
    - press: set|KIT-CKW-001|1
      expect: {cart: {KIT-CKW-001: 2}}
- name: order
  turns:
    - press: add|KIT-CKW-001|1
      expect: {order_placed: true}
- name: reply
  turns:
    - say: what is your return policy?
      expect: {reply_contains: [Refund], reply_not_contains: [Returns and refunds]}
- name: tools
  turns:
    - say: what is your return policy?
      expect: {tools: [search_products]}
- name: passes
  turns:
    - say: running shoes under 150
      expect: {first: SHO-TRL-001, max_price: 150, max_model_calls: 0}
`

func TestPlantedFailuresAreReportedExactly(t *testing.T) {
	s := newTestShop(t, catalogtest.SQLiteSeeded(t))
	scs, err := eval.Parse(strings.NewReader(planted), "planted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep := s.run(t, s.runner(nil, 3), scs)
	var out bytes.Buffer
	if err := rep.Write(&out, false); err != nil {
		t.Fatal(err)
	}
	want := `FAIL shows: turn 1: expected to show SHO-RUN-003, got [SHO-TRL-001, SHO-RUN-001, SHO-RUN-004, SHO-TRL-002, SHO-RUN-002]
FAIL not_shows and first: turn 1: expected SHO-RUN-001 first, got [SHO-TRL-001, SHO-RUN-001, SHO-RUN-004, SHO-TRL-002, SHO-RUN-002]
FAIL max_price: turn 1: expected every product at most 149.00, got SHO-TRL-001 at $149.99
FAIL cart after a button: turn 2: expected cart {KIT-CKW-001: 2}, got {KIT-CKW-001: 1}
FAIL order: turn 1: expected an order placed, got none
FAIL reply: turn 1: expected the reply not to contain "Returns and refunds", got "From our page «Returns and refunds» — How to return an item:\n\nReturn shipping is free within the United States; from other countries it costs $7. We refund to…"
FAIL tools: turn 1: expected tool search_products called, got [search_shop_info]
PASS passes
passed 1/8 scenarios
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if r := rep.Results[3]; len(r.Transcript) != 2 || r.Transcript[0].Failure != "" || r.Turn != 2 {
		t.Errorf("cart scenario: turn %d, transcript %+v", r.Turn, r.Transcript)
	}
}

// orderNumber matches the random order numbers a scenario's checkout
// places, the one thing two runs of it tell apart.
var orderNumber = regexp.MustCompile(`SB-[0-9A-Z]+`)

func TestParallelRunsMatchSerialRuns(t *testing.T) {
	s := newTestShop(t, catalogtest.SQLiteSeeded(t))
	scs := repeated(parseFile(t, "testdata/example.yaml"), 2)
	// A planted failure: its transcript must match too.
	scs[1].Turns = slices.Clone(scs[1].Turns)
	scs[1].Turns[5].Expect.ReplyContains = []string{"gift wrap"}
	report := func(par int) string {
		var b bytes.Buffer
		if err := s.run(t, s.runner(nil, par), scs).WriteJSON(&b, true); err != nil {
			t.Fatal(err)
		}
		return orderNumber.ReplaceAllString(b.String(), "SB-N")
	}
	serial, parallel := report(1), report(8)
	if serial != parallel {
		t.Errorf("--parallel 8 differs from --parallel 1:\n%s\n----\n%s", parallel, serial)
	}
	if !strings.Contains(serial, `"passed": 19`) || !strings.Contains(serial, `"total": 20`) || !strings.Contains(serial, `"order": "SB-N"`) {
		t.Errorf("report:\n%s", serial)
	}
}

func TestScriptedModelToolsAndModelCalls(t *testing.T) {
	s := newTestShop(t, catalogtest.SQLiteSeeded(t))
	llm := llmtest.NewServer(t)
	llm.SetResponder(func(req llmtest.Request) llmtest.Step {
		if last := req.Messages[len(req.Messages)-1]; last.Role == "tool" {
			return llmtest.Reply("Here are our running shoes.")
		}
		return llmtest.CallTools(llmtest.ToolCall{Name: "search_products", Arguments: `{"query":"running shoes","max_price":150}`})
	})
	model := openai.New(openai.Config{BaseURL: llm.URL, Model: "scripted"})
	scs, err := eval.Parse(strings.NewReader(`
- name: within budget
  turns:
    - say: running shoes under 150
      expect: {tools: [search_products], max_model_calls: 2, shows: [SHO-RUN-001], reply_contains: [running shoes]}
- name: too many calls
  turns:
    - say: running shoes under 150
      expect: {tools: [search_products], max_model_calls: 1}
- name: wrong tool
  turns:
    - say: running shoes under 150
      expect: {tools: [get_categories]}
`), "model.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep := s.run(t, s.runner(model, 2), scs)
	var out bytes.Buffer
	_ = rep.Write(&out, false)
	want := `PASS within budget
FAIL too many calls: turn 1: expected at most 1 model calls, got 2
FAIL wrong tool: turn 1: expected tool get_categories called, got [search_products]
passed 1/3 scenarios
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if n := llm.Calls(); n != 6 {
		t.Errorf("model calls = %d, want 6", n)
	}
	if o := rep.Results[0].Transcript[0].Outcome; o.ModelCalls != 2 || len(o.Tools) != 1 || o.Tools[0].Arguments != `{"query":"running shoes","max_price":150}` {
		t.Errorf("outcome = %+v", o)
	}
}

// shopDigest is counts and checksums of everything a shopper's turns can
// change in a shop.
var shopDigest = []string{
	"SELECT count(*), coalesce(sum(id * stock), 0), coalesce(sum(id * sold_count), 0) FROM products",
	"SELECT count(*), coalesce(sum(id), 0), coalesce(sum(total), 0) FROM orders",
	"SELECT count(*), coalesce(sum(id * quantity), 0), 0 FROM order_items",
	"SELECT count(*), coalesce(sum(id), 0), 0 FROM carts",
	"SELECT count(*), coalesce(sum(id * quantity), 0), 0 FROM cart_items",
	"SELECT count(*), coalesce(sum(id), 0), 0 FROM customers",
	"SELECT count(*), coalesce(sum(id), 0), coalesce(sum(length(CAST(state AS TEXT))), 0) FROM conversations",
	"SELECT count(*), coalesce(sum(id), 0), coalesce(sum(length(content)), 0) FROM messages",
	"SELECT count(*), coalesce(sum(id), 0), 0 FROM search_tombstones",
	"SELECT count(*), coalesce(sum(after_id), 0), 0 FROM search_cursors",
	"SELECT count(*), 0, 0 FROM turn_effects",
	"SELECT count(*), 0, 0 FROM rate_limits",
}

func digestShop(t *testing.T, db *bun.DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range shopDigest {
		var n, s1, s2 int64
		if err := db.QueryRowContext(context.Background(), q).Scan(&n, &s1, &s2); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		fmt.Fprintf(&b, "%s → %d %d %d\n", q, n, s1, s2)
	}
	return b.String()
}

func gather(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, mf := range mfs {
		b.WriteString(mf.String() + "\n")
	}
	return b.String()
}

func TestEvalLeavesTheShopAlone(t *testing.T) {
	catalogtest.EachSeeded(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := newTestShop(t, db)
		// The shop serving: a shopper with a cart and a conversation,
		// and the metrics of its engine.
		reg := prometheus.NewRegistry()
		serving, err := engine.New(engine.Config{DB: db, Search: s.index, Pages: s.pages, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{"running shoes", "add the first one"} {
			err := serving.Handle(ctx, engine.Turn{Channel: "web", ChatID: "ann", UserID: "ann", Text: text}, engine.SinkFunc(func(context.Context, engine.Event) error { return nil }))
			if err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO search_tombstones (kind, key, deleted_at) VALUES ('product', 'SHO-RUN-001', CURRENT_TIMESTAMP)"); err != nil {
			t.Fatal(err)
		}
		before, metrics := digestShop(t, db), gather(t, reg)
		// Checkout, cart edits, the same customer id as the shop's.
		rep := s.run(t, s.runner(nil, 4), parseFile(t, "testdata/example.yaml"))
		if rep.Passed != rep.Total || rep.Results[1].Transcript[5].Outcome.Order == "" {
			t.Fatalf("the example did not pass or place its order: %+v", rep.Results[1])
		}
		if after := digestShop(t, db); after != before {
			t.Errorf("the shop changed:\nbefore\n%s\nafter\n%s", before, after)
		}
		if after := gather(t, reg); after != metrics {
			t.Errorf("the serving engine's metrics moved:\nbefore\n%s\nafter\n%s", metrics, after)
		}
	})
}
