package admin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/view"
)

// TestTakeoverAndReply: take over, reply (stored as a merchant message and
// delivered through the notifier), hand back (flag cleared).
func TestTakeoverAndReply(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.signIn()
	ctx := context.Background()
	base := "/admin/conversations/" + itoa(f.conv.ID)

	if code, _, _ := p.post(base+"/pause", nil); code != http.StatusSeeOther {
		t.Fatalf("pause = %d", code)
	}
	if c, _ := catalog.GetConversation(ctx, p.db, f.conv.ID); !c.Paused {
		t.Fatal("not paused")
	}
	reply := "Hi Eve, we can order unobtainium boots for you. <b>Really</b>."
	if code, _, _ := p.post(base+"/reply", url.Values{"text": {reply}}); code != http.StatusSeeOther {
		t.Fatalf("reply = %d", code)
	}
	msgs, _ := catalog.RecentMessages(ctx, p.db, f.conv.ID, 10)
	last := msgs[len(msgs)-1]
	if last.Role != catalog.RoleMerchant || last.Content != reply || last.Model != "staff:admin" {
		t.Errorf("last message %+v", last)
	}
	notes := p.notes.all()
	if len(notes) != 1 || notes[0].Kind != view.NoticeMerchantReply || notes[0].Text != reply ||
		notes[0].Where != f.conv.Key() || notes[0].ConversationID != f.conv.ID {
		t.Fatalf("notices %+v", notes)
	}
	_, body := p.get(base)
	if !strings.Contains(body, "Hand back to the bot") || !strings.Contains(body, "&lt;b&gt;Really&lt;/b&gt;") {
		t.Error("transcript lacks the reply or the hand-back button")
	}
	for name, text := range map[string]string{"empty": "  ", "too long": strings.Repeat("x", 4001)} {
		if code, _, _ := p.post(base+"/reply", url.Values{"text": {text}}); code != http.StatusBadRequest {
			t.Errorf("%s reply = %d", name, code)
		}
	}
	if len(p.notes.all()) != 1 {
		t.Error("a refused reply was sent")
	}
	if code, _, _ := p.post(base+"/resume", nil); code != http.StatusSeeOther {
		t.Fatalf("resume = %d", code)
	}
	if c, _ := catalog.GetConversation(ctx, p.db, f.conv.ID); c.Paused || c.NeedsHuman {
		t.Errorf("after hand-back: paused %v, needs human %v", c.Paused, c.NeedsHuman)
	}
	if code, _, _ := p.post("/admin/conversations/99999/pause", nil); code != http.StatusNotFound {
		t.Errorf("pause unknown = %d", code)
	}
}

// TestReplyToAChannelWithoutAdapter: saved, paused, and the merchant is
// told it was not delivered.
func TestReplyWithoutNotifier(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.notes.err = context.DeadlineExceeded
	p.signIn()
	p.post("/admin/conversations/"+itoa(f.conv.ID)+"/reply", url.Values{"text": {"hello"}})
	_, body := p.get("/admin/conversations/" + itoa(f.conv.ID))
	if want := "Reply saved, but not delivered: Telegram did not answer in time; they did not get your reply, as far as we know."; !strings.Contains(body, want) {
		t.Errorf("undelivered reply not reported as %q: %s", want, flashOf(body))
	}
}

func TestTranscriptShowsToolCallsTokensAndCost(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.signIn()
	_, body := p.get("/admin/conversations/" + itoa(f.conv.ID))
	for _, want := range []string{
		"<details>", "search_products", "unobtainium boots", `&#34;total&#34;: 0`, // call and result
		"1200+30 tokens", "850 ms", "gpt-4o-mini", "2550</b><span>model tokens", "$0.0004", // 2550 tokens at 4o-mini prices
	} {
		if !strings.Contains(body, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	// Reading marks it read.
	_, inbox := p.get("/admin/conversations?show=unread")
	if strings.Contains(inbox, "/admin/conversations/"+itoa(f.conv.ID)+`"`) {
		t.Error("the conversation is still unread after opening it")
	}
}

func TestInboxSearchAndFilters(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		f := seed(t, db)
		ctx := context.Background()
		other, _ := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "webchat-000000001"}, 0)
		catalog.AppendMessages(ctx, db, other.ID, &catalog.Message{Role: catalog.RoleUser, Content: "Do you sell kayaks?"})
		p.signIn()
		link := func(c *catalog.Conversation) string { return `href="/admin/conversations/` + itoa(c.ID) + `"` }
		for q, want := range map[string][2]bool{
			"":                          {true, true},
			"q=EVE":                     {true, false}, // customer name, any case
			"q=kayak":                   {false, true}, // message text
			"q=4242":                    {true, false}, // chat id
			"q=zzz":                     {false, false},
			"show=human":                {true, false},
			"channel=web":               {false, true},
			"show=paused":               {false, false},
			"q=" + url.QueryEscape("%"): {false, false},
		} {
			_, body := p.get("/admin/conversations?" + q)
			if strings.Contains(body, link(f.conv)) != want[0] || strings.Contains(body, link(other)) != want[1] {
				t.Errorf("?%s: eve %v kayak %v, want %v", q, strings.Contains(body, link(f.conv)), strings.Contains(body, link(other)), want)
			}
		}
		_, body := p.get("/admin/conversations")
		if !strings.Contains(body, "Do you sell kayaks?") || !strings.Contains(body, "Bot: </span>Nothing found") {
			t.Error("the inbox lacks last-message previews")
		}
	})
}

func TestPlaygroundTrace(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	ctx := context.Background()
	conv, _ := catalog.OpenConversation(ctx, p.db, catalog.ConversationKey{Channel: "web", ChatID: "pg-0123456789abcdef"}, 0)
	catalog.AppendMessages(ctx, p.db, conv.ID,
		&catalog.Message{Role: catalog.RoleUser, Content: "old"},
		&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{ID: "a", Name: "view_cart", Arguments: "{}"}}},
		&catalog.Message{Role: catalog.RoleUser, Content: "boots"},
		&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{ID: "b", Name: "search_products", Arguments: `{"query":"boots"}`}}, Model: "offline-planner"},
		&catalog.Message{Role: catalog.RoleTool, ToolCallID: "b", ToolName: "search_products", Content: `{"total":3}`},
	)
	p.signIn()
	code, body := p.get("/admin/playground/trace?session=pg-0123456789abcdef")
	var tr struct {
		Model string
		Calls []struct{ Name, Arguments, Result string }
	}
	if err := json.Unmarshal([]byte(body), &tr); err != nil || code != 200 {
		t.Fatalf("%d %s %v", code, body, err)
	}
	if len(tr.Calls) != 1 || tr.Calls[0].Name != "search_products" || !strings.Contains(tr.Calls[0].Result, `"total": 3`) || tr.Model != "offline-planner" {
		t.Errorf("trace %+v: want only the last turn's search", tr)
	}
	if code, _ := p.get("/admin/playground/trace?session=x"); code != http.StatusBadRequest {
		t.Errorf("bad session = %d", code)
	}
}
