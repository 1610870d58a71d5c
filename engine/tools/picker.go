package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// add_to_cart on a product with variants: options that pick one variant
// in stock add it; otherwise the result is a view.Picker for the next
// option not chosen yet, offering only values with an active variant in
// stock given the choices so far (variants.go has the family and the
// button encoding).

// addOptions adds the variant of a.SKU that a.Options pick, or asks for
// the next option. a.SKU may be a parent, or a variant whose options the
// given ones change ("it in navy").
func (d *Deps) addOptions(ctx context.Context, s *session.Session, a addToCartArgs) (Result, error) {
	p, err := d.products().Product(ctx, a.SKU)
	if err != nil {
		return Result{}, cartChangeError(ctx, d, s, a.SKU, err)
	}
	var own *catalog.Product // the variant named, when a.SKU is one
	if p.IsVariant() {
		own = p
		if p, err = d.products().ProductByID(ctx, *p.ParentID); err != nil {
			return Result{}, err
		}
	}
	if !p.Active {
		return Result{}, Errorf("%s (%s) is no longer sold", p.Title, p.SKU)
	}
	if !p.HasVariants() {
		return Result{}, &ToolError{Msg: fmt.Sprintf("%s (%s) has no options to choose; call add_to_cart without options", p.Title, p.SKU), noOptions: true}
	}
	f, err := loadFamily(ctx, d, p)
	if err != nil {
		return Result{}, err
	}
	choice := f.noChoice()
	if own != nil {
		f.choose(choice, own)
	}
	if err := f.resolve(choice, a.Options); err != nil {
		return Result{}, err
	}
	return d.pick(ctx, s, f, choice, a.Quantity)
}

// pick adds the chosen variant when the choice is complete and it is in
// stock, and otherwise asks for the next option.
func (d *Deps) pick(ctx context.Context, s *session.Session, f *family, choice []int, qty int) (Result, error) {
	if v := f.exact(choice); v != nil {
		if v.InStock() {
			return d.addSKU(ctx, s, v.SKU, qty)
		}
		res := variantGone(s, f, v)
		choice[lastChosen(choice)] = -1 // ask that option again, given the others
		if next, ok := f.picker(s, choice, qty); ok {
			res.Picker = next
		}
		return res, nil
	}
	if len(f.inStock(choice)) == 0 {
		if len(f.inStock(f.noChoice())) == 0 {
			return soldOut(s, f), nil
		}
		res := Result{Data: map[string]any{
			"sku": f.parent.SKU, "title": f.parent.Title, "status": "out_of_stock", "asked": f.chosen(choice),
			"message": "Nothing in stock with those options; the picker shows what is.",
		}}
		res.Picker, _ = f.picker(s, f.noChoice(), qty)
		return res, nil
	}
	pk, _ := f.picker(s, choice, qty)
	data := map[string]any{
		"sku": f.parent.SKU, "title": f.parent.Title, "choose": pk.Option, "values": pickerValues(pk),
		"message": "Ask which " + pk.Option + " (buttons shown); then call add_to_cart with options.",
	}
	if len(pk.Chosen) > 0 {
		data["chosen"] = f.chosen(choice)
	}
	s.State.Focus = f.parent.SKU
	return Result{Data: data, Picker: pk}, nil
}

// picker asks for the first option not in choice; false when no value of
// it has a variant in stock.
func (f *family) picker(s *session.Session, choice []int, qty int) (*view.Picker, bool) {
	k := -1
	for i, j := range choice {
		if j < 0 {
			k = i
			break
		}
	}
	if k < 0 {
		return nil, false
	}
	card := view.CardOf(f.parent)
	pk := &view.Picker{
		SKU: f.parent.SKU, Title: f.parent.Title, PriceText: view.PriceTextIn(s.Lang(), card.PriceText), ImageURL: card.ImageURL,
		Option: f.names[k], Prompt: fmt.Sprintf(pickerPrompt(s), OptionNameIn(f.names[k], s.Lang())),
	}
	for i, j := range choice {
		if j >= 0 {
			pk.Chosen = append(pk.Chosen, view.OptionValue{Name: f.names[i], Value: f.values[i][j]})
		}
	}
	last := lastUnchosen(choice) == k
	for j, val := range f.values[k] {
		next := append([]int(nil), choice...)
		next[k] = j
		stock := f.inStock(next)
		if len(stock) == 0 {
			continue
		}
		act := view.Action{Kind: view.ActOption, SKU: f.parent.SKU, Qty: qty, Arg: encodeChoice(next)}
		if last {
			act = view.Action{Kind: view.ActAdd, SKU: stock[0].SKU, Qty: qty}
		}
		pk.Values = append(pk.Values, view.NewButton(val, act))
	}
	return pk, len(pk.Values) > 0
}

// ruOptionNames are the Russian names of the common options.
var ruOptionNames = map[string]string{"size": "размер", "color": "цвет", "material": "материал"}

