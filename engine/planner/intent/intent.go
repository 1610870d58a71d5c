package intent

import (
	"strconv"
	"strings"

	"shopbot/catalog/personal"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
)

// The offline planner's intent parser: pure functions from a message (and
// the conversation's memory) to an Intent. It is a list of small matchers
// tried in order; whatever none of them claims is a product search. The
// vocabulary is in vocab.go, one table per idea, English and
// Russian side by side.

// Kind names what a message asks for.
type Kind string

const (
	IntentSearch       Kind = "search"        // Query, MinPrice, MaxPrice, Sort
	IntentAdd          Kind = "add"           // Refs, Qty of each
	IntentAddByName    Kind = "add_by_name"   // Query, Sort (a superlative), Qty
	IntentRemove       Kind = "remove"        // Refs, or Query (a title in the cart)
	IntentSetQty       Kind = "set_qty"       // Refs[0], Qty
	IntentClearCart    Kind = "clear_cart"    //
	IntentCart         Kind = "cart"          //
	IntentCheckout     Kind = "checkout"      //
	IntentField        Kind = "field"         // Field, Value: a checkout detail
	IntentConfirm      Kind = "confirm"       // yes to the checkout summary
	IntentCancel       Kind = "cancel"        // abandons the checkout
	IntentOrders       Kind = "orders"        // Order (optional)
	IntentCategories   Kind = "categories"    // Query: the parent (optional)
	IntentPopular      Kind = "popular"       // best sellers of the whole shop
	IntentDetails      Kind = "details"       // Refs[0]
	IntentAboutIt      Kind = "about_it"      // Refs[0], Query: the words asked about (aboutit.go)
	IntentSimilar      Kind = "similar"       // Refs[0]
	IntentCompare      Kind = "compare"       // Refs (none: everything shown)
	IntentAvailability Kind = "availability"  // Refs[0]
	IntentReviews      Kind = "reviews"       // Refs[0] or Query (a product's name); About
	IntentShoppingList Kind = "shopping_list" // Days, Budget
	IntentStats        Kind = "stats"         // Days
	IntentHuman        Kind = "human"         // Value: the message, as the reason
	IntentHelp         Kind = "help"          // Topic "own_data": a request about someone else
	IntentGreeting     Kind = "greeting"      //
	IntentThanks       Kind = "thanks"        //
	IntentRefuse       Kind = "refuse"        // Topic "shop_data": prices, stock, reviews are not ours to change
	IntentMore         Kind = "more"          // the next page of the last search
	IntentPersonal     Kind = "personal"      // contact details typed outside checkout
)

// Intent is one parsed message.
type Intent struct {
	Kind     Kind
	Lang     string  // "en" or "ru"
	Query    string  // search words, a product name, a category or a reason
	MinPrice float64 // in the shop currency; 0: no bound
	MaxPrice float64 // 0: no bound
	Sort     string  // a search_products sort; "" for relevance
	Refs     []Ref   // products referred to, in order
	Qty      int     // 0 when not given
	Order    string  // an order number, "SB-…"
	Field    string  // the checkout detail answered: name, phone, address
	Value    string  // its value, as typed
	Days     int     // shopping list horizon, statistics period; 0: default
	Budget   float64 // shopping list budget; 0: none
	Topic    string  // why help or a refusal is given
	About    string  // reviews: the words a review would use for what is asked ("battery charge")
	// Contact holds the checkout details one message gave at once, by
	// field (name, phone, address); Field and Value are then unused.
	Contact map[string]string
	// Items are the products a list command names ("rice, beans and
	// oil"), each searched and added (IntentAddByName; cartlist.go).
	Items []string
	// Options are the variant options named ("size" = "42"), by catalog
	// name; the planner sets them (options.go, CutOptions).
	Options map[string]string
}

// Ref is a product the shopper points at.
type Ref struct {
	Pos   int  // 1-based position in State.Shown; -1 is the last
	Focus bool // "it", "this": State.Focus
}

// parseMsg is a message being parsed.
type parseMsg struct {
	raw  string
	toks []string // lower-cased words, ё folded to е
	lang string
	st   *session.State
}

// Parse reads one message. locale (the platform's, e.g. "ru-RU")
// decides the language of messages without letters; st may be nil.
func Parse(text, locale string, st *session.State) Intent {
	if st == nil {
		st = &session.State{}
	}
	m := &parseMsg{raw: strings.TrimSpace(text), toks: analysis.Tokenize(text), st: st}
	m.lang = analysis.DetectLang(m.raw, locale, capturing(st))
	in := parse(m)
	in.Lang = m.lang
	return in
}

