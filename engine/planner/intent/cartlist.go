package intent

import (
	"regexp"
	"strings"

	"shopbot/catalog/search/analysis"
)

// Cart commands with several items or a quantity of what was shown
// (issue 30): "put rice, beans and oil in my cart" adds each; "I'll take
// three of those", «беру две» add that many of the product in focus;
// "and some granola bars too" right after an add adds those as well.

// listSplit separates the items of a list command. Go's \b knows only
// ASCII letters, so the Russian words are bounded by spaces.
var listSplit = regexp.MustCompile(`(?i)\s*(?:,|;|\+|&|\band\b|\bplus\b)\s*|\s+(?:и|а также)\s+`)

// listItems are the products a list command names, each with its own
// words, or nil when it names fewer than two.
func listItems(m *parseMsg) []string {
	if !strings.ContainsAny(m.raw, ",;+&") && !hasPhrase(m.toks, ph("and|plus|и")) {
		return nil
	}
	var items []string
	for _, part := range listSplit.Split(m.raw, -1) {
		toks := cutAll(cutAll(cutAll(cutAll(analysis.Tokenize(part), vAdd), vToCart), vFiller), ph("put|cart|basket|корзин*|too|also|тоже|еще|ещё"))
		if len(toks) > 0 {
			items = append(items, queryOf(toks))
		}
	}
	if len(items) < 2 {
		return nil
	}
	return items
}

// vThose are the words pointing at what was just shown.
var vThose = ph("those|these|them|that|this|it|one|ones|of|of those|of them|of these|штук|штуки|штука|шт|пачки|пачек|" +
	"упаковки|их|такие|таких|такой|этих|эти|его|ее|её")

// takeThose reads "I'll take three of those", «беру две», «возьму две
// штуки»: a buying verb, a quantity and nothing but pointing words.
func takeThose(m *parseMsg) (int, bool) {
	if !hasPhrase(m.toks, vBuy) || len(m.st.Shown) == 0 {
		return 0, false
	}
	qty, rest, ok := extractQty(cutAll(cutAll(m.toks, vBuy), vPolite))
	if !ok || qty <= 0 {
		return 0, false
	}
	if len(cutAll(cutAll(cutAll(rest, vThose), vFiller), ph("i|ill|i'll|will|гда|я|давай*"))) > 0 {
		return 0, false
	}
	return qty, true
}

// PendingAdded marks State.Pending after an add: the next message may add
// more ("and some granola bars too", «и ещё гречку»).
const PendingAdded = "added"

var (
	vAlso     = ph("too|also|as well|as well as|plus|тоже|также|еще|ещё")
	vAlsoLead = ph("and|and also|also|plus|и|и еще|и ещё|а еще|а ещё|ещё|еще")
)

// matchAlsoAdd reads "and some granola bars too" right after an add as
// another add, by name.
func matchAlsoAdd(m *parseMsg) (Intent, bool) {
	if m.st.Pending != PendingAdded || !hasPhrase(m.toks, vAlso) || hasPhrase(m.toks, vMore) && len(m.toks) < 3 {
		return Intent{}, false
	}
	qty, rest, _ := extractQty(cutAll(cutAll(m.toks, vAlsoLead), vAlso))
	name := cutAll(cutAll(rest, vFiller), vPolite)
	if len(name) == 0 {
		return Intent{}, false
	}
	return Intent{Kind: IntentAddByName, Query: queryOf(name), Qty: qty}, true
}
