package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// Planner answers without a model: it parses the message into an Intent
// (planner_intent.go), runs the tools that serve it through the Toolbox,
// exactly as the model's calls are run, and words the reply from their
// results (planner_text.go). It is deterministic: no model, no randomness,
// no clock but the session's.
type Planner struct {
	tb *Toolbox
}

// NewPlanner returns a planner over the engine's tools.
func NewPlanner(tb *Toolbox) *Planner { return &Planner{tb: tb} }

// Plan is the planner's answer to one message. Buttons are the turn's
// quick replies in the shopper's language; adapters should show them rather
// than the Results' own buttons, which tools label in English for the model.
type Plan struct {
	Text    string        // the reply, in the shopper's language
	Calls   []PlannedCall // tools run, in order, for the transcript
	Results []Result      // their results (cards, cart, order) for the adapter
	Buttons []Button      // quick replies, labelled in the shopper's language
}

// PlannedCall is one tool call of a plan, as the transcript records it.
type PlannedCall struct {
	ID, Name, Args, Content string // Content/IsErr from toolMessage(res, err)
	IsErr                   bool
}

// Answer handles one message. Problems the shopper can fix (an unknown
// product, not enough stock, a bad phone number) are answered politely; an
// internal failure is returned as an error, with the calls made so far in
// the plan for the transcript.
func (p *Planner) Answer(ctx context.Context, s *Session, text string) (Plan, error) {
	if s.State == nil {
		s.State = &State{}
	}
	in := ParseIntent(text, s.Turn.Locale, s.State)
	t := &plannerTurn{p: p, s: s, lang: in.Lang}
	handle, ok := intentHandlers[in.Kind]
	if !ok {
		handle = (*plannerTurn).help
	}
	err := handle(t, ctx, in)
	return t.plan, errors.Join(err, t.err)
}

// plannerTurn is one Answer in progress.
type plannerTurn struct {
	p    *Planner
	s    *Session
	lang string
	plan Plan
	err  error // a reply that could not be rendered
}

var intentHandlers = map[IntentKind]func(*plannerTurn, context.Context, Intent) error{
	IntentSearch:       (*plannerTurn).search,
	IntentAdd:          (*plannerTurn).add,
	IntentAddByName:    (*plannerTurn).addByName,
	IntentRemove:       (*plannerTurn).remove,
	IntentSetQty:       (*plannerTurn).setQty,
	IntentClearCart:    (*plannerTurn).clearCart,
	IntentCart:         (*plannerTurn).cart,
	IntentCheckout:     (*plannerTurn).checkout,
	IntentField:        (*plannerTurn).field,
	IntentConfirm:      (*plannerTurn).confirm,
	IntentCancel:       (*plannerTurn).cancel,
	IntentOrders:       (*plannerTurn).orders,
	IntentCategories:   (*plannerTurn).categories,
	IntentPopular:      (*plannerTurn).popular,
	IntentDetails:      (*plannerTurn).details,
	IntentSimilar:      (*plannerTurn).similar,
	IntentCompare:      (*plannerTurn).compare,
	IntentAvailability: (*plannerTurn).availability,
	IntentReviews:      (*plannerTurn).reviews,
	IntentShoppingList: (*plannerTurn).shoppingList,
	IntentStats:        (*plannerTurn).stats,
	IntentHuman:        (*plannerTurn).human,
	IntentHelp:         (*plannerTurn).help,
	IntentGreeting:     (*plannerTurn).greeting,
	IntentThanks:       (*plannerTurn).thanks,
	IntentRefuse:       (*plannerTurn).refuse,
}

// ---- plumbing ----

// call runs a tool through the Toolbox and records it. args is a struct or
// map of plain values, so it always marshals.
func (t *plannerTurn) call(ctx context.Context, name string, args any) (Result, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return Result{}, fmt.Errorf("engine: planner: %s arguments: %w", name, err)
	}
	res, err := t.p.tb.Call(ctx, t.s, name, string(raw))
	content, isErr := toolMessage(res, err)
	t.plan.Calls = append(t.plan.Calls, PlannedCall{
		ID: t.callID(), Name: name, Args: string(raw), Content: content, IsErr: isErr,
	})
	if err == nil {
		t.plan.Results = append(t.plan.Results, res)
	}
	return res, err
}

