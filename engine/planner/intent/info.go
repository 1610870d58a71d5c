package intent

import (
	"slices"
	"strings"

	"shopbot/catalog/clip"
	"shopbot/catalog/search/analysis"
)

// Questions about the shop itself (returns, shipping and where it ships,
// payment, warranty, contact, about): the words that make a message one.
// The planner's info.go answers them from the shop's pages.

// IntentInfo is a question about the shop; Query is the question.
const IntentInfo Kind = "info"

// infoTopics are the words (a trailing * matches any ending) that make a
// message about the shop's policies when it is a question or is made of
// them alone. Several-word entries must appear in order.
var infoTopics = infoPhrases(
	// returns
	"return*", "refund*", "exchang*", "send it back", "send something back", "send back", "arrived damaged", "wrong item",
	"send them back", "send this back", "take it back", "take them back", "doesn't fit", "doesnt fit", "don't fit",
	"dont fit", "does not fit", "do not fit", "arrive* broken", "arrive* damaged", "came broken", "broken", "damaged",
	"breaks", "broke", "stops working", "stopped working", "faulty", "defective", "не подойд*", "не подошл*",
	"не понрав*", "сломал*", "сломан*", "поврежд*", "брак*", "не работает", "перестал*", "возврат*", "вернут*", "вернуть", "верну", "обмен*",
	// shipping
	"ship", "ships", "shipping", "shipped", "deliver*", "postage", "courier", "customs", "duties",
	"доставк*", "доставл*", "доставит*", "доставят", "отправляете", "пошлин*", "курьер*",
	"express shipping", "express delivery", "for express", "pickup", "pick up", "click and collect", "collect", "самовывоз*",
	// payment
	"payment*", "paypal", "visa", "mastercard", "invoice*", "pay with", "pay by", "can i pay", "apple pay", "google pay",
	"accept", "card charged", "charged", "charge my card", "take the money", "take my money",
	"оплат*", "платеж*", "заплатить", "спиш*", "списыва*", "снимут деньги", "снимаете деньги",
	// warranty
	"warrant*", "guarantee*", "гаранти*",
	// contact and about
	"contact*", "phone number", "call you", "email you", "e-mail you", "your email", "your address", "opening hours",
	"контакт*", "связаться", "номер телефона", "ваш телефон", "позвонить", "about you", "about your shop", "about the shop",
	"who are you", "о магазине", "о вас",
)

// infoQuestion marks a question; infoFiller are the words a bare topic
// ("shipping?", "return policy", "условия доставки") may come with.
var (
	infoQuestion = infoPhrases("if", "what if", "если", "what*", "how", "do", "does", "can", "could", "is", "are", "where", "when", "which",
		"any", "tell", "как", "какой", "какая", "какие", "каковы", "сколько", "скока", "скоко", "можно", "ли", "где", "когда", "что", "а")
	infoFiller = infoPhrases("policy", "policies", "info", "information", "terms", "your", "the", "my", "a",
		"политика", "условия", "информация", "ваша", "ваши", "про", "и")
)

// matchInfo recognizes a question about the shop.
func matchInfo(m *parseMsg) (Intent, bool) {
	if !infoTopics.in(m.toks) {
		return Intent{}, false
	}
	bare := true
	for i := 0; i < len(m.toks); i++ {
		if n := max(infoTopics.at(m.toks, i), infoFiller.at(m.toks, i)); n > 0 {
			i += n - 1
			continue
		}
		bare = false
	}
	asked := strings.Contains(m.raw, "?") || infoQuestion.at(m.toks, 0) > 0 || slices.Contains(m.toks, "ли")
	if !bare && !asked {
		return Intent{}, false
	}
	q := analysis.CleanText(m.raw)
	for _, h := range infoHints {
		if h.when.in(m.toks) {
			q += " " + h.add
		}
	}
	said := clip.Runes(analysis.CleanText(m.raw), 200)
	return Intent{Kind: IntentInfo, Query: strings.TrimSpace(clip.Runes(q, 200)), About: said}, true
}

// infoHints add the words a page would use for what a question asks in
// other words: "how much" is a cost, "contact you" an e-mail or a phone.
var infoHints = []struct {
	when infoPhraseList
	add  string
}{
	{infoPhrases("how much", "price*", "сколько стоит", "сколько стоят", "цена", "цены"), "cost стоимость"},
	{infoPhrases("contact*", "reach you", "связаться", "контакт*"), "e-mail phone телефон"},
	{infoPhrases("how long", "when will", "сколько идет", "как долго", "срок*"), "business days дней"},
	{infoPhrases("send back", "send it back", "send something back", "send them back", "take it back", "take them back",
		"doesn't fit", "doesnt fit", "don't fit", "dont fit", "не подойд*", "не подошл*", "не понрав*"), "return refund"},
	{infoPhrases("doesn't fit", "doesnt fit", "don't fit", "dont fit", "does not fit", "do not fit", "не подойд*",
		"не подошл*", "не понрав*"), "within days of delivery в течение дней"},
	{infoPhrases("arrive* broken", "arrive* damaged", "came broken", "damaged", "wrong item", "поврежд*", "пришел сломан*",
		"пришел с брак*", "брак*"), "damaged or wrong items replacement повреждён"},
	{infoPhrases("breaks", "broke", "stops working", "stopped working", "faulty", "defective", "сломал*", "перестал*",
		"не работает"), "warranty гарантия"},
	{infoPhrases("opening hours", "hours", "when are you open"), "team answers Monday to Friday"},
	{infoPhrases("when do you take", "take the money", "take my money", "charge my card", "спиш*", "списыва*", "снимут деньги"),
		"charged when it ships списываются при отправке"},
	{infoPhrases("скока", "скоко"), "cost стоимость"},
	{infoPhrases("how long do i have", "how many days", "сколько дней"), "within days в течение дней"},
	{infoPhrases("оплат*", "платеж*", "способ* оплаты", "accept"), "принимаем карты we accept"},
}

// infoPhrase is a run of words; a word ending in * matches any ending.
type infoPhrase []string

type infoPhraseList []infoPhrase

func infoPhrases(ps ...string) infoPhraseList {
	out := make(infoPhraseList, len(ps))
	for i, p := range ps {
		out[i] = strings.Fields(p)
	}
	return out
}

// at returns the length of the longest phrase at toks[i], or 0.
func (l infoPhraseList) at(toks []string, i int) int {
	best := 0
	for _, p := range l {
		if len(p) <= best || i+len(p) > len(toks) {
			continue
		}
		ok := true
		for j, w := range p {
			stem, prefix := strings.CutSuffix(w, "*")
			ok = ok && (toks[i+j] == w || prefix && strings.HasPrefix(toks[i+j], stem))
		}
		if ok {
			best = len(p)
		}
	}
	return best
}

func (l infoPhraseList) in(toks []string) bool {
	for i := range toks {
		if l.at(toks, i) > 0 {
			return true
		}
	}
	return false
}
