package telegram

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-telegram/bot/models"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
	"shopbot/engine/view"
)

// pickerEngine answers like the engine's variant picker: a message asks
// for the size, a size press (opt) asks for the colour, a colour press
// (add of the variant) shows the cart. It records the actions it got.
type pickerEngine struct {
	image string
	mu    sync.Mutex
	acts  []view.Action
}

func (p *pickerEngine) actions() []view.Action {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]view.Action(nil), p.acts...)
}

func (p *pickerEngine) events(t engine.Turn) []engine.Event {
	base := view.Picker{SKU: "TR-1", Title: `Trail <Runner> & "Co"`, PriceText: "from $24.00", ImageURL: p.image}
	if t.Action == nil {
		pk := base
		pk.Option, pk.Prompt = "size", "Which size?"
		for i, s := range []string{"39", "40", "41", "42", "43", "44"} {
			pk.Values = append(pk.Values, view.NewButton(s, view.Action{Kind: view.ActOption, SKU: "TR-1", Arg: strconv.Itoa(i)}))
		}
		// A value whose callback data would pass 64 bytes is left out.
		pk.Values = append(pk.Values, view.NewButton("45", view.Action{Kind: view.ActOption, SKU: strings.Repeat("X", 60), Arg: "6"}))
		return []engine.Event{{Kind: engine.EventPicker, Picker: &pk}, {Kind: engine.EventDone}}
	}
	p.mu.Lock()
	p.acts = append(p.acts, *t.Action)
	p.mu.Unlock()
	switch t.Action.Kind {
	case view.ActOption:
		if t.Action.SKU != "TR-1" {
			return []engine.Event{{Kind: engine.EventText, Text: "That choice is no longer available."}, {Kind: engine.EventDone}}
		}
		pk := base
		pk.Chosen = []view.OptionValue{{Name: "size", Value: "42"}}
		pk.Option, pk.Prompt = "colour", "Which colour?"
		pk.Values = []view.Button{
			view.NewButton("Navy", view.Action{Kind: view.ActAdd, SKU: "TR-1-42-NAVY", Qty: 1}),
			view.NewButton("Red", view.Action{Kind: view.ActAdd, SKU: "TR-1-42-RED", Qty: 1}),
		}
		return []engine.Event{{Kind: engine.EventPicker, Picker: &pk}, {Kind: engine.EventDone}}
	case view.ActAdd:
		cart := &view.CartView{Units: 1, TotalText: "$25.00", Lines: []view.CartLine{
			{SKU: t.Action.SKU, Title: `Trail <Runner> & "Co"`, Variant: "42 / Navy", Qty: 1, PriceText: "$25.00"},
		}}
		return []engine.Event{{Kind: engine.EventCart, Cart: cart}, {Kind: engine.EventText, Text: "Added."}, {Kind: engine.EventDone, Text: "Added."}}
	}
	return []engine.Event{{Kind: engine.EventDone, Text: "?"}}
}

func (p *pickerEngine) rig(t *testing.T) *rig {
	return newRig(t, catalogtest.SQLiteDemo(t), func(c *Config) { c.Engine = scripted(p.events) })
}

