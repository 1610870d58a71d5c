package planner

// Planner turns about products: search, categories, details, similar, compare, stock (reviews: reviews.go).
import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"shopbot/engine/toolkit"
	"slices"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

// priceText formats an amount the shopper typed, in the shop currency.
func (t *plannerTurn) priceText(v float64) string {
	if v <= 0 {
		return ""
	}
	minor, err := toolkit.ToMinor(v, t.s.Currency)
	if err != nil {
		return ""
	}
	return catalog.FormatPrice(minor, t.s.Currency)
}

// plannedSearch is search_products' arguments; zero values are left out.
type plannedSearch struct {
	Query    string  `json:"query,omitempty"`
	Category string  `json:"category,omitempty"`
	MinPrice float64 `json:"min_price,omitempty"`
	MaxPrice float64 `json:"max_price,omitempty"`
	Sort     string  `json:"sort,omitempty"`
	Limit    int     `json:"limit,omitempty"`
	Offset   int     `json:"offset,omitempty"`
	// Options filter by variant ("size" = "42"); variants.go.
	Options map[string]string `json:"options,omitempty"`
	// InStock false includes the products out of stock (soldout.go).
	InStock *bool `json:"in_stock,omitempty"`
}

// listLimit is how many cards a list shows.
const listLimit = 5

// listView is what the list templates read.
type listView struct {
	Cards    []view.Card
	Total    int
	Query    string
	Min, Max string
}

func (t *plannerTurn) search(ctx context.Context, in intent.Intent) error {
	args := plannedSearch{Query: in.Query, MinPrice: in.MinPrice, MaxPrice: in.MaxPrice, Sort: in.Sort, Limit: listLimit, Options: in.Options}
	if in.Topic == intent.TopicCheaper {
		in.MaxPrice = t.cheaperThanShown(in.MaxPrice)
		args.MaxPrice = in.MaxPrice
	}
	return t.searchFor(ctx, in, args)
}

func (t *plannerTurn) searchFor(ctx context.Context, in intent.Intent, args plannedSearch) error {
	found := len(t.plan.Results)
	res, q, err := t.find(ctx, args)
	if err != nil {
		return t.fail(err)
	}
	narrow := in.Topic == intent.TopicCheaper || in.Topic == intent.TopicNarrow
	if len(res.Cards) == 0 && narrow && args.Query != in.About {
		// Nothing cheaper (or in green) has the same words: of the
		// same kind, what was asked for.
		if cat := t.shownCategory(); cat != "" {
			t.plan.Results = t.plan.Results[:found]
			args.Query, args.Category = in.About, cat
			return t.searchFor(ctx, in, args)
		}
	}
	if args.Sort != "" && args.Sort != "relevance" && args.Query != "" && args.Category == "" && !narrow {
		var kind string
		if res.Cards, kind, err = t.sameKind(ctx, args, res.Cards); err != nil {
			return err
		}
		if kind != "" { // none of the cheapest is of that kind: the cheapest of it
			t.plan.Results = t.plan.Results[:found]
			args.Category = kind
			return t.searchFor(ctx, in, args)
		}
	}
	lv := listView{Cards: res.Cards, Query: q, Min: t.priceText(in.MinPrice), Max: t.priceText(in.MaxPrice)}
	if len(res.Cards) == 0 {
		if said, err := t.soldOut(ctx, args, q); said || err != nil {
			return err
		}
		t.say(rNothing, lv)
		t.button("btn.cats", view.Action{Kind: view.ActCategories})
		return nil
	}
	if missing, err := t.unknownWords(ctx, q, res.Cards); err != nil || len(missing) > 0 {
		if err != nil {
			return err
		}
		t.plan.Results = t.plan.Results[:found] // the partial matches are not shown
		if said, err := t.soldOut(ctx, args, q); said || err != nil {
			return err
		}
		return t.noMatch(ctx, q, missing)
	}
	lv.Total = max(dataAs[struct {
		Total int `json:"total"`
	}](res).Total, len(res.Cards))
	args.Query = q
	t.remember(args, lv.Total, len(res.Cards))
	if kept, exact := bestCovered(res.Cards, q); exact {
		// Only the cards with every word are shown, and later pages
		// keep to such cards.
		if len(kept) < len(res.Cards) {
			t.keepShown(kept)
			lv.Cards, lv.Total = kept, len(kept)
		}
		t.s.State.Listing.Exact = true
	}
	t.s.State.Focus = soleMatch(res.Cards, q)
	t.say(rFound, lv)
	t.cardButtons(lv.Cards)              // the cards shown, after the exact-match cut
	if len(lv.Cards) == len(res.Cards) { // a cut exact list has no more pages worth showing
		t.moreButton()
	}
	return nil
}

