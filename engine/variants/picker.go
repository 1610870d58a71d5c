package variants

import (
	"shopbot/catalog"
	"shopbot/engine/locale"
	"shopbot/engine/view"
)

// Picker asks, in lang, for the first option not in choice: its values
// with a variant in stock given the choices so far, each a button that
// carries the choice on (view.ActOption) or, on the last option, adds
// the variant (view.ActAdd) in qty. False when no value has a variant in
// stock.
func (f *Family) Picker(lang string, choice []int, qty int) (*view.Picker, bool) {
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
	card := view.CardOf(f.Parent)
	pk := &view.Picker{
		SKU: f.Parent.SKU, Title: f.Parent.Title, PriceText: locale.Price(lang, card.PriceText), ImageURL: card.ImageURL,
		Option: f.Names[k], Prompt: locale.Sprintf(lang, "picker.which", OptionNameIn(f.Names[k], lang)),
	}
	for i, j := range choice {
		if j >= 0 {
			pk.Chosen = append(pk.Chosen, view.OptionValue{Name: f.Names[i], Value: f.Values[i][j]})
		}
	}
	last := lastUnchosen(choice) == k
	for j, val := range f.Values[k] {
		next := append([]int(nil), choice...)
		next[k] = j
		stock := f.InStock(next)
		if len(stock) == 0 {
			continue
		}
		act := view.Action{Kind: view.ActOption, SKU: f.Parent.SKU, Qty: qty, Arg: EncodeChoice(next)}
		if last {
			act = view.Action{Kind: view.ActAdd, SKU: stock[0].SKU, Qty: qty}
		}
		pk.Values = append(pk.Values, view.NewButton(val, act))
	}
	return pk, len(pk.Values) > 0
}

// ChooseButton opens the picker of the family's first option ("Choose
// size"), in lang.
func (f *Family) ChooseButton(lang string) view.Button {
	label := locale.Sprintf(lang, "picker.choose", OptionNameIn(f.Names[0], lang))
	return view.NewButton(label, view.Action{Kind: view.ActOption, SKU: f.Parent.SKU, Qty: 1})
}

// OptionNameIn is an option's name for a shopper speaking lang: the
// catalog's own in the fallback language, and elsewhere the language's
// word for a common option (option.size, option.color …: a Russian
// shopper reads «размер» for "size" and its spellings) where it has one.
func OptionNameIn(name, lang string) string {
	lang = locale.Lang(lang)
	if lang == locale.Fallback {
		return name
	}
	key := "option." + catalog.OptionName(name)
	if w, ok := locale.WordIn(lang, key); ok {
		return w
	}
	return name
}

func lastUnchosen(choice []int) int {
	for i := len(choice) - 1; i >= 0; i-- {
		if choice[i] < 0 {
			return i
		}
	}
	return -1
}