// OptionNameIn is an option's name for a shopper speaking lang: the
// catalog's own, except that a Russian shopper reads «размер» for "size"
// (and its spellings) where the shop named it in English.
func OptionNameIn(name, lang string) string {
	if strings.HasPrefix(strings.ToLower(lang), "ru") {
		if ru, ok := ruOptionNames[catalog.OptionName(name)]; ok {
			return ru
		}
	}
	return name
}

// pickerPrompt is the picker's question in the shopper's language.
func pickerPrompt(s *session.Session) string {
	if strings.HasPrefix(strings.ToLower(s.Lang()), "ru") {
		return "Выберите: %s"
	}
	return "Which %s?"
}

func pickerValues(pk *view.Picker) []string {
	out := make([]string, len(pk.Values))
	for i, b := range pk.Values {
		out[i] = b.Label
	}
	return out
}

func lastChosen(choice []int) int {
	for i := len(choice) - 1; i >= 0; i-- {
		if choice[i] >= 0 {
			return i
		}
	}
	return 0
}

func lastUnchosen(choice []int) int {
	for i := len(choice) - 1; i >= 0; i-- {
		if choice[i] < 0 {
			return i
		}
	}
	return -1
}

// variantGone answers a full choice whose variant is not in stock (or no
// longer sold): the notify-me offer where it may come back.
func variantGone(s *session.Session, f *family, v *catalog.Product) Result {
	label := catalog.OptionLabel(v.Options, f.names)
	res := Result{Data: map[string]any{
		"sku": v.SKU, "title": f.parent.Title, "variant": label, "status": "out_of_stock",
		"message": "Not in stock in " + label + "; offer the other options shown, or notify_when_available with this sku.",
	}}
	if v.Active {
		res.Buttons = []view.Button{view.NewButton(Label(s, BtnNotifyMe), view.Action{Kind: view.ActNotify, SKU: v.SKU})}
	} else {
		res.Data.(map[string]any)["message"] = label + " is no longer sold; offer the other options shown."
	}
	return res
}

// soldOut answers a product none of whose variants is in stock.
func soldOut(s *session.Session, f *family) Result {
	return Result{
		Data: map[string]any{
			"sku": f.parent.SKU, "title": f.parent.Title, "status": "out_of_stock",
			"message": "No " + strings.Join(f.names, "/") + " is in stock; offer notify_when_available or similar products.",
		},
		Cards:   []view.Card{view.CardOf(f.parent)},
		Buttons: []view.Button{view.NewButton(Label(s, BtnNotifyMe), view.Action{Kind: view.ActNotify, SKU: f.parent.SKU})},
	}
}

// isNeedsVariant reports the refusal of a parent in the cart.
func isNeedsVariant(err error) bool { return errors.Is(err, catalog.ErrNeedsVariant) }

// variantLine is one variant as the model reads it in a parent's details.
type variantLine struct {
	SKU     string `json:"sku"`
	Options string `json:"options"` // "Navy / M"
	Price   string `json:"price"`
	Stock   int    `json:"stock"`
}

// variantDetails lists parent p's variants for the model and gives the
// button that opens its picker ("Choose size"), or none when no variant
// is in stock.
func variantDetails(ctx context.Context, d *Deps, s *session.Session, p *catalog.Product) ([]variantLine, *view.Button, error) {
	f, err := loadFamily(ctx, d, p)
	if err != nil {
		return nil, nil, err
	}
	lines := make([]variantLine, 0, len(f.variants))
	for i := range f.variants {
		v := &f.variants[i]
		if !v.Active {
			continue
		}
		lines = append(lines, variantLine{SKU: v.SKU, Options: catalog.OptionLabel(v.Options, f.names), Price: catalog.FormatPrice(v.Price, v.Currency), Stock: view.AvailableStock(v)})
	}
	if len(f.names) == 0 || len(f.inStock(f.noChoice())) == 0 {
		return lines, nil, nil
	}
	label := "Choose " + f.names[0]
	if strings.HasPrefix(strings.ToLower(s.Lang()), "ru") {
		label = "Выбрать: " + OptionNameIn(f.names[0], s.Lang())
	}
	b := view.NewButton(label, view.Action{Kind: view.ActOption, SKU: p.SKU, Qty: 1})
	return lines, &b, nil
}

// OutOfStock reports a result that says the product, or the variant
// asked for, is not in stock (add_to_cart on a product with variants).
func OutOfStock(res Result) bool {
	m, ok := res.Data.(map[string]any)
	return ok && m["status"] == "out_of_stock"
}

// IsNoOptions reports add_to_cart refusing options for a product that has
// none, so a caller that read them from loose words can add it as it is.
func IsNoOptions(err error) bool {
	var te *ToolError
	return errors.As(err, &te) && te.noOptions
}