func parse(m *parseMsg) Intent {
	if len(m.toks) == 0 {
		return Intent{Kind: IntentHelp}
	}
	if capturing(m.st) {
		// A name or an address may say "user" or "admin"; only an
		// attempt to change the rules is not a contact detail.
		if overridesRules(m.toks) {
			return Intent{Kind: IntentHelp, Topic: "own_data"}
		}
		return matchCapture(m)
	}
	if in, ok := matchInjection(m); ok {
		return in
	}
	if in, ok := matchDeliveryChoice(m); ok { // delivery.go
		return in
	}
	if in, ok := matchAftersale(m); ok { // aftersale_changes.go: an address to change is not a contact to hide
		return in
	}
	if personal.Contains(m.raw) {
		// A phone, an e-mail or an address is not a product to search
		// for, nor a query to keep in the statistics.
		return Intent{Kind: IntentPersonal}
	}
	if in, ok := matchPending(m); ok { // aftersale.go
		return in
	}
	if in, ok := matchAlsoAdd(m); ok { // cartlist.go
		return in
	}
	if m.st.Checkout != nil && m.st.Checkout.Awaiting == "confirm" {
		if in, ok := matchYesNo(m); ok {
			return in
		}
	}
	for _, match := range matchers {
		if in, ok := match(m); ok {
			return in
		}
	}
	return matchSearch(m)
}

// matchers are tried in order after the checkout-specific ones: actions on
// products first (they name a verb and a product), then commands, then
// small talk. Whatever is left is a search.
var matchers = []func(*parseMsg) (Intent, bool){
	matchCancelOrder,   // aftersale.go
	matchOrderNow,      // ordernow.go
	matchReviews,       // reviews.go
	matchDeliveryQuote, // delivery.go
	matchPromo,         // promo.go
	matchInfo,          // info.go
	matchBackInStock,   // restock.go
	matchFollowUp,      // followup.go: before the references, so "cheaper?" narrows the list
	matchAboutIt,       // aboutit.go: "is it waterproof?" about the product in focus
	matchShopData, matchCompare, matchSimilar, matchAvailability,
	matchClearCart, matchOneMore, matchRemove, matchSetQty, matchAdd, matchMore, matchDetails,
	matchShoppingList, matchStats, matchOrders, matchCheckout, matchCart,
	matchCategories, matchHuman, matchPopular, matchSmallTalk,
}

func capturing(st *session.State) bool {
	if st == nil || st.Checkout == nil {
		return false
	}
	switch st.Checkout.Awaiting {
	case "name", "phone", "address":
		return true
	}
	return false
}

// matchCapture reads a message while checkout waits for a contact detail:
// it is that detail, unless it is plainly a command.
func matchCapture(m *parseMsg) Intent {
	if in, ok := matchCommand(m); ok {
		return in
	}
	if notADetail(m) { // ordernow.go: "yes go ahead" is not an address
		return Intent{Kind: IntentCheckout}
	}
	co := m.st.Checkout
	field := co.Awaiting
	if c := parseContact(m.raw, field == "name"); len(c) > 1 || len(c) == 1 && c[field] == "" {
		return Intent{Kind: IntentField, Contact: c}
	}
	return Intent{Kind: IntentField, Field: field, Value: cutFieldPrefix(m.raw, field)}
}

// cutFieldPrefix drops "my name is", "адрес:" and the like.
func cutFieldPrefix(value, field string) string {
	value = strings.TrimSpace(value)
	for _, p := range fieldPrefixes[field] {
		if len(value) <= len(p) || !strings.EqualFold(value[:len(p)], p) {
			continue
		}
		if rest := value[len(p):]; rest[0] == ' ' || rest[0] == ':' {
			return strings.TrimSpace(strings.TrimLeft(rest, " :"))
		}
	}
	return value
}

// matchCommand recognizes a whole-message command: "cart", "отмена".
func matchCommand(m *parseMsg) (Intent, bool) {
	rest := cutAll(m.toks, vPolite)
	for _, c := range commands {
		if len(rest) > 0 && onlyPhrase(rest, c.words) {
			return Intent{Kind: c.kind}, true
		}
	}
	return Intent{}, false
}