// cheaperThanShown is the price ceiling of "anything cheaper?": below the
// dearest card shown (so the list comes again without it and its
// equals, cheapest first), and below the ceiling already set.
func (t *plannerTurn) cheaperThanShown(ceiling float64) float64 {
	var top int64
	for _, c := range t.s.State.ShownCards {
		top = max(top, c.Price)
	}
	if top <= 1 {
		return ceiling
	}
	digits, ok := catalog.CurrencyDigits(t.s.Currency)
	if !ok {
		digits = 2
	}
	c := float64(top-1) / math.Pow10(digits)
	if ceiling > 0 && ceiling < c {
		return ceiling
	}
	return c
}

// shownCategory is the category most of the cards shown that have every
// word of their list's query are in, or "".
func (t *plannerTurn) shownCategory() string {
	st := t.s.State
	var cards, exact []view.Card
	var units []queryUnit
	if st.Listing != nil {
		units = queryUnits(st.Listing.Query)
	}
	for _, c := range st.ShownCards {
		// The shown card has no attributes: its stems are not cached
		// for the full card's.
		v := view.Card{SKU: c.SKU, Title: c.Title, Brand: c.Brand, Category: c.Category}
		cards = append(cards, v)
		have, all := computeCardStems(v, false), true
		for _, u := range units {
			all = all && (!u.significant() || u.coveredBy(have))
		}
		if all && len(units) > 0 {
			exact = append(exact, v)
		}
	}
	if len(exact) > 0 {
		return mainCategory(exact)
	}
	return mainCategory(cards)
}

// mainCategory is the category most cards are in (the earlier card's on
// a tie), or "".
func mainCategory(cards []view.Card) string {
	best, n := "", 0
	count := map[string]int{}
	for _, c := range cards {
		if count[c.Category]++; count[c.Category] > n {
			best, n = c.Category, count[c.Category]
		}
	}
	return best
}

// exactOrAll keeps the cards that have every word of q, or all of them
// when none does.
func exactOrAll(cards []view.Card, q string) []view.Card {
	if ex := exactOnly(cards, q); len(ex) > 0 {
		return ex
	}
	return cards
}

