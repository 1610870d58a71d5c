package tools

import (
	"context"
	"shopbot/engine/toolkit"
	"strings"
	"testing"
)

func TestSearchProducts(t *testing.T) {
	e := newTestEnv(t)
	res := e.call(t, "search_products", `{"query":"waterproof jacket","max_price":150}`)
	if len(res.Cards) < 2 {
		t.Fatalf("got %d cards", len(res.Cards))
	}
	for _, c := range res.Cards {
		if c.Price > 15000 || !c.InStock || c.Currency != "USD" {
			t.Errorf("card violates the query: %+v", c)
		}
	}
	if len(e.session.State.Shown) != len(res.Cards) {
		t.Errorf("shown = %v", e.session.State.Shown)
	}
	if msg, isErr := toolkit.ModelMessage(res, nil); isErr || !strings.Contains(msg, `"products"`) || strings.Contains(msg, "description") {
		t.Errorf("model data = %s", msg)
	}
}

// A price limit the model wrote into the query text instead of max_price
// still filters, and "under 100" is not matched as words (the test
// search backend wants every word).
func TestSearchProductsPriceInQueryText(t *testing.T) {
	e := newTestEnv(t)
	res := e.call(t, "search_products", `{"query":"backpack under 100"}`)
	if len(res.Cards) == 0 {
		t.Fatal("no cards")
	}
	for _, c := range res.Cards {
		if c.Price > 10000 {
			t.Errorf("card above the stated limit: %+v", c)
		}
	}
}

func TestToolArgumentsAreUntrusted(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ name, args, want string }{
		{"search_products", `{"query":"x","limit":50}`, "maximum"},
		{"search_products", `{"query":"x","customer_id":42}`, "additional"},
		{"search_products", `{"query":"x","sort":"cheapest"}`, "must be one of"},
		{"search_products", `{"query":` + `"` + strings.Repeat("a", 201) + `"}`, "maxLength"},
		{"search_products", `{"max_price":-5}`, "minimum"},
		{"search_products", `{"min_price":100,"max_price":10}`, "min_price is above max_price"},
		{"search_products", `{"query":`, "not valid JSON"},
		{"search_products", `[1,2]`, "object"},
		{"delete_everything", `{}`, "unknown tool"},
	} {
		_, err := e.tools.Call(context.Background(), e.session, tc.name, tc.args)
		msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err)
		if !isErr || !strings.Contains(msg, tc.want) {
			t.Errorf("%s(%s): %s, want an error mentioning %q", tc.name, tc.args, msg, tc.want)
		}
	}
}

func TestToolSchemasAreStrict(t *testing.T) {
	e := newTestEnv(t)
	for _, spec := range e.tools.Specs() {
		if spec.Parameters["additionalProperties"] != false {
			t.Errorf("%s: schema allows additional properties", spec.Name)
		}
		props, _ := spec.Parameters["properties"].(map[string]any)
		for name := range props {
			for _, banned := range []string{"user", "customer", "chat", "cart_id", "session"} {
				if strings.Contains(name, banned) {
					t.Errorf("%s: parameter %q carries identity", spec.Name, name)
				}
			}
		}
	}
}

// TestSearchProductsSuggestsCategories: a search that finds nothing says
// so in the shopper's language with the closest categories: those of
// what the words find without the filters, else the largest top-level
// ones.
func TestSearchProductsSuggestsCategories(t *testing.T) {
	e := newTestEnv(t)
	res := e.call(t, "search_products", `{"query":"waterproof jacket","max_price":0.01}`)
	msg, _ := toolkit.ModelMessage(res, nil)
	if len(res.Cards) != 0 || !strings.Contains(msg, `"suggested_categories":["Apparel > Jackets`) || !strings.Contains(msg, `Nothing matches \"waterproof jacket\". The closest categories: Apparel`) {
		t.Errorf("filtered out: %s", msg)
	}
	res = e.call(t, "search_products", `{"query":"zzqxw"}`)
	msg, _ = toolkit.ModelMessage(res, nil)
	if !strings.Contains(msg, `"suggested_categories":[`) || !strings.Contains(msg, "The closest categories: ") {
		t.Errorf("no word matches: %s", msg)
	}
	e.session.Locale = "ru"
	res = e.call(t, "search_products", `{"query":"zzqxw"}`)
	if msg, _ = toolkit.ModelMessage(res, nil); !strings.Contains(msg, "Ближайшие категории: ") {
		t.Errorf("in Russian: %s", msg)
	}
	if res = e.call(t, "search_products", `{"query":"waterproof jacket"}`); strings.Contains(mustMessage(res), "suggested_categories") {
		t.Error("categories suggested for a search that found products")
	}
}

func mustMessage(res toolkit.Result) string { msg, _ := toolkit.ModelMessage(res, nil); return msg }
