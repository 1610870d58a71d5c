package intent

import (
	"slices"
	"testing"

	"shopbot/engine/session"
)

// TestConversationalTurns: follow-ups change one constraint of the last
// search (and a new product word is a new search), chatter and gift words
// are not searched for, order intent starts checkout, a yes is never a
// contact detail, list commands name every item, and "too" adds only
// right after an add.
func TestConversationalTurns(t *testing.T) {
	listed := func() *session.State {
		return &session.State{
			Shown:      []string{"A", "B"},
			ShownCards: []session.ShownCard{{SKU: "A", Title: "Parkside Canvas Sneakers", Brand: "Parkside", Price: 4999}, {SKU: "B", Title: "Halden Trainers", Brand: "Halden & Co", Price: 9500}},
			Listing:    &session.Listing{Kind: session.ListSearch, Query: "men sneakers", MaxPrice: 120},
		}
	}
	for _, tc := range []struct {
		msg   string
		st    *session.State
		kind  Kind
		query string
		topic string
		max   float64
	}{
		{"anything cheaper?", listed(), IntentSearch, "men sneakers", TopicCheaper, 120},
		{"а подешевле?", listed(), IntentSearch, "men sneakers", TopicCheaper, 120},
		{"got any in white?", listed(), IntentSearch, "men sneakers white", TopicNarrow, 120},
		{"а белые есть?", listed(), IntentSearch, "men sneakers white", TopicNarrow, 120},
		{"what about for women", listed(), IntentSearch, "sneakers women", TopicNarrow, 120},
		{"just the Parkside ones", listed(), IntentSearch, "men sneakers parkside", TopicNarrow, 120},
		{"hmm too pricey, something under 70?", listed(), IntentSearch, "men sneakers", "", 70},
		{"and a tent?", listed(), IntentSearch, "tent", "", 0},           // a new product: a new search
		{"anything cheaper?", &session.State{}, IntentSearch, "", "", 0}, // no list: nothing to narrow
		{"smth cheaper pls", listed(), IntentSearch, "men sneakers", TopicCheaper, 120},
		{"something less pricey", listed(), IntentSearch, "men sneakers", TopicCheaper, 120},
		{"sth under 100 bucks?", listed(), IntentSearch, "men sneakers", "", 100},
		{"um hi do u guys have yoga mats in stock??", nil, IntentSearch, "yoga mats", "", 0},
		{"gift for my 8 yr old nephew, he's into space, under 60", nil, IntentSearch, "space", "", 60},
		{"подарок сыну 6 лет, любит космос", nil, IntentSearch, "космос", "", 0},
		{"ok i wanna place an order", nil, IntentCheckout, "", "", 0},
		{"хочу оформить заказ", nil, IntentCheckout, "", "", 0},
		{"where is my order", nil, IntentOrders, "", "", 0},
		{"cancel my order", nil, IntentCancelOrder, "", "", 0},
		{"yes go ahead", &session.State{Checkout: &session.CheckoutState{Awaiting: "address"}}, IntentCheckout, "", "", 0},
		{"standard shipping", &session.State{Checkout: &session.CheckoutState{Awaiting: "address"}}, IntentCheckout, "", "", 0},
		{"and some granola bars too", &session.State{Pending: PendingAdded}, IntentAddByName, "granola bars", "", 0},
		{"and some granola bars too", &session.State{}, IntentSearch, "granola bars", "", 0},
	} {
		in := Parse(tc.msg, "", tc.st)
		if in.Kind != tc.kind || tc.query != "" && in.Query != tc.query || in.Topic != tc.topic || in.MaxPrice != tc.max {
			t.Errorf("%q: %s %q topic %q max %v; want %s %q topic %q max %v", tc.msg, in.Kind, in.Query, in.Topic, in.MaxPrice,
				tc.kind, tc.query, tc.topic, tc.max)
		}
	}
	in := Parse("put spaghetti, penne and olive oil in my cart", "", nil)
	if in.Kind != IntentAddByName || len(in.Items) != 3 || in.Items[2] != "olive oil" {
		t.Errorf("list command: %+v", in)
	}
	for msg, want := range map[string][]string{ // Russian «и» splits too (Go's \b is ASCII-only)
		"добавь в корзину молоко и хлеб":      {"молоко", "хлеб"},
		"положи в корзину гречку, рис и соль": {"гречку", "рис", "соль"},
	} {
		if in := Parse(msg, "ru", nil); in.Kind != IntentAddByName || !slices.Equal(in.Items, want) {
			t.Errorf("%q: items %q, want %q", msg, in.Items, want)
		}
	}
	if in := Parse("найди виноград", "ru", nil); len(in.Items) != 0 { // «и» inside a word splits nothing
		t.Errorf("найди виноград: %+v", in)
	}
	one := &session.State{Shown: []string{"J"}, ShownCards: []session.ShownCard{{SKU: "J"}}, Focus: "J",
		Listing: &session.Listing{Kind: session.ListSearch, Query: "rain jacket"}}
	if in := Parse("the yellow one please", "", one); in.Kind != IntentAdd || len(in.Refs) != 1 || !in.Refs[0].Focus {
		t.Errorf("the yellow one after one product: %+v", in)
	}
	one.ShownCards = append(one.ShownCards, session.ShownCard{SKU: "K"})
	if in := Parse("the yellow one please", "", one); in.Kind == IntentAdd {
		t.Errorf("the yellow one after a list narrows it: %+v", in)
	}
	if in := Parse("add the first and the third", "", &session.State{Shown: []string{"A", "B", "C"}}); len(in.Items) != 0 || len(in.Refs) != 2 {
		t.Errorf("ordinals are not a list of names: %+v", in)
	}
	st := &session.State{Shown: []string{"A"}, Focus: "A"}
	if in := Parse("I'll take three of those", "", st); in.Kind != IntentAdd || in.Qty != 3 {
		t.Errorf("three of those: %+v", in)
	}
	if in := Parse("Sam Reed, 415 555 0134, 1 Ferry Building, San Francisco CA 94111", "", &session.State{Checkout: &session.CheckoutState{Awaiting: "name"}}); in.Contact["address"] != "1 Ferry Building, San Francisco CA 94111" || in.Contact["name"] != "Sam Reed" {
		t.Errorf("contact: %+v", in.Contact)
	}
}