// sameKind keeps, of a list sorted by price or rating, the cards of the
// category most of the best-matching products are in: "cheap kettle"
// sorts kettles, not the kettle-cooked chips that happen to cost less.
// When none of cards is of that category it returns the category to
// search in instead.
func (t *plannerTurn) sameKind(ctx context.Context, args plannedSearch, cards []view.Card) ([]view.Card, string, error) {
	cats := map[string]int{}
	for _, c := range cards {
		cats[c.Category]++
	}
	if len(cats) < 2 {
		return cards, "", nil
	}
	rel := args
	rel.Sort, rel.Limit, rel.Offset = "", listLimit, 0
	raw, _ := json.Marshal(rel) // plain values: it always marshals
	saved := *t.s.State         // the lookup must not change what the shopper was shown
	res, err := t.p.tb.Call(ctx, t.s, "search_products", string(raw))
	st := t.s.State
	st.Shown, st.ShownCards, st.Focus, st.Listing = saved.Shown, saved.ShownCards, saved.Focus, saved.Listing
	if err != nil {
		return nil, "", t.fail(err)
	}
	// The best matches that have every word vote: a neighbour by
	// meaning (tea for «чайник») does not.
	best := mainCategory(exactOrAll(res.Cards, args.Query))
	var kept []view.Card
	for _, c := range cards {
		if c.Category == best {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		return cards, best, nil
	}
	if n := len(t.plan.Results); n > 0 {
		t.plan.Results[n-1].Cards = kept
	}
	return kept, "", nil
}

// find searches, and when nothing matches, searches once more with the
// words relaxed (stems, a few Russian words in English). It returns the
// query that found the results.
func (t *plannerTurn) find(ctx context.Context, q plannedSearch) (toolkit.Result, string, error) {
	res, err := t.call(ctx, "search_products", q)
	if err != nil || len(res.Cards) > 0 {
		return res, q.Query, err
	}
	relaxed := intent.RelaxQuery(q.Query)
	if relaxed == "" || relaxed == q.Query {
		return res, q.Query, nil
	}
	q.Query = relaxed
	res, err = t.call(ctx, "search_products", q)
	return res, relaxed, err
}

// cardButtons offers to add the first card, and the cart.
func (t *plannerTurn) cardButtons(cards []view.Card) {
	if len(cards) > 0 && cards[0].InStock {
		key := replyKey("btn.add")
		if len(cards) == 1 {
			key = "btn.add1"
		}
		t.button(key, view.Action{Kind: view.ActAdd, SKU: cards[0].SKU, Qty: 1})
	}
	t.button("btn.cart", view.Action{Kind: view.ActCart})
}

// productCall runs a tool whose only argument is the referenced product.
func (t *plannerTurn) productCall(ctx context.Context, in intent.Intent, name string) (toolkit.Result, bool, error) {
	sku, ok := t.resolve(firstRef(in))
	if !ok {
		return toolkit.Result{}, false, nil
	}
	res, err := t.call(ctx, name, map[string]string{"sku": sku})
	if err != nil {
		return res, false, t.fail(err)
	}
	return res, true, nil
}

func (t *plannerTurn) details(ctx context.Context, in intent.Intent) error {
	res, ok, err := t.productCall(ctx, in, "get_product_details")
	if !ok || len(res.Cards) == 0 {
		return err
	}
	c := res.Cards[0]
	t.say(rDetails, c)
	if c.InStock {
		t.button("btn.add1", view.Action{Kind: view.ActAdd, SKU: c.SKU, Qty: 1})
	}
	t.button("btn.similar", view.Action{Kind: view.ActSimilar, SKU: c.SKU})
	return nil
}

func (t *plannerTurn) similar(ctx context.Context, in intent.Intent) error {
	res, ok, err := t.productCall(ctx, in, "get_similar_products")
	if !ok {
		return err
	}
	t.list(rSimilar, res.Cards)
	return nil
}

func (t *plannerTurn) availability(ctx context.Context, in intent.Intent) error {
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

// list shows cards under a heading, or that nothing was found; the tool
// that found them remembered its list, so a More button continues it.
func (t *plannerTurn) list(key replyKey, cards []view.Card) {
	if len(cards) == 0 {
		t.say(rNothing, listView{})
		t.button("btn.cats", view.Action{Kind: view.ActCategories})
		return
	}
	t.say(key, cards)
	t.cardButtons(cards)
	t.moreButton()
}

// maxCompare is compare_products' limit.
const maxCompare = 5

func (t *plannerTurn) compare(ctx context.Context, in intent.Intent) error {
	if in.Query != "" {
		ok, err := t.compareFound(ctx, in)
		if !ok || err != nil {
			return err
		}
		in.Refs = nil
	}
	skus, ok := t.compareSKUs(in)
	if !ok {
		return nil
	}
	res, err := t.call(ctx, "compare_products", map[string][]string{"skus": skus})
	if err != nil {
		return t.fail(err)
	}
	cv := struct {
		Cards               []view.Card
		Cheapest, BestRated string
		Differences         []string
	}{Cards: res.Cards}
	for _, d := range dataAs[struct {
		Differences []string `json:"differences"`
	}](res).Differences {
		cv.Differences = append(cv.Differences, strings.ReplaceAll(d, "_", " "))
	}
	if len(res.Cards) > 1 {
		cv.Cheapest, cv.BestRated = extremes(res.Cards)
	}
	t.say(rCompare, cv)
	t.cardButtons(res.Cards)
	return nil
}

// compareFound searches for "the two cheapest wireless headphones" and
// leaves the first Qty found shown, for the comparison; ok is false when
// the search answered the shopper itself (nothing found).
func (t *plannerTurn) compareFound(ctx context.Context, in intent.Intent) (ok bool, err error) {
	n := min(max(in.Qty, 2), maxCompare)
	// By relevance, then ordered here: a price sort over keywords would
	// rank a charger that mentions laptops among "the cheapest laptops".
	res, q, err := t.find(ctx, plannedSearch{Query: in.Query, Limit: 10})
	if err != nil {
		return false, t.fail(err)
	}
	if len(res.Cards) == 0 {
		t.say(rNothing, listView{Query: q})
		return false, nil
	}
	if missing, err := t.unknownWords(ctx, q, res.Cards); err != nil || len(missing) > 0 {
		if err != nil {
			return false, err
		}
		return false, t.noMatch(ctx, q, missing)
	}
	cards, _ := bestCovered(res.Cards, q)
	cards = slices.Clone(cards)
	sortViewCards(cards, in.Sort)
	t.keepShown(cards[:min(n, len(cards))])
	t.plan.Results = t.plan.Results[:len(t.plan.Results)-1] // shown by the comparison instead
	return true, nil
}

// sortViewCards orders cards by a search_products sort (stable; "" and
// relevance keep the order).
func sortViewCards(cards []view.Card, sort string) {
	slices.SortStableFunc(cards, func(a, b view.Card) int {
		switch sort {
		case "price_asc":
			return cmp.Compare(a.Price, b.Price)
		case "price_desc":
			return cmp.Compare(b.Price, a.Price)
		case "rating":
			return cmp.Compare(int64(b.Rating*100), int64(a.Rating*100))
		}
		return 0
	})
}

// compareSKUs resolves the products to compare: those named, or every card
// shown (up to five).
func (t *plannerTurn) compareSKUs(in intent.Intent) ([]string, bool) {
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
func extremes(cards []view.Card) (cheapest, bestRated string) {
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

func (t *plannerTurn) popular(ctx context.Context, _ intent.Intent) error {
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
func (t *plannerTurn) categories(ctx context.Context, in intent.Intent) error {
	args := map[string]string{}
	if in.Query != "" {
		args["parent"] = in.Query
	}
	res, err := t.call(ctx, "get_categories", args)
	if err != nil && in.Query != "" && toolkit.IsUserError(err) {
		return t.search(ctx, intent.Intent{Kind: intent.IntentSearch, Query: in.Query})
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
