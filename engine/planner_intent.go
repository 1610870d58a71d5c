package engine

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The offline planner's intent parser: pure functions from a message (and
// the conversation's memory) to an Intent. It is a list of small matchers
// tried in order; whatever none of them claims is a product search. The
// vocabulary is at the end of the file, one table per idea, English and
// Russian side by side.

// IntentKind names what a message asks for.
type IntentKind string

const (
	IntentSearch       IntentKind = "search"        // Query, MinPrice, MaxPrice, Sort
	IntentAdd          IntentKind = "add"           // Refs, Qty of each
	IntentAddByName    IntentKind = "add_by_name"   // Query, Qty
	IntentRemove       IntentKind = "remove"        // Refs, or Query (a title in the cart)
	IntentSetQty       IntentKind = "set_qty"       // Refs[0], Qty
	IntentClearCart    IntentKind = "clear_cart"    //
	IntentCart         IntentKind = "cart"          //
	IntentCheckout     IntentKind = "checkout"      //
	IntentField        IntentKind = "field"         // Field, Value: a checkout detail
	IntentConfirm      IntentKind = "confirm"       // yes to the checkout summary
	IntentCancel       IntentKind = "cancel"        // abandons the checkout
	IntentOrders       IntentKind = "orders"        // Order (optional)
	IntentCategories   IntentKind = "categories"    // Query: the parent (optional)
	IntentPopular      IntentKind = "popular"       // best sellers of the whole shop
	IntentDetails      IntentKind = "details"       // Refs[0]
	IntentSimilar      IntentKind = "similar"       // Refs[0]
	IntentCompare      IntentKind = "compare"       // Refs (none: everything shown)
	IntentAvailability IntentKind = "availability"  // Refs[0]
	IntentReviews      IntentKind = "reviews"       // Refs[0]
	IntentShoppingList IntentKind = "shopping_list" // Days, Budget
	IntentStats        IntentKind = "stats"         // Days
	IntentHuman        IntentKind = "human"         // Value: the message, as the reason
	IntentHelp         IntentKind = "help"          // Topic "own_data": a request about someone else
	IntentGreeting     IntentKind = "greeting"      //
	IntentThanks       IntentKind = "thanks"        //
	IntentRefuse       IntentKind = "refuse"        // Topic "shop_data": prices, stock, reviews are not ours to change
)

// Intent is one parsed message.
type Intent struct {
	Kind     IntentKind
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
	st   *State
}

// maxTokens bounds the words the parser looks at.
const maxTokens = 80

// ParseIntent reads one message. locale (the platform's, e.g. "ru-RU")
// decides the language of messages without letters; st may be nil.
func ParseIntent(text, locale string, st *State) Intent {
	if st == nil {
		st = &State{}
	}
	m := &parseMsg{raw: strings.TrimSpace(text), toks: tokenize(text), st: st}
	m.lang = detectLang(m.raw, locale, capturing(st))
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
	matchShopData, matchCompare, matchSimilar, matchReviews, matchAvailability,
	matchClearCart, matchRemove, matchSetQty, matchAdd, matchDetails,
	matchShoppingList, matchStats, matchOrders, matchCheckout, matchCart,
	matchCategories, matchHuman, matchPopular, matchSmallTalk,
}

func capturing(st *State) bool {
	if st == nil || st.Checkout == nil {
		return false
	}
	switch st.Checkout.Awaiting {
	case "name", "phone", "address":
		return true
	}
	return false
}

// detectLang: Cyrillic means Russian; Latin letters mean English, except a
// contact detail typed in a Russian conversation; no letters at all follow
// the platform locale.
func detectLang(text, locale string, capture bool) string {
	latin := false
	for _, r := range text {
		if unicode.Is(unicode.Cyrillic, r) {
			return "ru"
		}
		latin = latin || unicode.IsLetter(r)
	}
	ru := strings.HasPrefix(strings.ToLower(locale), "ru")
	if ru && (!latin || capture) {
		return "ru"
	}
	return "en"
}

// tokenize lower-cases text and splits it into words, keeping the marks
// prices and order numbers need ($, ₽, -, ., ,).
func tokenize(text string) []string {
	text = strings.NewReplacer("ё", "е", "Ё", "е", "’", "'", "`", "'", "×", "x", "–", "-", "—", "-").Replace(strings.ToLower(text))
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("$₽€£#№.,-'+<>", r)
	})
	var out []string
	for _, f := range fields {
		if f = strings.Trim(f, ".,-'+"); f != "" && len(out) < maxTokens {
			out = append(out, f)
		}
	}
	return out
}

