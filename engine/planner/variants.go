package planner

import (
	"context"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/planner/intent"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/view"
)

// Variants in the offline planner: a message may name options ("the tee
// in navy", "size 42", «42 размера»). The words are read against the
// catalog's option vocabulary (intent.CutOptions over
// catalog.OptionVocab), only for a search or an add that could name one,
// and the rest of the message is parsed again without them; the options
// go to search_products and add_to_cart. An add that needs a choice
// answers with add_to_cart's picker.

// OptionVocab returns what the shop's variants are sold in (a
// catalog.OptionVocabCache's Get: read once, kept for a short time).
type OptionVocab func(ctx context.Context) (catalog.OptionVocab, error)

// WithOptionVocab lets the planner read option words against vocab.
func (p *Planner) WithOptionVocab(vocab OptionVocab) *Planner {
	p.vocab = vocab
	return p
}

// readOptions moves the option words of text into in.Options.
func (p *Planner) readOptions(ctx context.Context, s *session.Session, text string, in intent.Intent) (intent.Intent, error) {
	// A list command's words are product names ("olive oil" is no colour);
	// the options of the whole message would go to every item.
	// One product in focus and a few words: a bare value ("L please")
	// may be its option.
	one := s.State.Focus != "" && len(s.State.ShownCards) == 1
	bare := in.Kind != intent.IntentSearch || one && intent.Short(text)
	if p.vocab == nil || len(in.Items) > 0 || !intent.CouldNameOption(in.Kind, text) && !bare {
		return in, nil
	}
	v, err := p.vocab(ctx)
	if err != nil {
		return in, err
	}
	opts, rest := intent.CutOptions(text, v, bare)
	if opts == nil {
		return in, nil
	}
	again := intent.Parse(rest, s.Locale, s.State)
	l := s.State.Listing
	switch {
	case strings.TrimSpace(rest) == "" && s.State.Focus != "":
		// "in navy", "size 42" about the product in focus (a picker's
		// question): add it with that option, and nothing else.
		again = intent.Intent{Kind: intent.IntentAdd, Refs: []intent.Ref{{Focus: true}}, Topic: topicOptionsOnly}
	case in.Topic == intent.TopicNarrow || in.Topic == intent.TopicCheaper:
		return in, nil // "got it in green?": the list narrowed by its words
	case intent.OnlyPointing(rest) && !one && in.Kind == intent.IntentSearch && l != nil && l.Query != "":
		// "got them in 43?" after a list: the list again in that size.
		again = intent.Intent{Kind: intent.IntentSearch, Query: l.Query, MinPrice: l.MinPrice, MaxPrice: l.MaxPrice, Sort: l.Sort}
	case intent.OnlyPointing(rest) && one:
		// "do you have them in XL?" about the one product shown.
		again = intent.Intent{Kind: intent.IntentAdd, Refs: []intent.Ref{{Focus: true}}, Topic: topicOptionsOnly}
	case again.Kind == intent.IntentSearch || again.Kind == intent.IntentAdd || again.Kind == intent.IntentAddByName:
	case in.Kind == intent.IntentAdd && len(in.Refs) == 1 && in.Refs[0].Focus && s.State.Focus != "":
		again = in // "the yellow one in M": the product in focus with those options
	default:
		return in, nil // the option was all there was, with no product: search the words
	}
	again.Options, again.Lang = opts, in.Lang
	return again, nil
}

// topicOptionsOnly marks an add whose message named only options: a
// product without any is not added as it is.
const topicOptionsOnly = "options_only"

// preferVariants puts the products with variants first when options were
// named: "add the navy tee" means a tee sold in navy.
func (t *plannerTurn) preferVariants(cards []view.Card) []view.Card {
	if len(t.opts) == 0 {
		return cards
	}
	out := make([]view.Card, 0, len(cards))
	for _, c := range cards {
		if c.VariantCount > 0 {
			out = append(out, c)
		}
	}
	for _, c := range cards {
		if c.VariantCount == 0 {
			out = append(out, c)
		}
	}
	return out
}

// addCall runs add_to_cart with the turn's options; a product that has
// none (a bare word read as a value: "the black backpack") is added as
// it is.
func (t *plannerTurn) addCall(ctx context.Context, sku string, qty int) (toolkit.Result, error) {
	args := map[string]any{"sku": sku, "quantity": max(qty, 1)}
	opts := t.opts
	if len(opts) == 0 && t.fromList {
		// "running shoes in size 42", then "add the first one".
		opts = t.s.State.ListedOptions(sku)
	}
	if len(opts) == 0 {
		return t.call(ctx, "add_to_cart", args)
	}
	args["options"] = opts
	res, err := t.call(ctx, "add_to_cart", args)
	if tools.IsNoOptions(err) && (len(t.opts) == 0 || !t.optionsOnly) {
		delete(args, "options")
		return t.call(ctx, "add_to_cart", args)
	}
	return res, err
}

// pickData is add_to_cart's answer when it did not add.
type pickData struct {
	SKU    string            `json:"sku"`
	Title  string            `json:"title"`
	Choose string            `json:"choose"`
	Values []string          `json:"values"`
	Chosen map[string]string `json:"chosen"`
	Asked  map[string]string `json:"asked"`
	Label  string            `json:"variant"`
}

// pickView is what the pick and option_out templates read.
type pickView struct {
	Title, Option, Chosen, Asked string
	Values                       []string
	Notify                       bool
}

// variantAnswer words an add_to_cart result that asks for an option or
// says the variant is out of stock; false for a plain add.
func (t *plannerTurn) variantAnswer(res toolkit.Result) bool {
	out := tools.OutOfStock(res)
	if res.Picker == nil && !out {
		return false
	}
	d := dataAs[pickData](res)
	t.s.State.Focus = d.SKU
	if out {
		v := pickView{Title: d.Title, Asked: d.Label}
		if v.Asked == "" {
			v.Asked = catalog.OptionLabel(d.Asked, nil)
		}
		for _, b := range res.Buttons {
			if b.Action.Kind == view.ActNotify {
				v.Notify = true
				t.button("btn.notify", b.Action)
			}
		}
		t.say(rOptionOut, v)
	}
	if pk := res.Picker; pk != nil {
		var chosen []string
		for _, c := range pk.Chosen {
			chosen = append(chosen, c.Value)
		}
		t.say(rPick, pickView{Title: pk.Title, Option: tools.OptionNameIn(pk.Option, t.s.Lang()), Chosen: strings.Join(chosen, " / "), Values: pickValues(pk)})
	}
	return true
}

func pickValues(pk *view.Picker) []string {
	out := make([]string, len(pk.Values))
	for i, b := range pk.Values {
		out[i] = b.Label
	}
	return out
}
