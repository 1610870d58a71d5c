package planner

// Planner turns about the cart: add, remove, set a quantity, clear, view.
import (
	"context"
	"shopbot/engine/toolkit"
	"slices"

	"shopbot/catalog"
	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

// cartChange is the data of add_to_cart, update_cart_item and
// remove_from_cart.
type cartChange struct {
	Added   *changedLine `json:"added"`
	Updated *changedLine `json:"updated"`
	Removed *changedLine `json:"removed"`
	Cart    struct {
		Units int    `json:"units"`
		Total string `json:"total"`
	} `json:"cart"`
}

type changedLine struct {
	Title   string `json:"title"`
	Variant string `json:"variant"` // "42 / Navy"
	Qty     int    `json:"qty"`
}

// changeView is what the cart-change templates read.
type changeView struct {
	Title      string
	Qty, Units int
	Total      string
}

// add puts each product referred to in the cart ("add the first and the
// third"), qty of each.
func (t *plannerTurn) add(ctx context.Context, in intent.Intent) error {
	skus, ok := t.resolveAll(in)
	if !ok {
		return nil
	}
	t.fromList = slices.ContainsFunc(in.Refs, func(r intent.Ref) bool { return r.Pos != 0 })
	for _, sku := range skus {
		if err := t.addSKU(ctx, sku, in.Qty); err != nil {
			return err
		}
	}
	t.cartButtons()
	return nil
}

func (t *plannerTurn) addSKU(ctx context.Context, sku string, qty int) error {
	if t.tooMany(qty) {
		return nil
	}
	res, err := t.addCall(ctx, sku, qty)
	if err != nil {
		return t.fail(err)
	}
	if t.variantAnswer(res) { // variants.go: which size, or not in stock
		return nil
	}
	t.s.State.Focus = sku                   // "one more", "make that 3"
	t.s.State.Pending = intent.PendingAdded // "and some granola bars too" (intent/cartlist.go)
	t.changed(rAdded, res)
	return nil
}

func (t *plannerTurn) cartButtons() {
	t.button("btn.cart", view.Action{Kind: view.ActCart})
	t.button("btn.checkout", view.Action{Kind: view.ActCheckout})
}

// resolveAll resolves every reference (the focus when there is none), or
// none: the shopper is told which one does not resolve.
func (t *plannerTurn) resolveAll(in intent.Intent) ([]string, bool) {
	refs := in.Refs
	if len(refs) == 0 {
		refs = []intent.Ref{{Focus: true}}
	}
	var skus []string
	for _, r := range refs {
		sku, ok := t.resolve(r)
		if !ok {
			return nil, false
		}
		if !slices.Contains(skus, sku) {
			skus = append(skus, sku)
		}
	}
	return skus, true
}

// tooMany tells the shopper the most one cart line holds, when qty is over it.
func (t *plannerTurn) tooMany(qty int) bool {
	if qty <= catalog.MaxCartQuantity {
		return false
	}
	t.say(rTooMany, catalog.MaxCartQuantity)
	return true
}

// changed words a cart change from the tool's data.
func (t *plannerTurn) changed(key replyKey, res toolkit.Result) {
	d := dataAs[cartChange](res)
	line := d.Added
	if line == nil {
		line = d.Updated
	}
	if line == nil {
		line = d.Removed
	}
	if line == nil {
		line = &changedLine{}
	}
	if line.Variant != "" {
		line.Title += " (" + line.Variant + ")"
	}
	t.say(key, changeView{Title: line.Title, Qty: line.Qty, Units: d.Cart.Units, Total: d.Cart.Total})
}

// addByName finds the product and adds the best match in stock.
func (t *plannerTurn) addByName(ctx context.Context, in intent.Intent) error {
	if len(in.Items) > 0 { // "rice, beans and oil": each in turn
		for _, item := range in.Items {
			if err := t.addByName(ctx, intent.Intent{Kind: in.Kind, Query: item, Options: in.Options}); err != nil {
				return err
			}
		}
		return nil
	}
	limit := listLimit
	if in.Sort != "" {
		limit = 10 // the cheapest of all that match, not of the first five
	}
	found := len(t.plan.Results)
	res, q, err := t.find(ctx, plannedSearch{Query: in.Query, Limit: limit, Options: in.Options})
	if err != nil {
		return t.fail(err)
	}
	cards := t.preferVariants(res.Cards)
	if in.Sort != "" {
		// By relevance, then ordered here, as compareFound does: a price
		// sort over keywords would rank a dog bowl among dog foods.
		kept, _ := bestCovered(cards, q)
		cards = sameCategory(slices.Clone(kept))
		sortViewCards(cards, in.Sort)
	}
	for _, c := range cards {
		if c.InStock {
			// The search only picked it: what was added is what the
			// reply is about, not the cards it was picked from.
			t.plan.Results = t.plan.Results[:found]
			t.s.State.Remember([]view.Card{c})
			t.s.State.Focus = c.SKU
			t.cartButtons()
			return t.addSKU(ctx, c.SKU, in.Qty)
		}
	}
	if said, err := t.soldOut(ctx, plannedSearch{Options: in.Options}, q); said || err != nil {
		return err
	}
	t.say(rNothing, listView{Query: q})
	return nil
}

// remove takes the products referred to, or the cart line named, out of
// the cart.
func (t *plannerTurn) remove(ctx context.Context, in intent.Intent) error {
	var skus []string
	if len(in.Refs) > 0 || in.Query == "" {
		var ok bool
		if skus, ok = t.resolveAll(in); !ok {
			return nil
		}
	} else {
		named, ok, err := t.cartLinesNamed(ctx, in.Query)
		if !ok {
			return err
		}
		skus = named
	}
	if in.Qty > 0 && len(skus) == 1 {
		return t.removeSome(ctx, skus[0], in.Qty)
	}
	for _, sku := range skus {
		res, err := t.call(ctx, "remove_from_cart", map[string]string{"sku": sku})
		if err != nil {
			if err := t.fail(err); err != nil {
				return err
			}
			continue
		}
		t.changed(rRemoved, res)
	}
	return nil
}

// removeSome takes n units of a product out of the cart ("remove one"),
// the whole line when it holds no more.
func (t *plannerTurn) removeSome(ctx context.Context, sku string, n int) error {
	res, err := t.call(ctx, "view_cart", struct{}{})
	if err != nil {
		return t.fail(err)
	}
	have := 0
	if res.Cart != nil {
		for _, l := range res.Cart.Lines {
			if l.SKU == sku {
				have = l.Qty
			}
		}
	}
	if have == 0 {
		t.say(rNotInCart, sku)
		return nil
	}
	t.s.State.Focus = sku
	return t.setQty(ctx, intent.Intent{Refs: []intent.Ref{{Focus: true}}, Qty: max(have-n, 0)})
}

// cartLinesNamed finds the cart lines whose title has every word of name
// ("remove the notebooks": all of them).
func (t *plannerTurn) cartLinesNamed(ctx context.Context, name string) ([]string, bool, error) {
	res, err := t.call(ctx, "view_cart", struct{}{})
	if err != nil {
		return nil, false, t.fail(err)
	}
	var skus []string
	if res.Cart != nil {
		for _, l := range res.Cart.Lines {
			if intent.TitleHas(l.Title, name) && len(skus) < intent.MaxRefsPerAction {
				skus = append(skus, l.SKU)
			}
		}
	}
	if len(skus) == 0 {
		t.say(rNotInCart, name)
		return nil, false, nil
	}
	return skus, true, nil
}

func (t *plannerTurn) setQty(ctx context.Context, in intent.Intent) error {
	sku, ok := t.resolve(firstRef(in))
	if !ok {
		return nil
	}
	if t.tooMany(in.Qty) {
		return nil
	}
	res, err := t.call(ctx, "update_cart_item", map[string]any{"sku": sku, "quantity": in.Qty})
	if err != nil {
		return t.fail(err)
	}
	if in.Qty == 0 {
		t.changed(rRemoved, res)
	} else {
		t.changed(rUpdated, res)
	}
	return nil
}

func (t *plannerTurn) cart(ctx context.Context, _ intent.Intent) error {
	res, err := t.call(ctx, "view_cart", struct{}{})
	if err != nil {
		return t.fail(err)
	}
	if res.Cart == nil || len(res.Cart.Lines) == 0 {
		t.say(rCartEmpty, nil)
		t.button("btn.cats", view.Action{Kind: view.ActCategories})
		return nil
	}
	t.say(rCart, res.Cart)
	t.button("btn.checkout", view.Action{Kind: view.ActCheckout})
	return nil
}

// maxClear bounds the removals of one "clear the cart".
const maxClear = 30

func (t *plannerTurn) clearCart(ctx context.Context, _ intent.Intent) error {
	res, err := t.call(ctx, "view_cart", struct{}{})
	if err != nil {
		return t.fail(err)
	}
	if res.Cart != nil {
		for i, l := range res.Cart.Lines {
			if i == maxClear {
				break
			}
			if _, err := t.call(ctx, "remove_from_cart", map[string]string{"sku": l.SKU}); err != nil {
				return t.fail(err)
			}
		}
	}
	t.say(rCleared, nil)
	return nil
}

// sameCategory keeps the cards in the category of the first (the most
// relevant): "the cheapest kettle" is the cheapest of the kettles, not
// kettle-cooked chips.
func sameCategory(cards []view.Card) []view.Card {
	if len(cards) == 0 || cards[0].Category == "" {
		return cards
	}
	var out []view.Card
	for _, c := range cards {
		if c.Category == cards[0].Category {
			out = append(out, c)
		}
	}
	return out
}
