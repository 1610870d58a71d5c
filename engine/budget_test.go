package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/dbstats"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/llmtest"
	"shopbot/engine/openai"
	"shopbot/engine/view"
)

// turnBudgets are the most statements (round trips through the pool,
// BEGIN and COMMIT included) one turn may send, per database, in steady
// state (the chat's customer and conversation exist). They are today's
// counts: a change that adds a round trip to a turn fails here,
// deterministically, where a timing would only drift. Lower them when a
// change saves one; raise them only with a reason in the commit.
// The chat lock's statements on Postgres (lock, unlock; batched with
// other chats' under load) run on their own sessions and are not counted
// here (catalog/chatlock counts them). A known customer's turn opens with
// one statement (catalog.OpenTurn: customer, conversation, and the cart
// the model's prompt shows; on Postgres the rate limit too) and on
// Postgres ends with one (catalog.SaveTurnWrites). The model turn's search runs on the test's
// database search backend (three of Postgres's five statements); the
// embedded index production uses sends none.
var turnBudgets = map[string]map[string]int64{
	"pg":     {"text": 4, "cart": 9, "checkout": 28, "model": 5},
	"sqlite": {"text": 10, "cart": 15, "checkout": 33, "model": 12},
}

// TestTurnStatementBudget runs a text turn (the planner searching), a
// cart turn (an add-to-cart button), a checkout turn (confirming the
// order) and a model turn (the model searching, then answering, with the
// cart in its prompt) on each database and counts their statements.
func TestTurnStatementBudget(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		newTestEnvOnDemo(t, db)
		if err := demo.WriteDeliveries(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		db, _ = dbstats.Install(db)
		eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		llm := llmtest.NewServer(t)
		llm.SetResponder(func(r llmtest.Request) llmtest.Step {
			if m := r.Messages; len(m) > 0 && m[len(m)-1].Role == "tool" {
				return llmtest.Reply("Here are a few good options.")
			}
			return llmtest.CallTools(llmtest.ToolCall{Name: "search_products", Arguments: `{"query":"running shoes","max_price":150}`})
		})
		modelEng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30,
			Model: openai.New(openai.Config{BaseURL: llm.URL, Model: "test-model", MaxRetries: 1, RequestTimeout: 5 * time.Second})})
		if err != nil {
			t.Fatal(err)
		}
		budget := turnBudgets[db.Dialect().Name().String()]
		n := 0
		turnOn := func(eng *Engine, name, text string, act *view.Action) {
			t.Helper()
			n++
			c := &dbstats.Counter{Detail: true}
			ev := &events{}
			tr := Turn{Channel: "web", ChatID: "budget", UserID: "budget", Text: text, Action: act, DedupKey: fmt.Sprint("b", n)}
			if err := eng.Handle(dbstats.With(context.Background(), c), tr, ev); err != nil {
				t.Fatalf("turn %d %q: %v", n, text, err)
			}
			if name == "" {
				return
			}
			got := c.Counts()
			t.Logf("%s turn: %s", name, got)
			if got.Statements > budget[name] {
				t.Errorf("%s turn sent %d statements, budget %d:\n%s", name, got.Statements, budget[name], strings.Join(c.Shapes(), "\n"))
			}
		}
		turn := func(name, text string, act *view.Action) { t.Helper(); turnOn(eng, name, text, act) }
		turn("", "hello", nil) // the first turn creates the customer and conversation
		turn("text", "running shoes under 150", nil)
		turn("cart", "", &view.Action{Kind: view.ActAdd, SKU: "APP-TSH-002-NAVY-L", Qty: 1})
		turn("", "", &view.Action{Kind: view.ActCheckout})
		turn("", "Ann Tester", nil)
		turn("", "+1 555 010 2030", nil)
		turn("", "12 Main Street, Springfield", nil)
		turn("", "", &view.Action{Kind: view.ActDelivery, Arg: firstDelivery(t, db)})
		turn("checkout", "", &view.Action{Kind: view.ActConfirm})
		turn("", "", &view.Action{Kind: view.ActAdd, SKU: "APP-TSH-002-NAVY-L", Qty: 1})
		turnOn(modelEng, "", "running shoes", nil) // this engine's first turn: its prune, history not yet cached
		turnOn(modelEng, "model", "running shoes under 150", nil)
	})
}

// firstDelivery is the id of the shop's first delivery method.
func firstDelivery(t *testing.T, db *bun.DB) string {
	var id int64
	if err := db.NewSelect().Table("delivery_methods").Column("id").Order("id").Limit(1).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(id)
}