// matchYesNo answers the checkout summary.
func matchYesNo(m *parseMsg) (Intent, bool) {
	rest := cutAll(m.toks, vPolite)
	switch {
	case len(rest) > 0 && allIn(rest, vYes):
		return Intent{Kind: IntentConfirm}, true
	case len(rest) > 0 && (allIn(rest, vNo) || onlyPhrase(rest, vCancel)):
		return Intent{Kind: IntentCancel}, true
	}
	return Intent{}, false
}

// matchInjection catches attempts to change the rules or reach someone
// else's data: the answer is help about the shopper's own shopping.
func matchInjection(m *parseMsg) (Intent, bool) {
	if overridesRules(m.toks) || hasPhrase(m.toks, vOtherPeople) || accountNumber(m.toks) {
		return Intent{Kind: IntentHelp, Topic: "own_data"}, true
	}
	return Intent{}, false
}

func overridesRules(toks []string) bool {
	return (hasPhrase(toks, vOverride) && hasPhrase(toks, vRules)) || hasPhrase(toks, vJailbreak)
}

// matchShopData refuses requests to change prices, stock or reviews: no
// tool writes them.
func matchShopData(m *parseMsg) (Intent, bool) {
	if (hasPhrase(m.toks, vSetVerb) && hasPhrase(m.toks, vShopData)) || hasPhrase(m.toks, vFreebie) {
		return Intent{Kind: IntentRefuse, Topic: "shop_data"}, true
	}
	return Intent{}, false
}

// matchCompare: "compare the first and the third", "compare them",
// "compare the two cheapest wireless headphones" (a search, then the
// comparison of what it found first).
func matchCompare(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vCompare) {
		return Intent{}, false
	}
	refs, rest := extractRefs(m.toks, true)
	if len(refs) > 0 {
		return Intent{Kind: IntentCompare, Refs: refs}, true
	}
	p := pickShown(cutAll(rest, vCompare), m.st, true)
	if len(p.query) > 0 {
		return Intent{Kind: IntentCompare, Query: queryOf(p.query), Sort: p.sort, Qty: max(p.n, 2)}, true
	}
	return Intent{Kind: IntentCompare, Refs: p.refs}, true
}

// shownRefs are the references of a message: ordinals and "it" first,
// else the shown cards its words pick. rest is what names no shown card.
func (m *parseMsg) shownRefs(verbs phrases, several bool) (refs []Ref, rest []string) {
	refs, rest = extractRefs(m.toks, false)
	focusOnly := len(refs) == 1 && refs[0].Focus
	if len(refs) > 0 && !(focusOnly && hasSuperlative(rest)) || len(m.st.ShownCards) == 0 {
		return refs, rest
	}
	words := cutAll(rest, verbs)
	p := pickShown(words, m.st, several)
	if len(p.refs) == 0 {
		return nil, rest
	}
	if q, _, ok := extractQty(words); ok && p.n == 0 { // "add 2 of the cheapest": the quantity, for the caller
		return p.refs, []string{strconv.Itoa(q)}
	}
	return p.refs, nil
}

// refIntent matches a keyword plus a product reference; with no reference
// the product in focus is meant ("something like this", "отзывы").
func refIntent(m *parseMsg, kind Kind, keywords phrases, bareOK bool) (Intent, bool) {
	if !hasPhrase(m.toks, keywords) {
		return Intent{}, false
	}
	refs, rest := m.shownRefs(keywords, false)
	if len(refs) == 0 {
		rest = cutAll(cutAll(rest, keywords), vFiller)
		if !bareOK || len(rest) > 0 {
			return Intent{}, false
		}
		refs = []Ref{{Focus: true}}
	}
	return Intent{Kind: kind, Refs: refs[:1]}, true
}

func matchSimilar(m *parseMsg) (Intent, bool) { return refIntent(m, IntentSimilar, vSimilar, true) }
func matchAvailability(m *parseMsg) (Intent, bool) {
	return refIntent(m, IntentAvailability, vAvailability, false)
}

func matchDetails(m *parseMsg) (Intent, bool) {
	if in, ok := refIntent(m, IntentDetails, vDetails, true); ok {
		return in, true
	}
	// A bare reference ("the second one", "второй", "which is the
	// cheapest?") asks about it.
	refs, rest := extractRefs(m.toks, false)
	if len(refs) == 0 && hasPhrase(m.toks, vPointing) {
		refs, rest = m.shownRefs(nil, false)
	}
	if len(refs) > 0 && len(cutAll(rest, vFiller)) == 0 && !refs[0].Focus {
		return Intent{Kind: IntentDetails, Refs: refs[:1]}, true
	}
	return Intent{}, false
}

