package tools

import (
	"context"
	"errors"
	"fmt"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/variants"
	"shopbot/engine/view"
)

// add_to_cart on a product with variants: options that pick one variant
// in stock add it; otherwise the result is a view.Picker for the next
// option not chosen yet, offering only values with an active variant in
// stock given the choices so far (engine/variants has the family, its
// picker and the button encoding).

// addOptions adds the variant of a.SKU that a.Options pick, or asks for
// the next option. a.SKU may be a parent, or a variant whose options the
// given ones change ("it in navy").
func (d *Deps) addOptions(ctx context.Context, s *session.Session, a addToCartArgs) (toolkit.Result, error) {
	p, err := d.products().Product(ctx, a.SKU)
	if err != nil {
		return toolkit.Result{}, cartChangeError(ctx, d, s, a.SKU, err)
	}
	var own *catalog.Product // the variant named, when a.SKU is one
	if p.IsVariant() {
		own = p
		if p, err = d.products().ProductByID(ctx, *p.ParentID); err != nil {
			return toolkit.Result{}, err
		}
	}
	if !p.Active {
		return toolkit.Result{}, toolkit.Errorf("%s (%s) is no longer sold", p.Title, p.SKU)
	}
	if !p.HasVariants() {
		return toolkit.Result{}, &toolkit.ToolError{Msg: fmt.Sprintf("%s (%s) has no options to choose; call add_to_cart without options", p.Title, p.SKU), NoOptions: true}
	}
	f, err := loadFamily(ctx, d, p)
	if err != nil {
		return toolkit.Result{}, err
	}
	choice := f.NoChoice()
	if own != nil {
		f.Choose(choice, own)
	}
	if err := f.Resolve(choice, a.Options); err != nil {
		return toolkit.Result{}, err
	}
	return d.pick(ctx, s, f, choice, a.Quantity)
}

// pick adds the chosen variant when the choice is complete and it is in
// stock, and otherwise asks for the next option.
func (d *Deps) pick(ctx context.Context, s *session.Session, f *variants.Family, choice []int, qty int) (toolkit.Result, error) {
	if v := f.Exact(choice); v != nil {
		if v.InStock() {
			return d.addSKU(ctx, s, v.SKU, qty)
		}
		res := variantGone(s, f, v)
		choice[lastChosen(choice)] = -1 // ask that option again, given the others
		if next, ok := f.Picker(s.Lang(), choice, qty); ok {
			res.Picker = next
		}
		return res, nil
	}
	if len(f.InStock(choice)) == 0 {
		if len(f.InStock(f.NoChoice())) == 0 {
			return soldOut(s, f), nil
		}
		res := toolkit.Result{Data: map[string]any{
			"sku": f.Parent.SKU, "title": f.Parent.Title, "status": "out_of_stock", "asked": f.Chosen(choice),
			"message": "Nothing in stock with those options; the picker shows what is.",
		}}
		res.Picker, _ = f.Picker(s.Lang(), f.NoChoice(), qty)
		return res, nil
	}
	pk, _ := f.Picker(s.Lang(), choice, qty)
	data := map[string]any{
		"sku": f.Parent.SKU, "title": f.Parent.Title, "choose": pk.Option, "values": pickerValues(pk),
		"message": "Ask which " + pk.Option + " (buttons shown); then call add_to_cart with options.",
	}
	if len(pk.Chosen) > 0 {
		data["chosen"] = f.Chosen(choice)
	}
	s.State.Focus = f.Parent.SKU
	return toolkit.Result{Data: data, Picker: pk}, nil
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

// variantGone answers a full choice whose variant is not in stock (or no
// longer sold): the notify-me offer where it may come back.
func variantGone(s *session.Session, f *variants.Family, v *catalog.Product) toolkit.Result {
	label := catalog.OptionLabel(v.Options, f.Names)
	res := toolkit.Result{Data: map[string]any{
		"sku": v.SKU, "title": f.Parent.Title, "variant": label, "status": "out_of_stock",
		"message": "Not in stock in " + label + "; offer the other options shown, or notify_when_available with this sku.",
	}}
	if v.Active {
		res.Buttons = []view.Button{view.NewButton(toolkit.Label(s, toolkit.BtnNotifyMe), view.Action{Kind: view.ActNotify, SKU: v.SKU})}
	} else {
		res.Data.(map[string]any)["message"] = label + " is no longer sold; offer the other options shown."
	}
	return res
}

// soldOut answers a product none of whose variants is in stock.
func soldOut(s *session.Session, f *variants.Family) toolkit.Result {
	return toolkit.Result{
		Data: map[string]any{
			"sku": f.Parent.SKU, "title": f.Parent.Title, "status": "out_of_stock",
			"message": "No " + strings.Join(f.Names, "/") + " is in stock; offer notify_when_available or similar products.",
		},
		Cards:   []view.Card{view.CardOf(f.Parent)},
		Buttons: []view.Button{view.NewButton(toolkit.Label(s, toolkit.BtnNotifyMe), view.Action{Kind: view.ActNotify, SKU: f.Parent.SKU})},
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
	lines := make([]variantLine, 0, len(f.Variants))
	for i := range f.Variants {
		v := &f.Variants[i]
		if !v.Active {
			continue
		}
		lines = append(lines, variantLine{SKU: v.SKU, Options: catalog.OptionLabel(v.Options, f.Names), Price: catalog.FormatPrice(v.Price, v.Currency), Stock: view.AvailableStock(v)})
	}
	if len(f.Names) == 0 || len(f.InStock(f.NoChoice())) == 0 {
		return lines, nil, nil
	}
	b := f.ChooseButton(s.Lang())
	return lines, &b, nil
}

// OutOfStock reports a result that says the product, or the variant
// asked for, is not in stock (add_to_cart on a product with variants).
func OutOfStock(res toolkit.Result) bool {
	m, ok := res.Data.(map[string]any)
	return ok && m["status"] == "out_of_stock"
}

// IsNoOptions reports add_to_cart refusing options for a product that has
// none, so a caller that read them from loose words can add it as it is.
func IsNoOptions(err error) bool {
	var te *toolkit.ToolError
	return errors.As(err, &te) && te.NoOptions
}

// loadFamily reads the variants of parent p.
func loadFamily(ctx context.Context, d *Deps, p *catalog.Product) (*variants.Family, error) {
	vs, err := d.products().Variants(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return variants.New(p, vs), nil
}

// OptionNameIn is an option's name for a shopper speaking lang
// (variants.OptionNameIn).
func OptionNameIn(name, lang string) string { return variants.OptionNameIn(name, lang) }
