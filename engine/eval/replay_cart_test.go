package eval

import (
	"reflect"
	"testing"

	"shopbot/catalog"
)

// TestApplyCartReadsWhatWasAdded: the cart before a replayed turn is
// rebuilt from what add_to_cart reported adding — a variant chosen by
// options, nothing when it asked which variant — not from its arguments.
func TestApplyCartReadsWhatWasAdded(t *testing.T) {
	ms := []catalog.Message{
		{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{
			{ID: "a", Name: "add_to_cart", Arguments: `{"sku":"SHOE"}`},
			{ID: "b", Name: "add_to_cart", Arguments: `{"sku":"SHOE","options":{"size":"42"},"quantity":2}`},
			{ID: "c", Name: "add_to_cart", Arguments: `{"sku":"MUG"}`},
		}},
		{Role: catalog.RoleTool, ToolCallID: "a", Content: `{"sku":"SHOE","choose":"size","values":["41","42"]}`},
		{Role: catalog.RoleTool, ToolCallID: "b", Content: `{"added":{"sku":"SHOE-42","qty":2},"cart":{}}`},
		{Role: catalog.RoleTool, ToolCallID: "c", Content: `{"added":{"sku":"MUG","qty":1},"cart":{}}`},
	}
	got := applyCart(map[string]int{"MUG": 1}, ms)
	if want := map[string]int{"SHOE-42": 2, "MUG": 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("cart = %v, want %v", got, want)
	}
}
