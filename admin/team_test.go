package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
)

// TestConversationTeamWorkflow drives the workflow through the panel: an
// agent assigns the conversation to themselves (it shows under "mine"),
// labels it, adds a private note that reaches no shopper on any channel,
// answers with a canned reply filled with the shopper's name, last order
// and cart, and resolves it; the shopper's next message reopens it.
func TestConversationTeamWorkflow(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		f := seed(t, db)
		ctx := context.Background()
		p.signIn()
		if code, _, _ := p.post("/admin/canned", url.Values{"shortcut": {"/status"}, "body": {"Hi {name}, order {order} is packed; your cart: {cart}."}}); code != http.StatusSeeOther {
			t.Fatalf("save canned = %d", code)
		}
		agent := roleClient(t, p, "ann", team.StaffAgent)
		conv := "/admin/conversations/" + itoa(f.conv.ID)
		for _, step := range []struct {
			path string
			form url.Values
		}{
			{conv + "/assign", url.Values{"assignee": {"me"}}},
			{conv + "/labels", url.Values{"label": {"VIP"}}},
			{conv + "/notes", url.Values{"body": {"PRIVATE: asked for a discount twice"}}},
		} {
			if code, _, body := agent.post(step.path, step.form); code != http.StatusSeeOther {
				t.Fatalf("%s = %d\n%.500s", step.path, code, body)
			}
		}
		if _, page := agent.get("/admin/conversations?view=mine"); !strings.Contains(page, conv+`"`) {
			t.Error("the assigned conversation is not in the agent's view")
		}
		if _, page := p.get("/admin/conversations?view=mine"); strings.Contains(page, conv+`"`) {
			t.Error("the agent's conversation shows under the owner's \"mine\"")
		}
		if _, page := agent.get(conv); !strings.Contains(page, "PRIVATE: asked for a discount twice") || !strings.Contains(page, ">vip<") {
			t.Error("the transcript does not show the note and the label")
		}
		if code, _, _ := agent.post(conv+"/reply", url.Values{"text": {"/nosuch"}}); code != http.StatusBadRequest {
			t.Errorf("unknown shortcut = %d, want 400", code)
		}
		if code, _, _ := agent.post(conv+"/reply", url.Values{"text": {"/status Thanks!"}}); code != http.StatusSeeOther {
			t.Fatalf("canned reply = %d", code)
		}
		notes := p.notes.all()
		if len(notes) != 1 {
			t.Fatalf("notices to the shopper = %d, want 1 (the reply; never the note or the refused shortcut)", len(notes))
		}
		want := "order " + f.order.Number + " is packed"
		if got := notes[0].Text; !strings.Contains(got, "Hi Eve") || !strings.Contains(got, want) || !strings.HasSuffix(got, "Thanks!") || strings.Contains(got, "{") {
			t.Errorf("canned reply sent as %q", got)
		}
		for _, n := range notes {
			if strings.Contains(n.Text, "PRIVATE") {
				t.Errorf("a private note reached the shopper: %q", n.Text)
			}
		}
		ms, _ := catalog.RecentMessages(ctx, db, f.conv.ID, 100)
		for _, m := range ms {
			if strings.Contains(m.Content, "PRIVATE") {
				t.Errorf("a private note is in the messages the model and channels read: %+v", m)
			}
		}
		if code, _, _ := agent.post(conv+"/status", url.Values{"status": {"snoozed"}, "until": {"yesterday"}}); code != http.StatusBadRequest {
			t.Errorf("snooze without a time = %d, want 400", code)
		}
		if code, _, _ := agent.post(conv+"/status", url.Values{"status": {"resolved"}}); code != http.StatusSeeOther {
			t.Fatalf("resolve = %d", code)
		}
		if _, page := agent.get("/admin/conversations?status=resolved"); !strings.Contains(page, conv+`"`) {
			t.Error("the resolved conversation is not listed as resolved")
		}
		if err := catalog.AppendMessages(ctx, db, f.conv.ID, &catalog.Message{Role: catalog.RoleUser, Content: "one more question"}); err != nil {
			t.Fatal(err)
		}
		if w, _ := catalog.GetWorkflow(ctx, db, f.conv.ID); w.Status != catalog.ConvOpen {
			t.Errorf("after the shopper wrote again: %s, want open", w.Status)
		}
		es, _ := catalog.ListAudit(ctx, db, catalog.AuditFilter{Action: "conversation."})
		if len(es) != 3 { // assign, label, status
			t.Errorf("conversation audit entries = %d, want 3: %+v", len(es), es)
		}
	})
}
