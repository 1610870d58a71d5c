package planner

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// newVariantChat is a planner chat on the demo shop with the variant
// fixtures of toolstest (a tee in colours and sizes, a trail shoe in
// sizes, a cap sold out) and the option vocabulary read from the
// catalog, as the engine wires it.
func newVariantChat(t *testing.T, locale string) *plannerChat {
	t.Helper()
	c := newPlannerChat(t, locale)
	catalogtest.SeedVariants(t, c.e.db)
	loads := 0
	c.p.WithOptionVocab(func(ctx context.Context) (catalog.OptionVocab, error) {
		loads++
		return catalog.LoadOptionVocab(ctx, c.e.db)
	})
	return c
}

// lastCall is the plan's last call as name+args.
func lastCall(p Plan) string {
	if len(p.Calls) == 0 {
		return ""
	}
	c := p.Calls[len(p.Calls)-1]
	return c.Name + c.Args
}

func cartOf(t *testing.T, c *plannerChat) []string {
	t.Helper()
	cart, err := catalog.GetCart(context.Background(), c.e.db, c.e.session.Scope)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range cart.Items {
		out = append(out, it.Product.SKU)
	}
	return out
}

func TestPlannerAddsVariantsByOptionWords(t *testing.T) {
	for _, tc := range []struct {
		locale string
		say    []string // earlier messages
		text   string
		call   string // the add_to_cart call
		reply  string
		sku    string // what the cart gains
	}{
		{"en", nil, "add the navy quokka tee in M", `add_to_cart{"options":{"color":"navy","size":"M"},"quantity":1,"sku":"TEE"}`, "Quokka Tee (Navy / M)", "TEE-NAVY-M"},
		{"en", nil, "add trail runner size 42", `add_to_cart{"options":{"size":"42"},"quantity":1,"sku":"TRAIL"}`, "1 × Trail Runner (42)", "TRAIL-42"},
		{"en", nil, "add 2 trail runners in size 42", `add_to_cart{"options":{"size":"42"},"quantity":2,"sku":"TRAIL"}`, "2 × Trail Runner (42)", "TRAIL-42"},
		{"ru", nil, "добавь trail runner 42 размера", `add_to_cart{"options":{"size":"42"},"quantity":1,"sku":"TRAIL"}`, "Trail Runner (42) × 1", "TRAIL-42"},
		{"en", []string{"quokka tee", "tell me more about the first one"}, "I'll take it in red, size M", `add_to_cart{"options":{"color":"red","size":"M"},"quantity":1,"sku":"TEE"}`, "Quokka Tee (Red / M)", "TEE-RED-M"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			c := newVariantChat(t, tc.locale)
			for _, s := range tc.say {
				c.say(t, s)
			}
			p := c.say(t, tc.text)
			if got := lastCall(p); got != tc.call {
				t.Errorf("call %s, want %s", got, tc.call)
			}
			if !strings.Contains(p.Text, tc.reply) {
				t.Errorf("reply %q, want %q in it", p.Text, tc.reply)
			}
			if got := cartOf(t, c); len(got) != 1 || got[0] != tc.sku {
				t.Errorf("cart %v, want %s", got, tc.sku)
			}
		})
	}
}