// callID names the next call, unique within the conversation when the
// turn's dedup key is short enough to include.
func (t *plannerTurn) callID() string {
	n := strconv.Itoa(len(t.plan.Calls) + 1)
	if k := t.s.Turn.DedupKey; k != "" && len(k) <= 40 {
		return "planner-" + k + "-" + n
	}
	return "planner-" + n
}

// fail answers a tool error: one the shopper can act on is shown (as the
// tool worded it, the way the model would read it); anything else fails
// the turn.
func (t *plannerTurn) fail(err error) error {
	if !isUserError(err) {
		return fmt.Errorf("engine: planner: %w", err)
	}
	var te *ToolError
	msg := strings.ReplaceAll(err.Error(), "catalog: ", "")
	if errors.As(err, &te) {
		msg = te.Msg
	}
	if strings.HasPrefix(msg, "arguments") { // a schema violation: nothing to show the shopper
		t.say(rCantDo, nil)
		return nil
	}
	t.say(rToolError, msg)
	return nil
}

// say appends a rendered reply to the plan's text.
func (t *plannerTurn) say(key replyKey, data any) {
	text, err := renderReply(t.lang, key, data)
	if err != nil {
		t.err = errors.Join(t.err, err)
		return
	}
	if t.plan.Text != "" {
		t.plan.Text += "\n\n"
	}
	t.plan.Text += text
}

// button adds a quick reply labelled from the reply table.
func (t *plannerTurn) button(key replyKey, a Action) {
	t.plan.Buttons = append(t.plan.Buttons, NewButton(replyLabel(t.lang, key), a))
}

func (t *plannerTurn) shopButtons() {
	t.button("btn.cats", Action{Kind: ActCategories})
	t.button("btn.cart", Action{Kind: ActCart})
	t.button("btn.orders", Action{Kind: ActOrders})
}

// dataAs reads a tool's Data through its JSON form: the JSON is the
// contract the model reads, so the planner reads the same.
func dataAs[T any](res Result) T {
	var v T
	if b, err := json.Marshal(res.Data); err == nil {
		_ = json.Unmarshal(b, &v) // a shape mismatch leaves zero values
	}
	return v
}

// resolve turns a reference into a SKU of State.Shown or State.Focus; when
// it cannot, the shopper is told why and ok is false.
func (t *plannerTurn) resolve(r Ref) (sku string, ok bool) {
	st := t.s.State
	if r.Focus {
		switch {
		case st.Focus != "":
			return st.Focus, true
		case len(st.Shown) == 1:
			return st.Shown[0], true
		case len(st.Shown) == 0:
			t.say(rNoShown, nil)
		default:
			t.say(rWhich, nil)
		}
		return "", false
	}
	if len(st.Shown) == 0 {
		t.say(rNoShown, nil)
		return "", false
	}
	i := r.Pos - 1
	if r.Pos == -1 {
		i = len(st.Shown) - 1
	}
	if i < 0 || i >= len(st.Shown) {
		t.say(rOutOfRange, struct{ N, Pos int }{len(st.Shown), r.Pos})
		return "", false
	}
	st.Focus = st.Shown[i]
	return st.Focus, true
}

func firstRef(in Intent) Ref {
	if len(in.Refs) == 0 {
		return Ref{Focus: true}
	}
	return in.Refs[0]
}

// ---- small talk ----

func (t *plannerTurn) help(_ context.Context, in Intent) error {
	if in.Topic == "own_data" {
		t.say(rOwnData, nil)
	} else {
		t.say(rHelp, nil)
	}
	t.shopButtons()
	return nil
}

func (t *plannerTurn) greeting(context.Context, Intent) error {
	t.say(rGreeting, nil)
	t.shopButtons()
	return nil
}

func (t *plannerTurn) thanks(context.Context, Intent) error {
	t.say(rThanks, nil)
	return nil
}

