package checkout_test

import (
	"encoding/json"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools/checkout"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// The new tool's definition, as it goes over the wire, stays within 80
// tokens (o200k_base), the budget per tool.
func TestGetDeliveryOptionsSchemaTokens(t *testing.T) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := toolkit.NewToolbox(checkout.DeliveryOptionsTool(&checkout.Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	s := tb.Specs()[0]
	b, _ := json.Marshal(map[string]any{"type": "function", "function": map[string]any{
		"name": s.Name, "description": s.Description, "parameters": s.Parameters,
	}})
	n, err := enc.Count(string(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("get_delivery_options: %d tokens", n)
	if n > 80 {
		t.Errorf("get_delivery_options takes %d tokens, budget 80", n)
	}
}
