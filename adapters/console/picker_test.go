package console_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"shopbot/adapters/console"
	"shopbot/catalog"
	"shopbot/engine"
	"shopbot/engine/view"
)

// scripted answers every turn with the events its function gives.
type scripted struct {
	turns []engine.Turn
	reply func(t engine.Turn) []engine.Event
}

func (s *scripted) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	s.turns = append(s.turns, t)
	for _, ev := range s.reply(t) {
		if err := sink.Send(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}

func trailPicker() *view.Picker {
	return &view.Picker{
		SKU: "TR-1", Title: "Trail Runner", PriceText: "from $24.00",
		Chosen: []view.OptionValue{{Name: "size", Value: "42"}}, Option: "colour", Prompt: "Which colour?",
		Values: []view.Button{
			view.NewButton("Navy", view.Action{Kind: view.ActAdd, SKU: "TR-1-42-NAVY", Qty: 1}),
			view.NewButton("Red", view.Action{Kind: view.ActAdd, SKU: "TR-1-42-RED", Qty: 1}),
		},
	}
}

// TestPickerLines: a picker prints the product, the choice so far, the
// question and one /do line per value; typing a line back is the press,
// and cart and order lines name the variant.
func TestPickerLines(t *testing.T) {
	s := &scripted{reply: func(t engine.Turn) []engine.Event {
		if t.Action != nil && t.Action.Kind == view.ActAdd {
			return []engine.Event{
				{Kind: engine.EventCart, Cart: &view.CartView{Units: 1, TotalText: "$25.00", Lines: []view.CartLine{{SKU: "TR-1-42-NAVY", Title: "Trail Runner", Variant: "42 / Navy", Qty: 1, PriceText: "$25.00"}}}},
				{Kind: engine.EventOrder, Order: &view.OrderView{Number: "A-7", Status: "new", TotalText: "$25.00", Lines: []view.OrderLine{{SKU: "TR-1-42-NAVY", Title: "Trail Runner", Variant: "42 / Navy", Qty: 1}}}},
				{Kind: engine.EventDone, Text: "Added."},
			}
		}
		return []engine.Event{{Kind: engine.EventPicker, Picker: trailPicker()}, {Kind: engine.EventDone, Text: "Pick one."}}
	}}
	var out bytes.Buffer
	in := strings.NewReader("/do opt|TR-1|0|0\n/do add|TR-1-42-NAVY|1\n")
	if err := console.Run(context.Background(), s, in, &out, console.Options{User: "ann"}); err != nil {
		t.Fatal(err)
	}
	want := "Pick one.\nTR-1 · Trail Runner · from $24.00\n  chosen: size 42\n  Which colour?\n" +
		"  [Navy] /do add|TR-1-42-NAVY|1\n  [Red] /do add|TR-1-42-RED|1\n\n" +
		"Added.\ncart · 1 item(s) · $25.00\n  1 × Trail Runner (42 / Navy) (TR-1-42-NAVY) · $25.00\n" +
		"order A-7 · new · $25.00\n  1 × Trail Runner (42 / Navy)\n\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
	if len(s.turns) != 2 || s.turns[0].Action == nil || s.turns[0].Action.Kind != view.ActOption || s.turns[0].Action.Arg != "0" {
		t.Errorf("turns = %+v", s.turns)
	}
	if a := s.turns[1].Action; a == nil || a.Kind != view.ActAdd || a.SKU != "TR-1-42-NAVY" || a.Qty != 1 {
		t.Errorf("add turn = %+v", s.turns[1])
	}
}

// TestPickerHostileOption: whatever follows "opt|" goes to the engine,
// which validates it; the console only rejects what ParseAction rejects.
func TestPickerHostileOption(t *testing.T) {
	s := &scripted{reply: func(engine.Turn) []engine.Event {
		return []engine.Event{{Kind: engine.EventDone, Text: "That choice is gone."}}
	}}
	var out bytes.Buffer
	in := strings.NewReader("/do opt|NOPE|0|9.9.9.<b>\n/do opt|TR-1|x|0\n")
	if err := console.Run(context.Background(), s, in, &out, console.Options{}); err != nil {
		t.Fatal(err)
	}
	if len(s.turns) != 1 || s.turns[0].Action.SKU != "NOPE" || s.turns[0].Action.Arg != "9.9.9.<b>" {
		t.Errorf("turns = %+v", s.turns)
	}
	if !strings.Contains(out.String(), "! engine: bad quantity") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestParentCard: a parent's card line says it has variants.
func TestParentCard(t *testing.T) {
	s := &scripted{reply: func(engine.Turn) []engine.Event {
		return []engine.Event{{Kind: engine.EventCards, Cards: []view.Card{{SKU: "TR-1", Title: "Trail Runner", PriceText: "from $24.00", InStock: true, Stock: 9, VariantCount: 4, OptionNames: []string{"size", "colour"}}}}}
	}}
	var out bytes.Buffer
	if err := console.Run(context.Background(), s, strings.NewReader("runners\n"), &out, console.Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "TR-1 · Trail Runner · from $24.00 · in stock · 4 variants (size, colour)\n"; !strings.Contains(out.String(), want) {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestBackInStockNotice: a notice for this terminal prints before the
// next reply with its add line; one for another user or channel, or
// without its product, is refused.
func TestBackInStockNotice(t *testing.T) {
	ns := console.NewNotices("ann")
	where := catalog.ConversationKey{Channel: "console", ChatID: "ann"}
	card := &view.Card{SKU: "LAMP-1", Title: "Desk Lamp", PriceText: "$19.99", InStock: true}
	if err := ns.Notify(context.Background(), view.Notice{Kind: view.NoticeBackInStock, Where: where, Product: card}); err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]view.Notice{
		"other user":    {Kind: view.NoticeBackInStock, Where: catalog.ConversationKey{Channel: "console", ChatID: "bob"}, Product: card},
		"other channel": {Kind: view.NoticeBackInStock, Where: catalog.ConversationKey{Channel: "web", ChatID: "ann"}, Product: card},
		"no product":    {Kind: view.NoticeBackInStock, Where: where},
		"merchant kind": {Kind: view.NoticeOrderPlaced, Where: where},
	} {
		if err := ns.Notify(context.Background(), n); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	s := &scripted{reply: func(engine.Turn) []engine.Event { return []engine.Event{{Kind: engine.EventDone, Text: "Hi."}} }}
	var out bytes.Buffer
	if err := console.Run(context.Background(), s, strings.NewReader("hello\nagain\n"), &out, console.Options{User: "ann", Notices: ns}); err != nil {
		t.Fatal(err)
	}
	want := "🔔 back in stock: LAMP-1 · Desk Lamp · $19.99\n  [Add to cart] /do add|LAMP-1|1\n\nHi.\n\nHi.\n\n"
	if out.String() != want {
		t.Errorf("output:\n%q\nwant\n%q", out.String(), want)
	}
}