// matchClearCart: "clear my cart", "очисти корзину" (but not "is my cart
// empty?": the verb comes first).
func matchClearCart(m *parseMsg) (Intent, bool) {
	rest := cutAll(m.toks, vPolite)
	if len(rest) > 1 && startsWithPhrase(rest, vClear) && hasPhrase(rest, vCartWord) {
		return Intent{Kind: IntentClearCart}, true
	}
	return Intent{}, false
}

func matchRemove(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vRemove) && !(hasPhrase(m.toks, ph("take")) && hasPhrase(m.toks, ph("out"))) {
		return Intent{}, false
	}
	refs, rest := extractRefs(m.toks, false)
	qty, rest, _ := extractQty(rest)
	if len(refs) > 0 {
		return Intent{Kind: IntentRemove, Refs: refs[:min(len(refs), MaxRefsPerAction)], Qty: qty}, true
	}
	name := cutAll(cutAll(cutAll(cutAll(rest, vRemove), vCartWord), vFiller), ph("take|out|actually|из|those|these"))
	return Intent{Kind: IntentRemove, Query: queryOf(name), Qty: qty}, true
}

// matchSetQty: "change the first to 3", "make it 3", "измени второй на 2".
func matchSetQty(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vSetVerb) {
		return Intent{}, false
	}
	refs, rest := extractRefs(m.toks, false)
	qty, rest, ok := extractQty(rest)
	if !ok || len(cutAll(cutAll(cutAll(rest, vSetVerb), vFiller), ph("pcs|pieces|units|шт|штук|штуки"))) > 0 && len(refs) == 0 {
		return Intent{}, false
	}
	if len(refs) == 0 { // "make that 3": the product in focus
		refs = []Ref{{Focus: true}}
	}
	return Intent{Kind: IntentSetQty, Refs: refs[:1], Qty: qty}, true
}

// matchAdd: "add 2 of the first one", "добавь второй", "add running
// shoes", "I'll take it", "первый в корзину".
func matchAdd(m *parseMsg) (Intent, bool) {
	verb := hasPhrase(m.toks, vAdd)
	if !verb && !hasPhrase(m.toks, vBuy) && !hasPhrase(m.toks, vToCart) {
		return Intent{}, false
	}
	if r, _ := extractRefs(m.toks, false); len(r) == 0 && (verb || hasPhrase(m.toks, vToCart)) {
		if items := listItems(m); len(items) > 1 { // cartlist.go
			return Intent{Kind: IntentAddByName, Items: items}, true
		}
	}
	refs, rest := m.shownRefs(ph("add|buy|take|get|order|purchase|want|i'll|ill|give|put|to|into|in|cart|basket|my|"+
		"добав*|полож*|докинь|закинь|купи*|куплю|беру|возьм*|закаж*|хочу|в|корзин*"), false)
	if !verb && len(refs) == 0 {
		if qty, ok := takeThose(m); ok { // cartlist.go: "I'll take three of those"
			return Intent{Kind: IntentAdd, Refs: []Ref{{Focus: true}}, Qty: qty}, true
		}
	}
	if !verb && !(len(refs) > 0 && (hasPhrase(m.toks, vBuy) || hasPhrase(m.toks, vToCart))) {
		return Intent{}, false
	}
	qty, rest, _ := extractQty(rest)
	if len(refs) > 0 {
		return Intent{Kind: IntentAdd, Refs: refs[:min(len(refs), MaxRefsPerAction)], Qty: qty}, true
	}
	name, sort, _ := cutSuperlative(cutAll(cutAll(rest, vAdd), vToCart))
	name = cutAll(name, vFiller)
	if len(name) == 0 {
		return Intent{Kind: IntentAdd, Refs: []Ref{{Focus: true}}, Qty: qty}, true
	}
	// "add the cheapest dog food": the cheapest of the dog foods.
	return Intent{Kind: IntentAddByName, Query: queryOf(name), Sort: sort, Qty: qty}, true
}

func matchOrders(m *parseMsg) (Intent, bool) {
	number := orderNumber(m.toks)
	if number == "" && (!hasPhrase(m.toks, vOrders) || hasPhrase(m.toks, vCheckout)) {
		return Intent{}, false
	}
	return Intent{Kind: IntentOrders, Order: number}, true
}

