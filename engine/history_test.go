package engine

import (
	"strings"
	"testing"

	"shopbot/catalog"
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
