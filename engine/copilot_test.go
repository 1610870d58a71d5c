package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/llmtest"
)

// copilotConversation is the conversation of engineEnv.turn's shopper.
func copilotConversation(t *testing.T, e *engineEnv) *catalog.Conversation {
	t.Helper()
	id := catalog.FindConversationID(context.Background(), e.db, catalog.ConversationKey{Channel: "web", ChatID: "shopper-1"})
	c, err := catalog.GetConversation(context.Background(), e.db, id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// unchanged checks that nothing was written since before: no message,
// no cart item.
func unchanged(t *testing.T, e *engineEnv, conv *catalog.Conversation, msgs int) {
	t.Helper()
	ctx := context.Background()
	got, _ := catalog.RecentMessages(ctx, e.db, conv.ID, 1000)
	if len(got) != msgs {
		t.Errorf("messages = %d after the copilot, want %d (it records nothing)", len(got), msgs)
	}
	cart, err := catalog.GetCart(ctx, e.db, catalog.PersonalCart(*conv.CustomerID))
	if err != nil || len(cart.Items) != 0 {
		t.Errorf("cart after the copilot: %v items, %v (it adds nothing)", cart.Items, err)
	}
}

// TestSuggestOffline: without a model the offline planner drafts the
// reply to the shopper's latest message (products written out as
// lines), a request to add to the cart adds nothing, nothing is stored;
// the summary is put together from the transcript.
func TestSuggestOffline(t *testing.T) {
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db)})
	if err != nil {
		t.Fatal(err)
	}
	e := &engineEnv{testEnv: env, eng: eng}
	ctx := context.Background()
	if _, err := eng.Suggest(ctx, 99999); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("unknown conversation: %v", err)
	}
	e.turn(t, "show me running shoes", "k1")
	conv := copilotConversation(t, e)
	if err := catalog.SetPaused(ctx, e.db, conv.ID, true); err != nil {
		t.Fatal(err)
	}
	e.turn(t, "backpacks please", "k2") // taken over: stored, not answered
	msgs, _ := catalog.RecentMessages(ctx, e.db, conv.ID, 1000)

	sg, err := eng.Suggest(ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sg.By != PlannerModel || !strings.Contains(strings.ToLower(sg.Text), "backpack") || !strings.Contains(sg.Text, " — ") {
		t.Errorf("suggestion by %q:\n%s\nwant the planner's answer about backpacks with product lines", sg.By, sg.Text)
	}
	unchanged(t, e, conv, len(msgs))

	lines, err := eng.Summarize(ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 || !strings.Contains(lines[0], `"show me running shoes", "backpacks please"`) ||
		!strings.HasPrefix(lines[1], "Shown: ") || !strings.Contains(lines[1], "Cart: empty.") || lines[2] != "Order: none yet." {
		t.Errorf("offline summary:\n%s", strings.Join(lines, "\n"))
	}
}

// TestSuggestWithModel: the model drafts the reply through the engine's
// loop — it sees the history and the shopper's latest message once —,
// an add_to_cart it asks for is refused and adds nothing; the summary is
// the model's three lines, or the offline one when the model fails.
func TestSuggestWithModel(t *testing.T) {
	e := newEngineEnv(t, llmtest.Reply("Hello! How can I help?"))
	ctx := context.Background()
	e.turn(t, "hi there", "k1")
	conv := copilotConversation(t, e)
	_ = catalog.SetPaused(ctx, e.db, conv.ID, true)
	e.turn(t, "put the cheapest tent in my cart", "k2")
	msgs, _ := catalog.RecentMessages(ctx, e.db, conv.ID, 1000)
	ps, _, err := catalog.ListProductPage(ctx, e.db, catalog.ProductList{Stock: catalog.StockIn, Limit: 1})
	if err != nil || len(ps) == 0 {
		t.Fatal("no product", err)
	}
	e.llm.Push(
		llmtest.Step{ToolCalls: []llmtest.ToolCall{{Name: "add_to_cart", Arguments: `{"sku":"` + ps[0].SKU + `"}`}}, Check: func(t testing.TB, r llmtest.Request) {
			n := 0
			for _, m := range r.Messages {
				if m.Content == "put the cheapest tent in my cart" {
					n++
				}
			}
			last := r.Messages[len(r.Messages)-1]
			if n != 1 || last.Content != "put the cheapest tent in my cart" || r.Messages[1].Content != "hi there" {
				t.Errorf("the model saw %+v", r.Messages)
			}
		}},
		llmtest.Step{Text: "I can add it for you.", Check: func(t testing.TB, r llmtest.Request) {
			last := r.Messages[len(r.Messages)-1]
			if last.Role != "tool" || !strings.Contains(last.Content, "error") {
				t.Errorf("the add_to_cart of a suggestion answered %q, want an error", last.Content)
			}
		}},
	)
	sg, err := e.eng.Suggest(ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sg.Text != "I can add it for you." || sg.By != "test-model" {
		t.Errorf("suggestion = %+v", sg)
	}
	unchanged(t, e, conv, len(msgs))

	e.llm.Push(llmtest.Reply("Asked for a tent.\nShown nothing.\nNo order.\nextra line"))
	lines, err := e.eng.Summarize(ctx, conv.ID)
	if err != nil || strings.Join(lines, "|") != "Asked for a tent.|Shown nothing.|No order." {
		t.Errorf("model summary = %q, %v", lines, err)
	}
	e.llm.Push(llmtest.Fail(500, "server_error"), llmtest.Fail(500, "server_error"))
	lines, err = e.eng.Summarize(ctx, conv.ID)
	if err != nil || len(lines) != 3 || !strings.HasPrefix(lines[0], `Asked: "hi there", "put the cheapest tent in my cart"`) {
		t.Errorf("summary when the model fails = %q, %v", lines, err)
	}
	unchanged(t, e, conv, len(msgs))
}