func (t *plannerTurn) refuse(context.Context, Intent) error {
	t.say(rShopData, nil)
	t.button("btn.cats", Action{Kind: ActCategories})
	return nil
}

func (t *plannerTurn) human(ctx context.Context, in Intent) error {
	reason := truncateRunes(cleanText(in.Value), 400)
	if len([]rune(reason)) < 3 {
		reason = "the shopper asked for a person"
	}
	if _, err := t.call(ctx, "request_human", map[string]string{"reason": "Shopper asked for a person: " + reason}); err != nil {
		return t.fail(err)
	}
	t.say(rHuman, nil)
	return nil
}

// ---- the money helpers of replies ----

// priceText formats an amount the shopper typed, in the shop currency.
func (t *plannerTurn) priceText(v float64) string {
	if v <= 0 {
		return ""
	}
	minor, err := toMinor(v, t.s.Currency)
	if err != nil {
		return ""
	}
	return catalog.FormatPrice(minor, t.s.Currency)
}

// ---- products ----

// plannedSearch is search_products' arguments; zero values are left out.
type plannedSearch struct {
	Query    string  `json:"query,omitempty"`
	Category string  `json:"category,omitempty"`
	MinPrice float64 `json:"min_price,omitempty"`
	MaxPrice float64 `json:"max_price,omitempty"`
	Sort     string  `json:"sort,omitempty"`
	Limit    int     `json:"limit,omitempty"`
}

// listLimit is how many cards a list shows.
const listLimit = 5

// listView is what the list templates read.
type listView struct {
	Cards    []Card
	Total    int
	Query    string
	Min, Max string
}

func (t *plannerTurn) search(ctx context.Context, in Intent) error {
	return t.searchFor(ctx, in, plannedSearch{Query: in.Query, MinPrice: in.MinPrice, MaxPrice: in.MaxPrice, Sort: in.Sort, Limit: listLimit})
}

func (t *plannerTurn) searchFor(ctx context.Context, in Intent, args plannedSearch) error {
	res, q, err := t.find(ctx, args)
	if err != nil {
		return t.fail(err)
	}
	view := listView{Cards: res.Cards, Query: q, Min: t.priceText(in.MinPrice), Max: t.priceText(in.MaxPrice)}
	if len(res.Cards) == 0 {
		t.say(rNothing, view)
		t.button("btn.cats", Action{Kind: ActCategories})
		return nil
	}
	view.Total = max(dataAs[struct {
		Total int `json:"total"`
	}](res).Total, len(res.Cards))
	t.say(rFound, view)
	t.cardButtons(res.Cards)
	return nil
}

// find searches, and when nothing matches, searches once more with the
// words relaxed (stems, a few Russian words in English). It returns the
// query that found the results.
func (t *plannerTurn) find(ctx context.Context, q plannedSearch) (Result, string, error) {
	res, err := t.call(ctx, "search_products", q)
	if err != nil || len(res.Cards) > 0 {
		return res, q.Query, err
	}
	relaxed := relaxQuery(q.Query)
	if relaxed == "" || relaxed == q.Query {
		return res, q.Query, nil
	}
	q.Query = relaxed
	res, err = t.call(ctx, "search_products", q)
	return res, relaxed, err
}

// cardButtons offers to add the first card, and the cart.
func (t *plannerTurn) cardButtons(cards []Card) {
	if len(cards) > 0 && cards[0].InStock {
		key := replyKey("btn.add")
		if len(cards) == 1 {
			key = "btn.add1"
		}
		t.button(key, Action{Kind: ActAdd, SKU: cards[0].SKU, Qty: 1})
	}
	t.button("btn.cart", Action{Kind: ActCart})
}

// productCall runs a tool whose only argument is the referenced product.
func (t *plannerTurn) productCall(ctx context.Context, in Intent, name string) (Result, bool, error) {
	sku, ok := t.resolve(firstRef(in))
	if !ok {
		return Result{}, false, nil
	}
	res, err := t.call(ctx, name, map[string]string{"sku": sku})
	if err != nil {
		return res, false, t.fail(err)
	}
	return res, true, nil
}

