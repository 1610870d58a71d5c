package engine

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/view"
)

// pressPicker presses a button in an existing chat.
func pressPicker(t *testing.T, eng *Engine, chat, data string, n int) *events {
	t.Helper()
	a, err := view.ParseAction(data)
	if err != nil {
		t.Fatalf("ParseAction(%q): %v", data, err)
	}
	ev := &events{}
	turn := Turn{Channel: "web", ChatID: chat, UserID: chat, Locale: "en", Action: &a, DedupKey: chat + "-" + string(rune('a'+n))}
	if err := eng.Handle(context.Background(), turn, ev); err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	return ev
}

func pickerOf(ev *events) (*view.Picker, []string) {
	ps := ev.of(EventPicker)
	if len(ps) != 1 {
		return nil, nil
	}
	var data []string
	for _, b := range ps[0].Picker.Values {
		data = append(data, b.Label+"="+b.Data)
	}
	return ps[0].Picker, data
}

// chatCart is the cart lines of a web chat's shopper as "SKU×qty".
func chatCart(t *testing.T, db *bun.DB, chat string) []string {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "web", PlatformUserID: chat})
	if err != nil {
		t.Fatal(err)
	}
	cart, err := catalog.GetCart(ctx, db, catalog.PersonalCart(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range cart.Items {
		out = append(out, it.Product.SKU+"×"+string(rune('0'+it.Quantity)))
	}
	return out
}

// TestVariantPickerButtons walks a shopper through the picker by buttons:
// a parent's add button asks the colour, a colour asks the size (only
// sizes in stock), a size adds the variant; forged and stale option
// buttons answer politely and change nothing.
func TestVariantPickerButtons(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		newTestEnvOnDemo(t, db)
		catalogtest.SeedVariants(t, db)
		eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		const chat = "picker-1"
		n := 0
		press := func(data string) *events { n++; return pressPicker(t, eng, chat, data, n) }

		ev := press("add|TEE|1")
		pk, buttons := pickerOf(ev)
		if pk == nil || ev.done() != "Which colour?" || len(ev.of(EventCart)) != 0 {
			t.Fatalf("parent add: done %q events %+v", ev.done(), ev.all)
		}
		if want := []string{"Navy=opt|TEE|1|0", "Red=opt|TEE|1|1"}; !reflect.DeepEqual(buttons, want) {
			t.Errorf("colours = %v, want %v", buttons, want)
		}
		ev = press("opt|TEE|1|0")
		if _, buttons = pickerOf(ev); !reflect.DeepEqual(buttons, []string{"M=add|TEE-NAVY-M|1"}) || ev.done() != "Which size?" {
			t.Errorf("navy: sizes %v, done %q", buttons, ev.done())
		}
		ev = press("add|TEE-NAVY-M|1")
		if len(ev.of(EventCart)) != 1 || ev.done() != "Added to the cart." {
			t.Errorf("size: done %q events %+v", ev.done(), ev.all)
		}
		// A full choice through an option button adds too (a picker of a
		// later option, e.g. size chosen first).
		ev = press("opt|TEE|2|1.0")
		if ev.done() != "Added to the cart." {
			t.Errorf("red/M: done %q", ev.done())
		}
		want := []string{"TEE-NAVY-M×1", "TEE-RED-M×2"}
		if got := chatCart(t, db, chat); !reflect.DeepEqual(got, want) {
			t.Fatalf("cart = %v, want %v", got, want)
		}
		// Navy/L is out of stock: sorry, notify me, and the sizes there are.
		ev = press("opt|TEE|1|0.1")
		if _, buttons = pickerOf(ev); ev.done() != "Sorry, that isn't in stock right now." || !reflect.DeepEqual(buttons, []string{"M=add|TEE-NAVY-M|1"}) ||
			!reflect.DeepEqual(buttonsOf(ev), []string{"ntf|TEE-NAVY-L"}) {
			t.Errorf("navy/L: done %q, picker %v, buttons %v", ev.done(), buttons, buttonsOf(ev))
		}
		for data, say := range map[string]string{
			"opt|TEE|1|9":         "no longer available",
			"opt|TEE|1|0.0.0":     "no longer available",
			"opt|TEE|1|-1":        "no longer available",
			"opt|TEE|1|x":         "no longer available",
			"opt|TEE|1|0.9":       "no longer available",
			"opt|KIT-CKW-001|1|0": "no sizes or colours",
			"opt|TEE-NAVY-M|1|0":  "no sizes or colours",
			"opt|NO-SUCH|1|0":     "can't find that product",
			"opt||1|0":            "can't find that product",
			"opt|" + strings.Repeat("T", 200) + "|1|0": "can't find that product",
		} {
			ev := press(data)
			if !strings.Contains(ev.done(), say) || len(ev.of(EventCart)) != 0 || len(ev.of(EventPicker)) != 0 {
				t.Errorf("%.40s: done %q, events %+v", data, ev.done(), ev.all)
			}
		}
		if got := chatCart(t, db, chat); !reflect.DeepEqual(got, want) {
			t.Errorf("cart after forged buttons = %v, want %v", got, want)
		}
		// The press is recorded as an add_to_cart call with the options.
		conv, err := catalog.OpenConversation(context.Background(), db, catalog.ConversationKey{Channel: "web", ChatID: chat}, 0)
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := catalog.RecentMessages(context.Background(), db, conv.ID, 200)
		if err != nil {
			t.Fatal(err)
		}
		var calls []string
		for _, m := range msgs {
			for _, c := range m.ToolCalls {
				if c.Name == "add_to_cart" && strings.Contains(c.Arguments, "options") {
					calls = append(calls, c.Arguments)
				}
			}
		}
		if len(calls) == 0 || calls[0] != `{"options":{"colour":"Navy"},"quantity":1,"sku":"TEE"}` {
			t.Errorf("recorded option calls = %v", calls)
		}
	})
}

// TestOfflineOptionWords: with no model, the engine's planner reads option
// words against the catalog's vocabulary (wired in New): a named size
// adds that variant, a bare add of a parent shows the picker.
func TestOfflineOptionWords(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		newTestEnvOnDemo(t, db)
		catalogtest.SeedVariants(t, db)
		eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		say := func(text, key string) *events {
			ev := &events{}
			if err := eng.Handle(context.Background(), Turn{Channel: "web", ChatID: "words", UserID: "words", Locale: "en", Text: text, DedupKey: key}, ev); err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			return ev
		}
		ev := say("add trail runner", "w1")
		if pk, buttons := pickerOf(ev); pk == nil || !reflect.DeepEqual(buttons, []string{"42=add|TRAIL-42|1", "43=add|TRAIL-43|1"}) {
			t.Errorf("bare add: done %q, picker %v", ev.done(), buttons)
		}
		ev = say("add trail runner size 42", "w2")
		if !strings.Contains(ev.done(), "Trail Runner (42)") {
			t.Errorf("size 42: %q", ev.done())
		}
		if got := chatCart(t, db, "words"); !reflect.DeepEqual(got, []string{"TRAIL-42×1"}) {
			t.Errorf("cart = %v", got)
		}
		// A list filtered by a size, then "add the first one": that size.
		say("trail runner in size 43", "w3")
		if ev = say("add the first one", "w4"); !strings.Contains(ev.done(), "Trail Runner (43)") {
			t.Errorf("first of a size-43 list: %q", ev.done())
		}
	})
}
