package engine

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/llmtest"
)

func TestHistoryWindow(t *testing.T) {
	call := func(id string) []catalog.ToolCall {
		return []catalog.ToolCall{{ID: id, Name: "view_cart", Arguments: "{}"}}
	}
	past := []catalog.Message{
		{Role: catalog.RoleTool, ToolCallID: "c0", Content: "{}"}, // cut off from its call by the window
		{Role: catalog.RoleAssistant, Content: "earlier answer"},
		{Role: catalog.RoleUser, Content: "first"},
		{Role: catalog.RoleAssistant, ToolCalls: call("c1")},
		{Role: catalog.RoleTool, ToolCallID: "c1", Content: "{}"},
		{Role: catalog.RoleAssistant, Content: "one"},
		{Role: catalog.RoleUser, Content: "second"},
		{Role: catalog.RoleAssistant, ToolCalls: call("c2")}, // its result was never stored
		{Role: catalog.RoleMerchant, Content: "Hi, Maria from the shop here"},
		{Role: catalog.RoleUser, Content: "third"},
	}
	got := window(past, 10_000)
	var b strings.Builder
	for _, m := range got {
		b.WriteString(string(m.Role) + ":" + m.Content)
		if len(m.ToolCalls) > 0 {
			b.WriteString("(" + m.ToolCalls[0].ID + ")")
		}
		b.WriteString(" ")
	}
	want := "user:first assistant:(c1) tool:{} assistant:one user:second assistant:[a shop employee wrote] Hi, Maria from the shop here user:third "
	if b.String() != want {
		t.Errorf("window =\n%s\nwant\n%s", b.String(), want)
	}

	// A tight budget drops whole turns from the front.
	small := window(past, 12)
	if len(small) == 0 || small[0].Role != catalog.RoleUser || small[len(small)-1].Content != "third" {
		t.Errorf("budgeted window = %+v", small)
	}
	if estimateTokens(small) > 12 && len(small) > 1 {
		t.Errorf("budgeted window has %d tokens", estimateTokens(small))
	}
}

// The engine keeps recent history in memory between turns, but a message
// written elsewhere (a merchant's reply from the admin panel, another
// replica's turn) reaches the model on the next turn all the same.
func TestHistoryCacheSeesMessagesWrittenElsewhere(t *testing.T) {
	e := newEngineEnv(t, llmtest.Reply("Hello!"), llmtest.Reply("Sure."), llmtest.Reply("Of course."))
	e.turn(t, "hi", "h1")
	e.turn(t, "do you ship to Riga?", "h2")
	if !historyHas(e.llm.Requests()[1], "hi") {
		t.Fatal("the second request lacks the first turn")
	}
	merchant := &catalog.Message{Role: catalog.RoleMerchant, Content: "We ship to Riga in 3 days."}
	if err := catalog.AppendMessages(context.Background(), e.db, e.session.Conversation.ID, merchant); err != nil {
		t.Fatal(err)
	}
	e.turn(t, "great, thanks", "h3")
	last := e.llm.Requests()[2]
	if !historyHas(last, "We ship to Riga in 3 days.") || !historyHas(last, "do you ship to Riga?") {
		t.Errorf("third request messages %+v: want the merchant's reply and the earlier turns", last.Messages)
	}
}

func historyHas(r llmtest.Request, text string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Content, text) {
			return true
		}
	}
	return false
}