// TestPickerEditsInPlace: the picker is one message with the values four
// to a row (data over 64 bytes left out); a size press edits that message
// into the colour question; the colour press edits it into
// "✓ Trail Runner — 42 / Navy" without buttons and the cart comes as
// usual, naming the variant.
func TestPickerEditsInPlace(t *testing.T) {
	p := &pickerEngine{}
	r := p.rig(t)
	ann := telegramtest.User(711, "Ann")
	r.waitHandled(r.srv.Push(telegramtest.Text(ann, "trail runner")))
	msgs := r.sent("711")
	if len(msgs) != 1 || msgs[0].Method != "sendMessage" {
		t.Fatalf("calls:\n%s", telegramtest.Dump(msgs))
	}
	pk := msgs[0]
	if want := "<b>Trail &lt;Runner&gt; &amp; &#34;Co&#34;</b> · from $24.00\nWhich size?"; pk.Text() != want {
		t.Errorf("picker text = %q, want %q", pk.Text(), want)
	}
	if _, err := telegramtest.ParseHTML(pk.Text()); err != nil {
		t.Error(err)
	}
	if got := pk.Params["reply_markup"]; !strings.Contains(got, `[[{"text":"39","callback_data":"opt|TR-1|0|0"},{"text":"40","callback_data":"opt|TR-1|0|1"},{"text":"41","callback_data":"opt|TR-1|0|2"},{"text":"42","callback_data":"opt|TR-1|0|3"}],[{"text":"43"`) ||
		strings.Contains(got, "XXXX") {
		t.Errorf("keyboard = %s", got)
	}

	r.waitHandled(r.srv.Push(r.srv.Press(ann, "711", pk.MessageID, "opt|TR-1|0|3")))
	msgs = r.sent("711")
	if len(msgs) != 2 || msgs[1].Method != "editMessageText" || msgs[1].Int("message_id") != int64(pk.MessageID) || msgs[1].Status != 200 {
		t.Fatalf("calls:\n%s", telegramtest.Dump(msgs))
	}
	if !strings.Contains(msgs[1].Text(), "size: <b>42</b>\nWhich colour?") || msgs[1].Buttons()["Navy"] != "add|TR-1-42-NAVY|1" {
		t.Errorf("colour step = %q %v", msgs[1].Text(), msgs[1].Buttons())
	}

	r.waitHandled(r.srv.Push(r.srv.Press(ann, "711", pk.MessageID, "add|TR-1-42-NAVY|1")))
	msgs = r.sent("711")
	if len(msgs) != 4 {
		t.Fatalf("calls:\n%s", telegramtest.Dump(msgs))
	}
	done, cart := msgs[2], msgs[3]
	if done.Method != "editMessageText" || done.Int("message_id") != int64(pk.MessageID) ||
		done.Text() != "✓ <b>Trail &lt;Runner&gt; &amp; &#34;Co&#34;</b> — 42 / Navy" || done.Params["reply_markup"] != "" {
		t.Errorf("picker closed as %s", telegramtest.Dump([]telegramtest.Call{done}))
	}
	if cart.Method != "sendMessage" || !strings.Contains(cart.Text(), "Trail &lt;Runner&gt; &amp; &#34;Co&#34; (42 / Navy) × 1") {
		t.Errorf("cart = %s", telegramtest.Dump([]telegramtest.Call{cart}))
	}
	if _, ok := cart.Buttons()[`Trail <Runner> & "Co" (42 / Navy) × 1`]; !ok {
		t.Errorf("cart buttons = %v", cart.Buttons())
	}
	acts := p.actions()
	if len(acts) != 2 || acts[0] != (view.Action{Kind: view.ActOption, SKU: "TR-1", Arg: "3"}) || acts[1] != (view.Action{Kind: view.ActAdd, SKU: "TR-1-42-NAVY", Qty: 1}) {
		t.Errorf("engine got %+v", acts)
	}
}

// TestPickerPhotoCaption: a picker with an image is a photo; its next
// step edits the caption (not the text, which a photo has none of), and
// the closing edit too.
func TestPickerPhotoCaption(t *testing.T) {
	p := &pickerEngine{image: "https://img.example.com/trail.jpg"}
	r := p.rig(t)
	bo := telegramtest.User(712, "Bo")
	r.waitHandled(r.srv.Push(telegramtest.Text(bo, "trail runner")))
	photos := r.srv.Calls("sendPhoto")
	if len(photos) != 1 || photos[0].Params["photo"] != p.image || !strings.Contains(photos[0].Params["caption"], "Which size?") {
		t.Fatalf("calls:\n%s", telegramtest.Dump(r.srv.Calls()))
	}
	id := photos[0].MessageID
	r.waitHandled(r.srv.Push(r.srv.Press(bo, "712", id, "opt|TR-1|0|3")))
	r.waitHandled(r.srv.Push(r.srv.Press(bo, "712", id, "add|TR-1-42-NAVY|1")))
	edits := r.srv.Calls("editMessageCaption")
	if len(edits) != 2 || edits[0].Status != 200 || edits[1].Status != 200 ||
		!strings.Contains(edits[0].Params["caption"], "Which colour?") || !strings.HasPrefix(edits[1].Params["caption"], "✓ ") {
		t.Errorf("caption edits:\n%s", telegramtest.Dump(r.srv.Calls()))
	}
	if n := len(r.srv.Calls("editMessageText")); n != 0 {
		t.Errorf("%d text edits of a photo", n)
	}
}