// matchCapture reads a message while checkout waits for a contact detail:
// it is that detail, unless it is plainly a command.
func matchCapture(m *parseMsg) Intent {
	if in, ok := matchCommand(m); ok {
		return in
	}
	field := m.st.Checkout.Awaiting
	return Intent{Kind: IntentField, Field: field, Value: cutFieldPrefix(m.raw, field)}
}

// fieldPrefixes are lead-ins shoppers type before a contact detail.
var fieldPrefixes = map[string][]string{
	"name":    {"my name is", "name", "меня зовут", "моё имя", "мое имя", "имя"},
	"phone":   {"my phone number is", "my phone is", "my number is", "phone", "мой телефон", "мой номер", "телефон", "тел"},
	"address": {"my address is", "ship to", "deliver to", "address", "мой адрес", "адрес доставки", "адрес"},
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

// accountNumber finds "user 42", "customer #7", "user id 42",
// "пользователя номер 5": an account named by its number.
func accountNumber(toks []string) bool {
	for i := range toks {
		n := matchLen(toks, i, vAccount)
		if n == 0 {
			continue
		}
		j := i + n
		if j < len(toks) && vNumberWord[toks[j]] {
			j++
		}
		if j < len(toks) && isNumber(strings.TrimLeft(toks[j], "#№")) {
			return true
		}
	}
	return false
}

// matchShopData refuses requests to change prices, stock or reviews: no
// tool writes them.
func matchShopData(m *parseMsg) (Intent, bool) {
	if (hasPhrase(m.toks, vSetVerb) && hasPhrase(m.toks, vShopData)) || hasPhrase(m.toks, vFreebie) {
		return Intent{Kind: IntentRefuse, Topic: "shop_data"}, true
	}
	return Intent{}, false
}

func matchCompare(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vCompare) {
		return Intent{}, false
	}
	refs, _ := extractRefs(m.toks, true)
	return Intent{Kind: IntentCompare, Refs: refs}, true
}

// refIntent matches a keyword plus a product reference; with no reference
// the product in focus is meant ("something like this", "отзывы").
func refIntent(m *parseMsg, kind IntentKind, keywords phrases, bareOK bool) (Intent, bool) {
	if !hasPhrase(m.toks, keywords) {
		return Intent{}, false
	}
	refs, rest := extractRefs(m.toks, false)
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
func matchReviews(m *parseMsg) (Intent, bool) { return refIntent(m, IntentReviews, vReviews, true) }
func matchAvailability(m *parseMsg) (Intent, bool) {
	return refIntent(m, IntentAvailability, vAvailability, false)
}

func matchDetails(m *parseMsg) (Intent, bool) {
	if in, ok := refIntent(m, IntentDetails, vDetails, true); ok {
		return in, true
	}
	// A bare reference ("the second one", "второй") asks about it.
	refs, rest := extractRefs(m.toks, false)
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
	if !hasPhrase(m.toks, vRemove) {
		return Intent{}, false
	}
	refs, rest := extractRefs(m.toks, false)
	if len(refs) > 0 {
		return Intent{Kind: IntentRemove, Refs: refs[:min(len(refs), maxRefsPerAction)]}, true
	}
	name := cutAll(cutAll(cutAll(rest, vRemove), vCartWord), vFiller)
	return Intent{Kind: IntentRemove, Query: queryOf(name)}, true
}

// matchSetQty: "change the first to 3", "make it 3", "измени второй на 2".
func matchSetQty(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vSetVerb) {
		return Intent{}, false
	}
	refs, rest := extractRefs(m.toks, false)
	qty, _, ok := extractQty(rest)
	if len(refs) == 0 || !ok {
		return Intent{}, false
	}
	return Intent{Kind: IntentSetQty, Refs: refs[:1], Qty: qty}, true
}

// matchAdd: "add 2 of the first one", "добавь второй", "add running
// shoes", "I'll take it", "первый в корзину".
func matchAdd(m *parseMsg) (Intent, bool) {
	verb := hasPhrase(m.toks, vAdd)
	refs, rest := extractRefs(m.toks, false)
	if !verb && !(len(refs) > 0 && (hasPhrase(m.toks, vBuy) || hasPhrase(m.toks, vToCart))) {
		return Intent{}, false
	}
	qty, rest, _ := extractQty(rest)
	if len(refs) > 0 {
		return Intent{Kind: IntentAdd, Refs: refs[:min(len(refs), maxRefsPerAction)], Qty: qty}, true
	}
	name := cutAll(cutAll(cutAll(rest, vAdd), vToCart), vFiller)
	if len(name) == 0 {
		return Intent{Kind: IntentAdd, Refs: []Ref{{Focus: true}}, Qty: qty}, true
	}
	return Intent{Kind: IntentAddByName, Query: queryOf(name), Qty: qty}, true
}

