package engine

import (
	"encoding/json"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// TestToolSchemasFitTheTokenBudget counts the tool definitions as they go
// over the wire (name, description, JSON schema) with gpt-4o-mini's
// tokenizer (o200k_base, embedded, offline). Budget: 1,700 tokens, with
// the variant options of add_to_cart and search_products and the paging
// offsets, plus 80 for the after-sale tools of issue 30 (cancel_order
// takes about 60), plus 360 for the rest of them: change_order_address
// (75), change_order_items (129) and request_return (145), whose lines
// are strict {sku, qty} objects (additionalProperties false, bounds) —
// the price of the model changing orders without free-form arguments.
func TestToolSchemasFitTheTokenBudget(t *testing.T) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	var wire []map[string]any
	for _, s := range e.tools.Specs() {
		wire = append(wire, map[string]any{"type": "function", "function": map[string]any{
			"name": s.Name, "description": s.Description, "parameters": s.Parameters,
		}})
	}
	b, err := json.Marshal(wire)
	if err != nil {
		t.Fatal(err)
	}
	n, err := enc.Count(string(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tools, %d bytes, %d tokens (o200k_base)", len(wire), len(b), n)
	if n > 2140 {
		t.Errorf("tool schemas take %d tokens, budget 2140", n)
	}
}