func (t *plannerTurn) details(ctx context.Context, in Intent) error {
	res, ok, err := t.productCall(ctx, in, "get_product_details")
	if !ok || len(res.Cards) == 0 {
		return err
	}
	c := res.Cards[0]
	t.say(rDetails, c)
	if c.InStock {
		t.button("btn.add1", Action{Kind: ActAdd, SKU: c.SKU, Qty: 1})
	}
	t.button("btn.similar", Action{Kind: ActSimilar, SKU: c.SKU})
	return nil
}

func (t *plannerTurn) similar(ctx context.Context, in Intent) error {
	res, ok, err := t.productCall(ctx, in, "get_similar_products")
	if !ok {
		return err
	}
	t.list(rSimilar, res.Cards)
	return nil
}

func (t *plannerTurn) availability(ctx context.Context, in Intent) error {
	res, ok, err := t.productCall(ctx, in, "get_availability")
	if !ok {
		return err
	}
	t.say(rAvailability, dataAs[struct {
		Title        string `json:"title"`
		Stock        int    `json:"stock"`
		Status       string `json:"status"`
		NoLongerSold bool   `json:"no_longer_sold"`
	}](res))
	return nil
}

// reviewsView is get_reviews_summary's data as the template reads it.
type reviewsView struct {
	Title      string  `json:"title"`
	Rating     float64 `json:"rating"`
	Count      int     `json:"count"`
	Highlights []struct {
		Author string `json:"author"`
		Rating int    `json:"rating"`
		Text   string `json:"text"`
	} `json:"highlights"`
}

func (t *plannerTurn) reviews(ctx context.Context, in Intent) error {
	res, ok, err := t.productCall(ctx, in, "get_reviews_summary")
	if !ok {
		return err
	}
	t.say(rReviews, dataAs[reviewsView](res))
	return nil
}

// list shows cards under a heading, or that nothing was found.
func (t *plannerTurn) list(key replyKey, cards []Card) {
	if len(cards) == 0 {
		t.say(rNothing, listView{})
		t.button("btn.cats", Action{Kind: ActCategories})
		return
	}
	t.say(key, cards)
	t.cardButtons(cards)
}

// maxCompare is compare_products' limit.
const maxCompare = 5

func (t *plannerTurn) compare(ctx context.Context, in Intent) error {
	skus, ok := t.compareSKUs(in)
	if !ok {
		return nil
	}
	res, err := t.call(ctx, "compare_products", map[string][]string{"skus": skus})
	if err != nil {
		return t.fail(err)
	}
	view := struct {
		Cards               []Card
		Cheapest, BestRated string
		Differences         []string
	}{Cards: res.Cards}
	for _, d := range dataAs[struct {
		Differences []string `json:"differences"`
	}](res).Differences {
		view.Differences = append(view.Differences, strings.ReplaceAll(d, "_", " "))
	}
	if len(res.Cards) > 1 {
		view.Cheapest, view.BestRated = extremes(res.Cards)
	}
	t.say(rCompare, view)
	t.cardButtons(res.Cards)
	return nil
}

// compareSKUs resolves the products to compare: those named, or every card
// shown (up to five).
func (t *plannerTurn) compareSKUs(in Intent) ([]string, bool) {
	var skus []string
	if len(in.Refs) == 0 {
		skus = t.s.State.Shown[:min(len(t.s.State.Shown), maxCompare)]
	}
	for _, r := range in.Refs {
		sku, ok := t.resolve(r)
		if !ok {
			return nil, false
		}
		if !slices.Contains(skus, sku) && len(skus) < maxCompare {
			skus = append(skus, sku)
		}
	}
	if len(skus) < 2 {
		t.say(rNeedTwo, nil)
		return nil, false
	}
	return append([]string(nil), skus...), true
}

// extremes names the cheapest and the best-rated card (the first of equals).
func extremes(cards []Card) (cheapest, bestRated string) {
	lo, hi := cards[0], cards[0]
	for _, c := range cards[1:] {
		if c.Price < lo.Price {
			lo = c
		}
		if c.Rating > hi.Rating {
			hi = c
		}
	}
	if hi.Rating == 0 {
		return lo.Title, ""
	}
	return lo.Title, hi.Title
}