func matchCheckout(m *parseMsg) (Intent, bool) {
	return Intent{Kind: IntentCheckout}, hasPhrase(m.toks, vCheckout)
}

func matchCart(m *parseMsg) (Intent, bool) {
	return Intent{Kind: IntentCart}, hasPhrase(m.toks, vCartWord)
}

func matchCategories(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vCategories) {
		return Intent{}, false
	}
	parent := cutAll(cutAll(m.toks, vCategories), vFiller)
	return Intent{Kind: IntentCategories, Query: queryOf(parent)}, true
}

func matchHuman(m *parseMsg) (Intent, bool) {
	return Intent{Kind: IntentHuman, Value: m.raw}, hasPhrase(m.toks, vHuman)
}

// matchOneMore: "one more", "another one", "ещё одну": the product in
// focus (the one just added) once more.
func matchOneMore(m *parseMsg) (Intent, bool) {
	qty, rest, ok := extractQty(cutAll(m.toks, vPolite))
	rest = cutAll(rest, vRefFiller)
	if !ok {
		qty = 1
	}
	switch {
	case len(rest) == 1 && (rest[0] == "another" || ok && rest[0] == "more"):
	case len(rest) == 1 && ok && (rest[0] == "еще" || rest[0] == "ещё"):
	default:
		return Intent{}, false
	}
	return Intent{Kind: IntentAdd, Refs: []Ref{{Focus: true}}, Qty: qty}, true
}

// matchMore: "show more", "next page", "any others?", "ещё": the next
// page of the last search.
func matchMore(m *parseMsg) (Intent, bool) {
	rest := cutAll(cutAll(m.toks, vPolite), vMoreFiller)
	if len(rest) == 0 || !allIn(rest, vMore) {
		return Intent{}, false
	}
	return Intent{Kind: IntentMore}, true
}

// matchPopular: "what's popular" lists the best sellers; "popular
// headphones" is left to the search, sorted by popularity.
func matchPopular(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vPopular) {
		return Intent{}, false
	}
	rest := cutAll(cutAll(cutAll(m.toks, vPopular), vPopularFiller), vFiller)
	return Intent{Kind: IntentPopular}, len(rest) == 0
}

func matchShoppingList(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vShoppingList) {
		return Intent{}, false
	}
	in := Intent{Kind: IntentShoppingList, Days: daysIn(m.toks)}
	if i := findAny(m.toks, vBudget); i >= 0 {
		in.Budget, _, _ = analysis.AmountAt(m.toks, i+1)
	}
	return in, true
}

func matchStats(m *parseMsg) (Intent, bool) {
	return Intent{Kind: IntentStats, Days: daysIn(m.toks)}, hasPhrase(m.toks, vStats)
}

// matchSmallTalk: greetings, help, thanks and bare yes/no, when nothing
// else is said.
func matchSmallTalk(m *parseMsg) (Intent, bool) {
	rest := cutAll(m.toks, vPolite)
	for _, c := range []struct {
		kind  Kind
		words phrases
	}{{IntentGreeting, vGreeting}, {IntentHelp, vHelp}, {IntentThanks, vThanks}, {IntentHelp, vYes}, {IntentHelp, vNo}, {IntentCancel, vCancel}} {
		if len(rest) > 0 && allIn(rest, c.words) {
			return Intent{Kind: c.kind}, true
		}
	}
	return Intent{}, false
}

// matchSearch is the fallback: price limits and sort hints become filters,
// filler words go, the rest is the query. Nothing left at all is a request
// for help.
func matchSearch(m *parseMsg) Intent {
	in := Intent{Kind: IntentSearch}
	toks, prices := analysis.CutPrices(negatedFloors(m.toks))
	in.MinPrice, in.MaxPrice = prices.Min, prices.Max
	toks = extractSort(toks, &in)
	words := cutAll(cutAll(toks, vFiller), vGreeting)
	if soft := cutAll(cutConversation(words), vFiller); len(soft) > 0 {
		words = soft // "um do u guys have yoga mats", "gift for my 8 yr old nephew, he's into space"
	}
	in.Query = queryOf(words)
	if in.Query == "" && in.MinPrice == 0 && in.MaxPrice == 0 && in.Sort == "" {
		return Intent{Kind: IntentHelp}
	}
	return in
}