// TestPickerGoneMessage: when the pressed picker cannot be edited (it was
// deleted), the next step comes as a new message.
func TestPickerGoneMessage(t *testing.T) {
	p := &pickerEngine{}
	r := p.rig(t)
	cy := telegramtest.User(713, "Cy")
	r.waitHandled(r.srv.Push(r.srv.Press(cy, "713", 99, "opt|TR-1|0|3")))
	msgs := r.sent("713")
	if len(msgs) != 2 || msgs[0].Status != 400 || msgs[1].Method != "sendMessage" || !strings.Contains(msgs[1].Text(), "Which colour?") {
		t.Errorf("calls:\n%s", telegramtest.Dump(msgs))
	}
}

// TestPickerHostileCallback: callback data the adapter did not send
// still goes to the engine as parsed (the engine checks SKU and value
// indexes); nothing is edited for a press whose answer is no picker.
func TestPickerHostileCallback(t *testing.T) {
	p := &pickerEngine{}
	r := p.rig(t)
	di := telegramtest.User(714, "Di")
	r.waitHandled(r.srv.Push(telegramtest.Text(di, "trail runner")))
	id := r.sent("714")[0].MessageID
	r.waitHandled(r.srv.Push(r.srv.Press(di, "714", id, "opt|<b>x</b>|0|9.9.9")))
	r.waitHandled(r.srv.Push(r.srv.Press(di, "714", id, "opt|TR-1|zz|0"))) // refused by ParseAction, never a turn
	acts := p.actions()
	if len(acts) != 1 || acts[0].SKU != "<b>x</b>" || acts[0].Arg != "9.9.9" {
		t.Errorf("engine got %+v", acts)
	}
	for _, c := range r.sent("714")[1:] {
		if c.Method != "sendMessage" || !strings.Contains(c.Text(), "no longer available") {
			t.Errorf("unexpected: %s", telegramtest.Dump([]telegramtest.Call{c}))
		}
	}
}

// TestParentCardAndVariantLines: a parent's card keeps its Add to cart
// button (the engine answers it with the picker), and order lines name
// the variant.
func TestParentCardAndVariantLines(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), func(c *Config) {
		c.Engine = scripted(func(engine.Turn) []engine.Event {
			return []engine.Event{
				{Kind: engine.EventCards, Cards: []view.Card{{SKU: "TR-1", Title: "Trail Runner", PriceText: "from $24.00", InStock: true, Stock: 9, VariantCount: 4, OptionNames: []string{"size", "colour"}}}},
				{Kind: engine.EventOrder, Order: &view.OrderView{Number: "A-7", Status: "paid", TotalText: "$25.00", Lines: []view.OrderLine{{SKU: "TR-1-42-NAVY", Title: "Trail Runner", Variant: "42 / Navy", Qty: 1}}}},
				{Kind: engine.EventDone},
			}
		})
	})
	r.waitHandled(r.srv.Push(telegramtest.Text(telegramtest.User(715, "Ed"), "trail")))
	msgs := r.sent("715")
	if len(msgs) != 2 {
		t.Fatalf("calls:\n%s", telegramtest.Dump(msgs))
	}
	if b := msgs[0].Buttons(); b["🛒 Add to cart"] != "add|TR-1|1" || b["Details"] != "det|TR-1" {
		t.Errorf("parent card buttons = %v", b)
	}
	if !strings.Contains(msgs[1].Text(), "• Trail Runner (42 / Navy) × 1") {
		t.Errorf("order = %q", msgs[1].Text())
	}
}

// TestPickerMessage: only a keyboard of option choices and one-unit adds
// reads as a picker; a card (Details), a cart (− and +), bad data or no
// keyboard do not.
func TestPickerMessage(t *testing.T) {
	kb := func(data ...string) *models.Message {
		var row []models.InlineKeyboardButton
		for _, d := range data {
			row = append(row, models.InlineKeyboardButton{Text: d, CallbackData: d})
		}
		return &models.Message{ReplyMarkup: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{row}}}
	}
	for _, c := range []struct {
		m    *models.Message
		want bool
	}{
		{kb("opt|TR-1|0|0", "opt|TR-1|0|1"), true},
		{kb("add|TR-1-42-NAVY|1", "add|TR-1-42-RED|1"), true},
		{kb("add|TR-1|1", "det|TR-1", "sim|TR-1"), false},
		{kb("rm|TR-1", "det|TR-1", "set|TR-1|2"), false},
		{kb("add|TR-1|2"), false},
		{kb("nonsense"), false},
		{&models.Message{}, false},
		{nil, false},
	} {
		if got := pickerMessage(c.m); got != c.want {
			t.Errorf("pickerMessage(%+v) = %v", c.m, got)
		}
	}
}