func matchOrders(m *parseMsg) (Intent, bool) {
	number := orderNumber(m.toks)
	if number == "" && (!hasPhrase(m.toks, vOrders) || hasPhrase(m.toks, vCheckout)) {
		return Intent{}, false
	}
	return Intent{Kind: IntentOrders, Order: number}, true
}

// orderNumber finds "SB-XXXXXXXX" in the message.
func orderNumber(toks []string) string {
	for _, t := range toks {
		if rest, ok := strings.CutPrefix(t, "sb-"); ok && len(rest) >= 4 && len(rest) <= 16 && isAlnum(rest) {
			return "SB-" + strings.ToUpper(rest)
		}
	}
	return ""
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

// matchPopular: "what's popular" lists the best sellers; "popular
// headphones" is left to the search, sorted by popularity.
func matchPopular(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vPopular) {
		return Intent{}, false
	}
	rest := cutAll(cutAll(m.toks, vPopular), vFiller)
	return Intent{Kind: IntentPopular}, len(rest) == 0
}

func matchShoppingList(m *parseMsg) (Intent, bool) {
	if !hasPhrase(m.toks, vShoppingList) {
		return Intent{}, false
	}
	in := Intent{Kind: IntentShoppingList, Days: daysIn(m.toks)}
	if i := findAny(m.toks, vBudget); i >= 0 {
		in.Budget, _, _ = amountAt(m.toks, i+1)
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
		kind  IntentKind
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
	toks := extractPrices(m.toks, &in)
	toks = extractSort(toks, &in)
	words := cutAll(cutAll(toks, vFiller), vGreeting)
	in.Query = queryOf(words)
	if in.Query == "" && in.MinPrice == 0 && in.MaxPrice == 0 && in.Sort == "" {
		return Intent{Kind: IntentHelp}
	}
	return in
}

// maxQueryRunes keeps a query well inside search_products' 200 characters.
const maxQueryRunes = 100

func queryOf(words []string) string {
	return truncateRunes(strings.Join(words, " "), maxQueryRunes)
}

func truncateRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n]))
	}
	return s
}

func isAlnum(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return s != ""
}

func isNumber(t string) bool {
	_, err := strconv.Atoi(t)
	return err == nil
}

// ---- slots: product references, quantities, prices, sort, periods ----

// extractRefs takes the product references out of toks: ordinals ("the
// second one", "второго", "#3"), "it"/"этот" (the focus) and, when digits
// is set, bare small numbers ("compare 1 and 3").
func extractRefs(toks []string, digits bool) (refs []Ref, rest []string) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		pos, ok := ordinalOf(t)
		if !ok && i+1 < len(toks) && vNumberWord[t] {
			if pos, ok = smallNumber(toks[i+1]); ok {
				i++
			}
		}
		if !ok && digits {
			pos, ok = smallNumber(t)
		}
		switch {
		case ok:
			refs = addRef(refs, Ref{Pos: pos})
			if i+1 < len(toks) && (toks[i+1] == "one" || toks[i+1] == "ones") {
				i++
			}
		case vFocus[t] || (t == "that" || t == "this") && i+1 < len(toks) && toks[i+1] == "one":
			refs = addRef(refs, Ref{Focus: true})
		default:
			rest = append(rest, t)
		}
	}
	return refs, rest
}

func addRef(refs []Ref, r Ref) []Ref {
	for _, have := range refs {
		if have == r {
			return refs
		}
	}
	return append(refs, r)
}

// maxRef is the most cards a tool shows at once.
const maxRef = 10

// maxRefsPerAction bounds the products one message adds or removes.
const maxRefsPerAction = 5

// ordinalOf reads "second", "2nd", "#2", "№2", "второй", "второго", "last".
func ordinalOf(t string) (int, bool) {
	if pos, ok := vOrdinalEN[t]; ok {
		return pos, true
	}
	if n, ok := strings.CutPrefix(t, "#"); ok {
		return smallNumber(n)
	}
	if n, ok := strings.CutPrefix(t, "№"); ok {
		return smallNumber(n)
	}
	for _, o := range vOrdinalRU {
		if rest, ok := strings.CutPrefix(t, o.stem); ok && vOrdinalEndRU[rest] {
			return o.pos, true
		}
	}
	return 0, false
}

func smallNumber(t string) (int, bool) {
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > maxRef {
		return 0, false
	}
	return n, true
}

// extractQty takes the first quantity out of toks: "2", "x2", "2шт",
// "two", "две". A unit word after it goes too.
func extractQty(toks []string) (qty int, rest []string, ok bool) {
	for i := 0; i < len(toks); i++ {
		n, found := qtyOf(toks[i])
		if !found || ok {
			rest = append(rest, toks[i])
			continue
		}
		qty, ok = n, true
		if i+1 < len(toks) && vUnit[toks[i+1]] {
			i++
		}
	}
	return qty, rest, ok
}