func (t *plannerTurn) popular(ctx context.Context, _ Intent) error {
	res, err := t.call(ctx, "get_top_selling_products", map[string]int{"limit": listLimit})
	if err != nil {
		return t.fail(err)
	}
	t.list(rPopular, res.Cards)
	return nil
}

// categoryView is get_categories' data as the template reads it.
type categoryView struct {
	Parent     string `json:"parent"`
	Categories []struct {
		Name     string `json:"name"`
		Products int    `json:"products"`
	} `json:"categories"`
}

// categories lists a level of the tree; a parent that is not a category
// is searched for instead.
func (t *plannerTurn) categories(ctx context.Context, in Intent) error {
	args := map[string]string{}
	if in.Query != "" {
		args["parent"] = in.Query
	}
	res, err := t.call(ctx, "get_categories", args)
	if err != nil && in.Query != "" && isUserError(err) {
		return t.search(ctx, Intent{Kind: IntentSearch, Query: in.Query})
	}
	if err != nil {
		return t.fail(err)
	}
	v := dataAs[categoryView](res)
	if len(v.Categories) == 0 && v.Parent != "" { // a leaf: show its products
		return t.searchFor(ctx, in, plannedSearch{Category: v.Parent, Limit: listLimit})
	}
	t.say(rCategories, v)
	t.plan.Buttons = append(t.plan.Buttons, res.Buttons...) // category names: no language
	return nil
}

// ---- cart ----

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
	Title string `json:"title"`
	Qty   int    `json:"qty"`
}

// changeView is what the cart-change templates read.
type changeView struct {
	Title      string
	Qty, Units int
	Total      string
}

// add puts each product referred to in the cart ("add the first and the
// third"), qty of each.
func (t *plannerTurn) add(ctx context.Context, in Intent) error {
	skus, ok := t.resolveAll(in)
	if !ok {
		return nil
	}
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
	res, err := t.call(ctx, "add_to_cart", map[string]any{"sku": sku, "quantity": max(qty, 1)})
	if err != nil {
		return t.fail(err)
	}
	t.changed(rAdded, res)
	return nil
}

func (t *plannerTurn) cartButtons() {
	t.button("btn.cart", Action{Kind: ActCart})
	t.button("btn.checkout", Action{Kind: ActCheckout})
}

