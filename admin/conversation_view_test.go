package admin_test

import (
	"context"
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/catalog/team"
	"shopbot/engine"
)

// copilotPanel is a panel whose copilot is an engine without a model
// (the offline planner drafts).
func copilotPanel(t *testing.T) *panel {
	t.Helper()
	db := catalogtest.SQLite(t)
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), Registry: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	return newPanelConfig(t, db, func(c *admin.Config) { c.Copilot = eng })
}

// TestConversationView: the transcript reads as a conversation — the
// shopper's, the assistant's and staff bubbles, private notes apart,
// product cards as the tool result listed them (with the photo), the
// tools folded under the answer — beside the customer panel: identities
// on every channel, orders with status, what they spent, the cart, the
// other conversations.
func TestConversationView(t *testing.T) {
	p := copilotPanel(t)
	f := seed(t, p.db)
	ctx := context.Background()
	prod, err := catalog.GetProducts(ctx, p.db, []string{f.sku})
	if err != nil || len(prod) != 1 {
		t.Fatal(err)
	}
	_ = catalog.AppendMessages(ctx, p.db, f.conv.ID,
		&catalog.Message{Role: catalog.RoleUser, Content: "something else?"},
		&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{ID: "call_2", Name: "search_products", Arguments: `{"query":"x"}`}}, Model: "offline-planner"},
		&catalog.Message{Role: catalog.RoleTool, ToolCallID: "call_2", ToolName: "search_products", Content: `{"total":1,"products":[{"sku":"` + f.sku + `","title":"Then-title","price":"$1.23"}]}`},
		&catalog.Message{Role: catalog.RoleAssistant, Content: "Here is one.", Model: "offline-planner"})
	_ = team.AddMerchantReply(ctx, p.db, f.conv.ID, "admin", "A person here.")
	// The same person on Slack (same phone), and another chat of theirs.
	_ = catalog.SaveContact(ctx, p.db, f.customer.ID, catalog.Contact{Name: "Eve", Phone: "+1 555 0100"})
	other, _ := catalog.ResolveCustomer(ctx, p.db, catalog.Identity{Channel: "slack", PlatformUserID: "U777", DisplayName: "Eve S"})
	_ = catalog.SaveContact(ctx, p.db, other.ID, catalog.Contact{Phone: "+1 555 0100"})
	second, _ := catalog.OpenConversation(ctx, p.db, catalog.ConversationKey{Channel: "telegram", ChatID: "group-9"}, f.customer.ID)
	p.signIn()
	p.post("/admin/conversations/"+itoa(f.conv.ID)+"/notes", url.Values{"body": {"Private remark"}})
	_, body := p.get("/admin/conversations/" + itoa(f.conv.ID))
	for _, want := range []string{
		`<div class="msg user">`, `<div class="msg assistant">`, `<div class="msg merchant">`, `<div class="msg note">`,
		"<b>admin</b>", "A person here.", "Private note · admin", "Private remark",
		`<div class="ptitle">Then-title</div><div class="pprice">$1.23</div>`,
		`<img src="` + html.EscapeString(prod[0].ImageURLs[0]) + `"`,
		`<summary>1 tool call: search_products</summary>`,
		`id="shopper"`, "<b>slack</b> U777", "<b>telegram</b> 4242",
		`href="/admin/orders/` + f.order.Number + `"`, `<span class="badge new">new</span>`,
		"in 1 order</span>", `href="/admin/conversations/` + itoa(second.ID) + `"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the conversation view lacks %q", want)
		}
	}
	// Tools folded under the answer: one assistant bubble for the turn.
	side := body[strings.Index(body, `id="shopper"`):]
	if !strings.Contains(side, "Empty.") && !strings.Contains(side, " × ") {
		t.Error("the customer panel has no cart")
	}
	if n := strings.Count(body, `<div class="msg assistant">`); n != 2 {
		t.Errorf("%d assistant bubbles, want 2 (one per answered turn)", n)
	}
	if strings.Contains(body, `<div class="msg tool">`) {
		t.Error("a tool result shows as a bubble of its own")
	}
}

// TestCopilotInPanel: taking over writes the three-line summary as a
// private note; on the taken-over conversation "Suggest a reply" fills
// the reply box with the assistant's draft, and nothing is sent until
// the agent sends it.
func TestCopilotInPanel(t *testing.T) {
	p := copilotPanel(t)
	f := seed(t, p.db)
	p.signIn()
	_, body := p.get("/admin/conversations/" + itoa(f.conv.ID))
	if strings.Contains(body, `id="suggest"`) {
		t.Error("a suggestion is offered before the conversation is taken over")
	}
	p.post("/admin/conversations/"+itoa(f.conv.ID)+"/pause", nil)
	w, err := catalog.GetWorkflow(context.Background(), p.db, f.conv.ID)
	if err != nil || len(w.Notes) != 1 || w.Notes[0].Author != "copilot" || strings.Count(w.Notes[0].Body, "\n") != 3 ||
		!strings.Contains(w.Notes[0].Body, "Order: "+f.order.Number+" is new") {
		t.Fatalf("summary note after takeover: %+v, %v", w.Notes, err)
	}
	_ = catalog.AppendMessages(context.Background(), p.db, f.conv.ID, &catalog.Message{Role: catalog.RoleUser, Content: "do you have backpacks?"})
	_, body = p.get("/admin/conversations/" + itoa(f.conv.ID))
	if !strings.Contains(body, `id="suggest"`) || !strings.Contains(body, "Summary so far:") {
		t.Fatal("the taken-over conversation offers no suggestion or shows no summary")
	}
	_, body = p.get("/admin/conversations/" + itoa(f.conv.ID) + "?suggest=1")
	i := strings.Index(body, `<textarea name="text"`)
	if i < 0 || !strings.Contains(body, "Drafted by the offline assistant") {
		t.Fatalf("no draft: %s", flashOf(body))
	}
	draft := body[i : strings.Index(body[i:], "</textarea>")+i]
	if !strings.Contains(strings.ToLower(draft), "backpack") {
		t.Errorf("the draft is not about backpacks: %s", draft)
	}
	if n := len(p.notes.all()); n != 0 {
		t.Errorf("%d notices sent by a suggestion, want 0", n)
	}
}

// TestInboxCounts: the title's counts — unread, and needing a human
// until resolved.
func TestInboxCounts(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.signIn()
	if _, body := p.get("/admin/conversations/counts"); strings.TrimSpace(body) != `{"unread":1,"needs_human":1}` {
		t.Errorf("counts = %s", body)
	}
	p.get("/admin/conversations/" + itoa(f.conv.ID)) // read
	p.post("/admin/conversations/"+itoa(f.conv.ID)+"/status", url.Values{"status": {"resolved"}})
	if _, body := p.get("/admin/conversations/counts"); strings.TrimSpace(body) != `{"unread":0,"needs_human":0}` {
		t.Errorf("counts after reading and resolving = %s", body)
	}
}