// maxQty is the largest number read as a quantity; the tools bound it
// further (99 per cart line).
const maxQty = 1000

func qtyOf(t string) (int, bool) {
	if n, ok := vNumberEN[t]; ok {
		return n, true
	}
	if n, ok := vNumberRU[t]; ok {
		return n, true
	}
	t = strings.TrimPrefix(t, "x")
	for _, u := range []string{"x", "шт", "pcs"} {
		t = strings.TrimSuffix(t, u)
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 || n > maxQty {
		return 0, false
	}
	return n, true
}

// extractPrices takes price limits out of toks: "under 100", "до 5000",
// "between 20 and 50", "от 20 до 50", "20-50", "<100".
func extractPrices(toks []string, in *Intent) []string {
	var rest []string
	for i := 0; i < len(toks); i++ {
		if n := priceAt(toks, i, in); n > 0 {
			i += n - 1
			continue
		}
		rest = append(rest, toks[i])
	}
	if in.MaxPrice > 0 && in.MinPrice > in.MaxPrice {
		in.MinPrice, in.MaxPrice = in.MaxPrice, in.MinPrice
	}
	return rest
}

// priceAt reads a price limit starting at toks[i] into in and returns how
// many words it took (0: none here).
func priceAt(toks []string, i int, in *Intent) int {
	if lo, hi, ok := rangeToken(toks[i]); ok {
		in.MinPrice, in.MaxPrice = lo, hi
		return 1
	}
	if n := matchLen(toks, i, vPriceMin); n > 0 {
		lo, k, ok := amountAt(toks, i+n)
		if !ok {
			return 0
		}
		in.MinPrice = lo
		if m := matchLen(toks, i+n+k, vPriceUpper); m > 0 {
			if hi, k2, ok := amountAt(toks, i+n+k+m); ok {
				in.MaxPrice = hi
				return n + k + m + k2
			}
		}
		return n + k
	}
	if n := matchLen(toks, i, vPriceMax); n > 0 {
		hi, k, ok := amountAt(toks, i+n)
		if !ok {
			return 0
		}
		in.MaxPrice = hi
		return n + k
	}
	return comparisonAt(toks[i], in)
}

// comparisonAt reads "<100" and ">50".
func comparisonAt(t string, in *Intent) int {
	dst := &in.MaxPrice
	v, ok := strings.CutPrefix(t, "<")
	if !ok {
		if v, ok = strings.CutPrefix(t, ">"); !ok {
			return 0
		}
		dst = &in.MinPrice
	}
	amount, ok := parseAmount(v)
	if !ok {
		return 0
	}
	*dst = amount
	return 1
}

// rangeToken reads "20-50" and "$20-$50".
func rangeToken(t string) (lo, hi float64, ok bool) {
	a, b, found := strings.Cut(t, "-")
	if !found {
		return 0, 0, false
	}
	lo, ok1 := parseAmount(a)
	hi, ok2 := parseAmount(b)
	if !ok1 || !ok2 || hi < lo {
		return 0, 0, false
	}
	return lo, hi, true
}

// amountAt reads an amount at toks[i]: "100", "$150", "5 000", "1,5k",
// with an optional currency word before or after. It returns the number
// of words used.
func amountAt(toks []string, i int) (v float64, n int, ok bool) {
	start := i
	if i < len(toks) && vCurrency[toks[i]] {
		i++
	}
	if i >= len(toks) {
		return 0, 0, false
	}
	if v, ok = parseAmount(toks[i]); !ok {
		return 0, 0, false
	}
	i++
	if i < len(toks) && len(toks[i]) == 3 && v >= 1 && v < 1000 && v == float64(int(v)) {
		if k, err := strconv.Atoi(toks[i]); err == nil { // "5 000"
			v, i = v*1000+float64(k), i+1
		}
	}
	if i < len(toks) && vCurrency[toks[i]] {
		i++
	}
	return v, i - start, true
}

// maxAmount bounds amounts well below what search_products accepts.
const maxAmount = 1e8

// parseAmount reads "150", "$150", "150$", "19.99", "19,99", "1,000",
// "5k", "5к", "5000₽".
func parseAmount(t string) (float64, bool) {
	t = strings.Trim(t, "$₽€£")
	for _, suffix := range []string{"usd", "руб", "р"} {
		t = strings.TrimSuffix(t, suffix)
	}
	mult := 1.0
	if s, ok := strings.CutSuffix(t, "k"); ok {
		t, mult = s, 1000
	} else if s, ok := strings.CutSuffix(t, "к"); ok {
		t, mult = s, 1000
	}
	if a, b, ok := strings.Cut(t, ","); ok {
		if len(b) == 3 && !strings.Contains(b, ",") && !strings.Contains(a, ".") {
			t = a + b // 1,000
		} else {
			t = a + "." + b // 19,99
		}
	}
	if t == "" || !isDecimal(t) {
		return 0, false
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v*mult > maxAmount {
		return 0, false
	}
	return v * mult, true
}

func isDecimal(t string) bool {
	dots := 0
	for _, r := range t {
		switch {
		case r == '.':
			dots++
		case r < '0' || r > '9':
			return false
		}
	}
	return dots <= 1 && t != "."
}

// extractSort takes a sort hint out of toks: "cheapest", "дешевле всего",
// "best rated", "popular".
func extractSort(toks []string, in *Intent) []string {
	for _, s := range sortHints {
		if hasPhrase(toks, s.words) {
			in.Sort = s.sort
			return cutAll(toks, s.words)
		}
	}
	return toks
}

// daysIn reads a period: "7 days", "на 3 дня", "a week", "за месяц".
func daysIn(toks []string) int {
	for i, t := range toks {
		d := periodOf(t)
		if d == 0 {
			continue
		}
		if i > 0 {
			if n, err := strconv.Atoi(toks[i-1]); err == nil && n > 0 && n <= 366 {
				return min(n*d, 366)
			}
		}
		return d
	}
	return 0
}

func periodOf(t string) int {
	for _, p := range vPeriod {
		if wordIs(t, p.word) {
			return p.days
		}
	}
	return 0
}

// ---- relaxing a query that found nothing ----

// relaxQuery loosens a query for a second try: English plurals and Russian
// endings are cut (the search matches substrings), numbers go, and a few
// common Russian shopping words become their English catalog words.
func relaxQuery(q string) string {
	var out, untranslated []string
	translated := false
	for _, w := range tokenize(q) {
		if _, err := strconv.ParseFloat(w, 64); err == nil {
			continue
		}
		if en := glossaryOf(w); en != "" {
			out, translated = append(out, en), true
			continue
		}
		if isCyrillic(w) {
			untranslated = append(untranslated, stemWord(w))
			continue
		}
		out = append(out, stemWord(w))
	}
	if !translated { // nothing to English: keep the Russian stems
		out = append(out, untranslated...)
	}
	return queryOf(out)
}

// stem cuts a plural or case ending; the search matches substrings, so a
// shorter stem only widens the match.
func stemWord(w string) string {
	r := []rune(w)
	if isCyrillic(w) {
		if len(r) < 5 {
			return w
		}
		for _, end := range ruEndings {
			if e := []rune(end); len(r)-len(e) >= 4 && strings.HasSuffix(w, end) {
				return string(r[:len(r)-len(e)])
			}
		}
		return w
	}
	switch {
	case len(r) > 4 && strings.HasSuffix(w, "ies"):
		return string(r[:len(r)-3])
	case len(r) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return string(r[:len(r)-1])
	}
	return w
}

var ruEndings = []string{"ами", "ями", "ого", "его", "ому", "ему", "ыми", "ими", "ов", "ев", "ей", "ий", "ый", "ой",
	"ая", "яя", "ое", "ее", "ые", "ие", "ам", "ям", "ах", "ях", "ом", "ем", "ую", "юю", "а", "я", "ы", "и", "у", "ю", "о", "е", "ь"}

func isCyrillic(w string) bool {
	for _, r := range w {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

func glossaryOf(w string) string {
	for _, g := range glossaryRU {
		if strings.HasPrefix(w, g.stem) {
			return g.en
		}
	}
	return ""
}

// glossaryRU maps Russian shopping words (by stem) to the words of the
// catalog, which is mostly in English. Longer stems come first.
var glossaryRU = []struct{ stem, en string }{
	{"кроссов", "running shoe"}, {"беговы", "running"}, {"кед", "sneaker"},
	{"ботин", "boot"}, {"сапог", "boot"}, {"сандал", "sandal"}, {"куртк", "jacket"}, {"дождевик", "rain jacket"},
	{"плать", "dress"}, {"джинс", "jeans"}, {"свитер", "sweater"}, {"футболк", "t-shirt"},
	{"наушник", "headphone"}, {"ноутбук", "laptop"}, {"фотоаппарат", "camera"}, {"камер", "camera"},
	{"кофеварк", "coffee maker"}, {"кофе", "coffee"}, {"чай", "tea"}, {"крем", "cream"}, {"шампун", "shampoo"},
	{"помад", "lipstick"}, {"парфюм", "fragrance"}, {"книг", "book"}, {"роман", "novel"},
	{"игрушк", "toy"}, {"конструктор", "building set"}, {"корм", "food"}, {"собак", "dog"}, {"кошк", "cat"}, {"кошек", "cat"},
	{"диван", "sofa"}, {"ламп", "lamp"}, {"свеч", "candle"}, {"сковород", "skillet"}, {"нож", "knife"},
	{"кружк", "mug"}, {"блокнот", "notebook"}, {"ручк", "pen"}, {"кресл", "chair"}, {"палатк", "tent"},
	{"рюкзак", "backpack"}, {"велосипед", "bike"}, {"йог", "yoga"}, {"водонепроницаем", "waterproof"},
	{"непромокаем", "waterproof"}, {"беспровод", "wireless"}, {"зимн", "winter"}, {"кожан", "leather"},
}

// titleHas reports whether title contains every word of name (stemmed).
func titleHas(title, name string) bool {
	words := tokenize(name)
	if len(words) == 0 {
		return false
	}
	title = strings.ReplaceAll(strings.ToLower(title), "ё", "е")
	for _, w := range words {
		if !strings.Contains(title, stemWord(w)) {
			return false
		}
	}
	return true
}

// ---- phrases ----

// phrases is a vocabulary list: each phrase is a list of words, and a word
// ending in "*" matches every word it begins. Longer phrases come first,
// so cutting prefers them.
type phrases [][]string

func ph(s string) phrases {
	var out phrases
	for _, p := range strings.Split(s, "|") {
		if w := strings.Fields(p); len(w) > 0 {
			out = append(out, w)
		}
	}
	slices.SortStableFunc(out, func(a, b []string) int { return len(b) - len(a) })
	return out
}

func wordIs(tok, w string) bool {
	if stem, ok := strings.CutSuffix(w, "*"); ok {
		return strings.HasPrefix(tok, stem)
	}
	return tok == w
}

// phraseAt reports whether phrase p occurs at toks[i].
func phraseAt(toks []string, i int, p []string) bool {
	if i < 0 || i+len(p) > len(toks) {
		return false
	}
	for j, w := range p {
		if !wordIs(toks[i+j], w) {
			return false
		}
	}
	return true
}

// matchLen is the length of the longest phrase of ps at toks[i], or 0.
func matchLen(toks []string, i int, ps phrases) int {
	for _, p := range ps {
		if phraseAt(toks, i, p) {
			return len(p)
		}
	}
	return 0
}

// findAny is the index of the first word that starts a phrase of ps, or -1.
func findAny(toks []string, ps phrases) int {
	for i := range toks {
		if matchLen(toks, i, ps) > 0 {
			return i
		}
	}
	return -1
}

func hasPhrase(toks []string, ps phrases) bool { return findAny(toks, ps) >= 0 }

func startsWithPhrase(toks []string, ps phrases) bool { return matchLen(toks, 0, ps) > 0 }

// cutAll removes every occurrence of the phrases of ps.
func cutAll(toks []string, ps phrases) []string {
	var out []string
	for i := 0; i < len(toks); i++ {
		if n := matchLen(toks, i, ps); n > 0 {
			i += n - 1
			continue
		}
		out = append(out, toks[i])
	}
	return out
}

// onlyPhrase reports whether toks is exactly one phrase of ps.
func onlyPhrase(toks []string, ps phrases) bool {
	return matchLen(toks, 0, ps) == len(toks) && len(toks) > 0
}

// allIn reports whether toks consists of phrases of ps only.
func allIn(toks []string, ps phrases) bool { return len(cutAll(toks, ps)) == 0 }

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// ---- vocabulary ----

// commands are what a message can be while checkout waits for a contact
// detail: the whole message, nothing else.
var commands = []struct {
	kind  IntentKind
	words phrases
}{
	{IntentCancel, vCancel},
	{IntentCart, ph("cart|basket|view cart|my cart|корзина|корзину|моя корзина")},
	{IntentCheckout, ph("checkout|оформить заказ")},
	{IntentOrders, ph("orders|my orders|мои заказы|заказы")},
	{IntentCategories, ph("categories|catalog|каталог|категории")},
	{IntentHelp, ph("help|помощь|help me|помогите")},
	{IntentHuman, ph("human|operator|talk to a human|оператор|позовите оператора")},
}

var sortHints = []struct {
	sort  string
	words phrases
}{
	{"price_asc", ph("cheapest|cheap|cheaper|lowest price|low price|least expensive|inexpensive|budget|affordable|" +
		"дешевле всего|подешевле|дешев*|недорог*|бюджетн*")},
	{"price_desc", ph("most expensive|expensive|priciest|highest price|premium|подороже|самые дорогие|дорог*")},
	{"rating", ph("best rated|top rated|highest rated|best reviewed|top-rated|best-rated|best|" +
		"с лучшим рейтингом|лучшим рейтингом|высоким рейтингом|с хорошими отзывами|лучш*|рейтинг*")},
	{"popular", ph("popular|most popular|bestselling|best selling|best-selling|bestsellers|bestseller|trending|" +
		"популярн*|хит|хиты|хитов|бестселлер*")},
}

var (
	vPolite = ph("please|pls|plz|just|can you|could you|would you|show me|show|me|my|the|a|now|" +
		"пожалуйста|покажи|покажите|мне|мою|мой|мои|ну|же|а")
	vYes = ph("yes|y|yeah|yep|yup|sure|ok|okay|confirm|confirmed|i confirm|correct|right|go ahead|do it|place it|" +
		"place the order|place order|looks good|да|ага|угу|конечно|подтверждаю|подтвердить|подтверди|верно|все верно|" +
		"правильно|ок|оформляй|давай")
	vNo     = ph("no|nope|nah|not now|don't|dont|нет|неа|не надо|не нужно")
	vCancel = ph("cancel|stop|abort|quit|never mind|nevermind|forget it|cancel checkout|cancel the order|" +
		"отмена|отмени|отменить|отменяю|стоп|передумал|передумала|не надо|хватит")

	vOverride    = ph("ignore|disregard|forget|override|bypass|игнорируй*|игнорир*|проигнорируй*|забудь")
	vRules       = ph("rules|rule|instructions|instruction|prompt|previous|above|guidelines|restrictions|policy|system|правил*|инструкц*|промпт*|ограничен*")
	vJailbreak   = ph("system prompt|developer mode|jailbreak|you are now|режим разработчика|ты теперь|притворись")
	vOtherPeople = ph("other user*|another user|another customer|other customer*|someone else*|somebody else*|all users|" +
		"all customers|every user|everyone's|admin|administrator|чуж*|другого пользовател*|другого клиент*|" +
		"других пользовател*|других клиент*|всех пользовател*|всех клиент*|админ*")
	vAccount = ph("user|users|customer|customers|client|account|shopper|userid|user_id|user id|customer id|" +
		"пользовател*|клиент*|покупател*|аккаунт*")

	vSetVerb = ph("set|change|update|make|edit|lower|reduce|raise|increase|decrease|modify|" +
		"установи*|постав*|измени*|поменя*|сделай|снизь|подними|уменьши|увеличь|исправь")
	vShopData = ph("price|prices|pricing|cost|costs|stock|inventory|rating|ratings|review|reviews|" +
		"цен*|стоимост*|склад*|остат*|рейтинг*|отзыв*")
	vFreebie = ph("for free|free of charge|100% off|discount|discounts|coupon|бесплатно|даром|скидк*|промокод*")

	vCompare      = ph("compare|comparison|versus|vs|difference between|differences|сравни*|сравнен*|разниц*|отличи*|отлича*")
	vSimilar      = ph("similar|like this|like that|like it|alternatives|alternative|something else|похож*|аналог*|подобн*|вроде этого|такое же|такой же|такие же")
	vReviews      = ph("review|reviews|what do people say|what people say|feedback|opinions|отзыв*|мнени*")
	vAvailability = ph("in stock|available|availability|how many left|how many are left|в наличии|наличи*|есть ли|остал*")
	vDetails      = ph("details|detail|more about|tell me about|tell me more|more info|info|information|describe|specs|" +
		"specifications|what is|подробн*|расскажи*|описани*|характеристик*|что за|инфо*")

	vClear    = ph("clear|empty|очисти*|очистить|опустош*")
	vRemove   = ph("remove|delete|take out|drop|get rid of|убер*|убра*|удали*|удалить|выкин*|исключи*")
	vAdd      = ph("add|добав*|полож*|докинь|закинь")
	vBuy      = ph("buy|take|i'll take|ill take|get|order|purchase|want|купи*|куплю|беру|возьм*|закаж*|хочу")
	vToCart   = ph("to cart|to the cart|to my cart|into cart|in cart|in the cart|into the cart|to basket|to the basket|в корзину")
	vCartWord = ph("cart|basket|trolley|корзин*")
	vCheckout = ph("checkout|check out|place order|place the order|place an order|place my order|complete order|" +
		"complete my order|complete the order|complete purchase|proceed to checkout|pay|оформ*|оплат*|заказать")
	vOrders = ph("orders|my order|order status|status of my order|where is my order|where's my order|track*|" +
		"заказы|мой заказ|мои заказы|статус заказа|где заказ|где мой заказ|моего заказа|моих заказов")
	vCategories = ph("categories|category|catalog|catalogue|departments|sections|what do you sell|what you sell|" +
		"каталог*|категори*|раздел*|что вы продаете|что продаете|что у вас есть")
	vHuman = ph("human|operator|real person|live person|live agent|a person|customer service|customer support|" +
		"support team|talk to someone|speak to someone|оператор*|живой человек|живого человека|с человеком|" +
		"позови человека|позовите человека|нужен человек|менеджер*|поддержк*|консультант*")
	vPopular  = ph("popular|most popular|bestsellers|bestseller|best sellers|best seller|best selling|best-selling|top selling|top sellers|top-selling|trending|what's hot|популярн*|хит|хиты|хитов|бестселлер*|топ продаж|что покупают|чаще всего покупают")
	vPriceMin = ph("over|above|more than|at least|from|min|minimum|starting at|starting from|between|" +
		"от|дороже|больше|выше|минимум|не дешевле|между")
	vPriceUpper = ph("and|to|до|и|по")
	vPriceMax   = ph("under|below|less than|cheaper than|up to|upto|max|maximum|at most|no more than|not more than|" +
		"within|for less than|до|дешевле|меньше|не дороже|не больше|максимум|макс|в пределах|ниже")
	vShoppingList = ph("shopping list|grocery list|список покупок|список продуктов")
	vBudget       = ph("budget|under|up to|within|max|бюджет*|до|в пределах")
	vStats        = ph("statistics|stats|spending|how much did i spend|how much have i spent|purchase history|статистик*|сколько я потратил*|мои расходы|расходы")

	vGreeting = ph("hi|hello|hey|hiya|good morning|good afternoon|good evening|howdy|start|" +
		"привет|здравствуй*|добрый день|добрый вечер|доброе утро|хай|салют")
	vHelp   = ph("help|help me|what can you do|how does this work|how does it work|commands|menu|помощь|помоги*|что ты умеешь|что умеешь|команды|меню")
	vThanks = ph("thanks|thank you|thx|ty|cheers|great|спасибо|благодарю|спс|отлично|супер")

	vFiller = ph("show me|show|me|i|i'm|im|i'd|want|wanna|need|would|like|looking|look|for|find|search|searching|get|" +
		"got|have|has|do|does|you|your|any|some|a|an|the|of|with|in|on|at|to|and|or|can|could|please|pls|something|" +
		"anything|items|item|products|product|stuff|options|what|what's|whats|which|there|are|is|it|it's|one|ones|from|" +
		"about|this|that|these|those|be|let|let's|see|most|my|more|" +
		"покажи|покажите|показать|хочу|хотел|хотела|хотим|бы|найди|найдите|найти|ищу|поищи|нужны|нужен|нужна|нужно|" +
		"надо|есть|ли|у|вас|мне|пожалуйста|какие|какой|какая|какое|подбери|посоветуй*|что-нибудь|что-то|что|товары|" +
		"товар|для|и|в|с|на|по|из|о|об|про|а|же|мой|мою|мои|можно|еще|то|так|вот|там|самые|самый|самая|самое")
)

var (
	vFocus      = wordSet("it this этот эту это этого этому этом его ее него нее ней этой")
	vNumberWord = wordSet("number num no item id номер товар позиция позицию")
	vUnit       = wordSet("pcs pieces piece units unit x шт штук штуки штука of")
	vCurrency   = wordSet("$ usd dollars dollar bucks ₽ руб рублей рубля рубль р eur euro euros евро долларов доллара баксов")
	vOrdinalEN  = map[string]int{
		"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5,
		"sixth": 6, "6th": 6, "seventh": 7, "7th": 7, "eighth": 8, "8th": 8, "ninth": 9, "9th": 9, "tenth": 10, "10th": 10,
		"last": -1,
	}
	vOrdinalRU = []struct {
		stem string
		pos  int
	}{
		{"перв", 1}, {"втор", 2}, {"трет", 3}, {"четверт", 4}, {"пят", 5}, {"шест", 6}, {"седьм", 7},
		{"восьм", 8}, {"девят", 9}, {"десят", 10}, {"последн", -1},
	}
	vOrdinalEndRU = wordSet("ый ой ий ая ое ее ую юю ого его ому ему ом ем ые ие ых их ья ье ью ьего ьему ьем ей яя")
	vNumberEN     = map[string]int{
		"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
		"couple": 2, "pair": 2, "dozen": 12,
	}
	vNumberRU = map[string]int{
		"один": 1, "одну": 1, "одна": 1, "одного": 1, "два": 2, "две": 2, "двух": 2, "три": 3, "трех": 3,
		"четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "пару": 2,
	}
	vPeriod = []struct {
		word string
		days int
	}{
		{"day", 1}, {"days", 1}, {"week", 7}, {"weeks", 7}, {"month", 30}, {"months", 30}, {"year", 365},
		{"дн*", 1}, {"день", 1}, {"сутки", 1}, {"недел*", 7}, {"месяц*", 30}, {"год", 365}, {"года", 365}, {"лет", 365},
	}
)