// resolveAll resolves every reference (the focus when there is none), or
// none: the shopper is told which one does not resolve.
func (t *plannerTurn) resolveAll(in Intent) ([]string, bool) {
	refs := in.Refs
	if len(refs) == 0 {
		refs = []Ref{{Focus: true}}
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
func (t *plannerTurn) changed(key replyKey, res Result) {
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
	t.say(key, changeView{Title: line.Title, Qty: line.Qty, Units: d.Cart.Units, Total: d.Cart.Total})
}

// addByName finds the product and adds the best match in stock.
func (t *plannerTurn) addByName(ctx context.Context, in Intent) error {
	res, q, err := t.find(ctx, plannedSearch{Query: in.Query, Limit: listLimit})
	if err != nil {
		return t.fail(err)
	}
	for _, c := range res.Cards {
		if c.InStock {
			t.s.State.Focus = c.SKU
			t.cartButtons()
			return t.addSKU(ctx, c.SKU, in.Qty)
		}
	}
	t.say(rNothing, listView{Query: q})
	return nil
}

// remove takes the products referred to, or the cart line named, out of
// the cart.
func (t *plannerTurn) remove(ctx context.Context, in Intent) error {
	var skus []string
	if len(in.Refs) > 0 || in.Query == "" {
		var ok bool
		if skus, ok = t.resolveAll(in); !ok {
			return nil
		}
	} else {
		sku, ok, err := t.cartLineNamed(ctx, in.Query)
		if !ok {
			return err
		}
		skus = []string{sku}
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

// cartLineNamed finds the cart line whose title has every word of name.
func (t *plannerTurn) cartLineNamed(ctx context.Context, name string) (string, bool, error) {
	res, err := t.call(ctx, "view_cart", struct{}{})
	if err != nil {
		return "", false, t.fail(err)
	}
	if res.Cart != nil {
		for _, l := range res.Cart.Lines {
			if titleHas(l.Title, name) {
				return l.SKU, true, nil
			}
		}
	}
	t.say(rNotInCart, name)
	return "", false, nil
}

func (t *plannerTurn) setQty(ctx context.Context, in Intent) error {
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

func (t *plannerTurn) cart(ctx context.Context, _ Intent) error {
	res, err := t.call(ctx, "view_cart", struct{}{})
	if err != nil {
		return t.fail(err)
	}
	if res.Cart == nil || len(res.Cart.Lines) == 0 {
		t.say(rCartEmpty, nil)
		t.button("btn.cats", Action{Kind: ActCategories})
		return nil
	}
	t.say(rCart, res.Cart)
	t.button("btn.checkout", Action{Kind: ActCheckout})
	return nil
}

// maxClear bounds the removals of one "clear the cart".
const maxClear = 30

func (t *plannerTurn) clearCart(ctx context.Context, _ Intent) error {
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

// ---- checkout and orders ----

// checkoutView is the checkout tool's data as the templates read it.
type checkoutView struct {
	Status  string            `json:"status"`
	Missing []string          `json:"missing"`
	Invalid map[string]string `json:"invalid"`
	Reason  string            `json:"reason"`
	Summary *summaryView      `json:"summary"`
	Order   *struct {
		Number string `json:"number"`
		Total  string `json:"total"`
	} `json:"order"`
}

// summaryView is the order summary the shopper confirms.
type summaryView struct {
	Changed bool // the cart or prices changed since the last summary
	Lines   []struct {
		Title     string `json:"title"`
		Qty       int    `json:"qty"`
		LineTotal string `json:"line_total"`
	} `json:"lines"`
	Total   string `json:"total"`
	Contact struct {
		Name    string `json:"name"`
		Phone   string `json:"phone"`
		Address string `json:"address"`
	} `json:"contact"`
}

// contactFields are the details checkout asks for, in its order.
var contactFields = []string{"name", "phone", "address"}

// checkout starts (or resumes) a checkout. It never confirms: an order is
// placed only by a "yes" to a summary shown in an earlier turn.
func (t *plannerTurn) checkout(ctx context.Context, _ Intent) error {
	return t.checkoutStep(ctx, map[string]any{})
}

func (t *plannerTurn) field(ctx context.Context, in Intent) error {
	args := map[string]any{in.Field: in.Value}
	res, err := t.call(ctx, "checkout", args)
	var te *ToolError
	if errors.As(err, &te) { // too long for the schema, typically
		t.say(rInvalidField, struct{ Field, Reason string }{in.Field, ""})
		return nil
	}
	return t.checkoutReply(res, err)
}

func (t *plannerTurn) confirm(ctx context.Context, _ Intent) error {
	return t.checkoutStep(ctx, map[string]any{"confirm": true})
}

func (t *plannerTurn) checkoutStep(ctx context.Context, args map[string]any) error {
	res, err := t.call(ctx, "checkout", args)
	return t.checkoutReply(res, err)
}

// checkoutReply words the checkout's status: ask for a detail, show the
// summary, or announce the order.
func (t *plannerTurn) checkoutReply(res Result, err error) error {
	if errors.Is(err, catalog.ErrEmptyCart) {
		t.say(rEmptyCheckout, nil)
		t.button("btn.cats", Action{Kind: ActCategories})
		return nil
	}
	if err != nil {
		return t.fail(err)
	}
	v := dataAs[checkoutView](res)
	switch {
	case v.Status == "need_details" && len(v.Invalid) > 0:
		for _, f := range contactFields {
			if reason, bad := v.Invalid[f]; bad {
				t.say(rInvalidField, struct{ Field, Reason string }{f, reason})
				break
			}
		}
	case v.Status == "need_details" && len(v.Missing) > 0:
		t.say(rAsk, v.Missing[0])
	case v.Status == "confirm" && v.Summary != nil:
		v.Summary.Changed = v.Reason == reasonChanged
		t.say(rSummary, v.Summary)
		t.button("btn.confirm", Action{Kind: ActConfirm})
		t.button("btn.cart", Action{Kind: ActCart})
	case v.Status == "placed" && v.Order != nil:
		t.say(rPlaced, v.Order)
		t.button("btn.orders", Action{Kind: ActOrders})
	default:
		t.say(rCheckoutStatus, nil)
	}
	return nil
}

func (t *plannerTurn) cancel(context.Context, Intent) error {
	if t.s.State.Checkout == nil {
		t.say(rNothingToStop, nil)
		return nil
	}
	t.s.State.Checkout = nil
	t.say(rCancelled, nil)
	t.button("btn.cart", Action{Kind: ActCart})
	return nil
}

// orderView is an order in get_order_status' data.
type orderView struct {
	Number   string `json:"number"`
	Status   string `json:"status"`
	Total    string `json:"total"`
	Date     string `json:"date"`
	Tracking string `json:"tracking"`
	Lines    []struct {
		Title string `json:"title"`
		Qty   int    `json:"qty"`
	} `json:"lines"`
}

func (t *plannerTurn) orders(ctx context.Context, in Intent) error {
	args := map[string]string{}
	if in.Order != "" {
		args["order_number"] = in.Order
	}
	res, err := t.call(ctx, "get_order_status", args)
	var te *ToolError
	if errors.As(err, &te) && in.Order != "" {
		t.say(rNoSuchOrder, nil)
		return nil
	}
	if err != nil {
		return t.fail(err)
	}
	d := dataAs[struct {
		Order  *orderView  `json:"order"`
		Orders []orderView `json:"orders"`
	}](res)
	switch {
	case d.Order != nil:
		t.say(rOrder, d.Order)
	case len(d.Orders) > 0:
		t.say(rOrders, d.Orders)
	default:
		t.say(rNoOrders, nil)
		t.button("btn.cats", Action{Kind: ActCategories})
	}
	return nil
}

// ---- habits ----

func (t *plannerTurn) shoppingList(ctx context.Context, in Intent) error {
	args := map[string]any{}
	if in.Days > 0 {
		args["days_ahead"] = min(in.Days, 90)
	}
	if in.Budget > 0 {
		args["budget"] = in.Budget
	}
	res, err := t.call(ctx, "generate_shopping_list", args)
	if err != nil {
		return t.fail(err)
	}
	t.say(rList, dataAs[shoppingListView](res))
	t.button("btn.cart", Action{Kind: ActCart})
	return nil
}

// shoppingListView is generate_shopping_list's data as the template reads it.
type shoppingListView struct {
	Empty     bool   `json:"empty"`
	DaysAhead int    `json:"days_ahead"`
	Total     string `json:"total"`
	Budget    string `json:"budget"`
	Items     []struct {
		Title     string `json:"title"`
		Qty       int    `json:"qty"`
		LineTotal string `json:"line_total"`
		InStock   bool   `json:"in_stock"`
	} `json:"items"`
	OverBudget []struct {
		Title string `json:"title"`
	} `json:"over_budget"`
	NextDue *struct {
		Title string `json:"title"`
		Due   string `json:"due"`
	} `json:"next_due"`
}

func (t *plannerTurn) stats(ctx context.Context, in Intent) error {
	args := map[string]any{}
	if in.Days > 0 {
		args["period_days"] = min(in.Days, 730)
	}
	res, err := t.call(ctx, "get_purchase_statistics", args)
	if err != nil {
		return t.fail(err)
	}
	t.say(rStats, dataAs[struct {
		Empty      bool   `json:"empty"`
		PeriodDays int    `json:"period_days"`
		Orders     int    `json:"orders"`
		Units      int    `json:"units"`
		Spend      string `json:"spend"`
		Items      []struct {
			Title    string `json:"title"`
			Quantity int    `json:"quantity"`
			Spend    string `json:"spend"`
		} `json:"items"`
	}](res))
	return nil
}