func TestPlannerAsksWhichOption(t *testing.T) {
	c := newVariantChat(t, "en")
	c.say(t, "quokka tee")
	p := c.say(t, "add the first")
	if !strings.Contains(p.Text, "Which colour of Quokka Tee? In stock: Navy, Red.") || pickerIn(p) == nil {
		t.Fatalf("bare add: %q, picker %v", p.Text, pickerIn(p))
	}
	// A bare add by name asks too.
	if p := c.say(t, "add the quokka tee"); !strings.Contains(p.Text, "Which colour of Quokka Tee?") {
		t.Errorf("add by name: %q", p.Text)
	}
	// "in navy" after the picker: the next option, sizes in stock only.
	p = c.say(t, "I'll take it in navy")
	if !strings.Contains(p.Text, "Which size of Quokka Tee (Navy)? In stock: M.") {
		t.Errorf("navy: %q (calls %s)", p.Text, planCallNames(p))
	}
	// Navy in L is out of stock: said, with the notify offer and what is in stock.
	p = c.say(t, "add it in navy, size L")
	if !strings.Contains(p.Text, "Sorry, Quokka Tee in Navy / L is not in stock right now. I can message you when it is back.") ||
		!strings.Contains(p.Text, "In stock: M.") || len(p.Buttons) == 0 || p.Buttons[0].Data != "ntf|TEE-NAVY-L" {
		t.Errorf("navy L: %q, buttons %+v", p.Text, p.Buttons)
	}
	if got := cartOf(t, c); len(got) != 0 {
		t.Errorf("cart %v, want empty", got)
	}
	// A plain product with a word that is a colour elsewhere is added as
	// it is; an option alone about it is refused.
	c.say(t, "headphones")
	first := c.e.session.State.Shown[0]
	c.say(t, "add the first in red")
	if got := cartOf(t, c); len(got) != 1 || got[0] != first {
		t.Errorf("plain product with a colour word: cart %v", got)
	}
	p = c.say(t, "in navy")
	if !strings.Contains(p.Text, "has no options") {
		t.Errorf("option alone about a plain product: %q", p.Text)
	}
	if got := cartOf(t, c); len(got) != 1 {
		t.Errorf("cart %v after an option alone", got)
	}
}

func pickerIn(p Plan) any {
	for _, r := range p.Results {
		if r.Picker != nil {
			return r.Picker
		}
	}
	return nil
}

func TestPlannerSearchesWithOptions(t *testing.T) {
	for _, tc := range []struct{ locale, text, args string }{
		{"en", "show running shoes in size 42", `{"query":"running shoes","limit":5,"options":{"size":"42"}}`},
		{"ru", "футболки размер M", `{"query":"футболки","limit":5,"options":{"size":"M"}}`},
		{"en", "cotton tee in navy", `{"query":"cotton tee","limit":5,"options":{"color":"navy"}}`},
		{"en", "red running shoes", `{"query":"red running shoes","limit":5}`}, // a bare colour in a search stays a word
	} {
		c := newVariantChat(t, tc.locale)
		p := c.say(t, tc.text)
		if len(p.Calls) == 0 || p.Calls[0].Name != "search_products" || p.Calls[0].Args != tc.args {
			t.Errorf("%q: calls %s, want search_products%s", tc.text, planCallNames(p), tc.args)
		}
	}
}

// TestPlannerOrderKeepsOptions: a variant added by words goes through
// checkout, and the order line keeps its options.
func TestPlannerOrderKeepsOptions(t *testing.T) {
	c := newVariantChat(t, "en")
	c.say(t, "add trail runner size 42")
	for _, s := range []string{"checkout", "Ann Smith", "+1 555 0100", "1 Main St, Springfield", "yes"} {
		c.say(t, s)
	}
	os, err := catalog.ListCustomerOrders(context.Background(), c.e.db, c.e.session.Customer.ID, 5)
	if err != nil || len(os) != 1 {
		t.Fatalf("orders %d, %v", len(os), err)
	}
	o, err := catalog.GetOrder(context.Background(), c.e.db, os[0].Number)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Items) != 1 || o.Items[0].SKU != "TRAIL-42" || o.Items[0].Options["size"] != "42" {
		t.Errorf("order items %+v", o.Items)
	}
}

// TestPlannerRussianFromPrice: a parent's lowest price reads «от» in a
// Russian list, "from" in an English one.
func TestPlannerRussianFromPrice(t *testing.T) {
	for text, want := range map[string]string{"покажи quokka tee": "Quokka Tee — от $24.00", "show quokka tee": "Quokka Tee — from $24.00"} {
		c := newVariantChat(t, "en")
		if p := c.say(t, text); !strings.Contains(p.Text, want) {
			t.Errorf("%s: %q, want %q in it", text, p.Text, want)
		}
	}
}
