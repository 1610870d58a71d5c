package intent

import (
	"maps"
	"slices"
	"strings"

	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
)

// Follow-ups that narrow the last list (issue 30): after a search, a short
// message that changes one constraint ("anything cheaper?", "got it in
// green?", "what about for women", "just the Parkside ones", «а
// подешевле?», «а до 700?») runs that search again with the constraint
// changed, instead of searching for its words. Every word of the message
// must be a constraint or a lead-in, so a new product ("and a tent?") is
// still a new search.

// TopicCheaper marks a follow-up asking for cheaper than what was shown:
// the planner caps the price below the first card's.
const TopicCheaper = "cheaper"

// TopicNarrow marks a follow-up that added a constraint (a colour, a
// brand, "for women"); About holds the words added, which the planner
// looks for in the shown product's category when the narrowed words
// find nothing.
const TopicNarrow = "narrow"

var (
	vFollowLead = ph("and|what|about|how|any|anything|anyone|got|have|has|do|does|you|is|there|are|one|ones|in|" +
		"something|some|else|them|they|it|come|comes|only|just|the|a|an|same|but|please|pls|show|me|maybe|" +
		"bit|a bit|little|a little|slightly|even|version|versions|model|models|for|with|instead|then|those|these|" +
		"too|pricey|expensive|too expensive|too pricey|hmm|um|ok|okay|oh|like|available|options|option|" +
		"smth|sth|somethin|stuff|u|ya|pls|plz|please|bucks|dollars|quid|pounds|euros|maybe|perhaps|" +
		"а|и|есть|ли|что|нибудь|что-нибудь|чтонибудь|какие|какой|какая|какое|такие|такой|такое|такая|то|же|" +
		"только|бы|можно|в|для|тоже|варианты|вариант|модели|модель|их|они|это|ну|дорого|слишком|покажи|покажите|" +
		"там|вот|тогда|хм|у|вас|плиз|пожалуйста|долларов|рублей|фунтов|евро|чего|чего-нибудь|нет")
	vCheaper = ph("cheaper|less expensive|less pricey|not so expensive|not as expensive|lower price|cheaper one|cheaper ones|" +
		"cheapest|budget|more affordable|cheaper option|cheaper options|" +
		"подешевле|дешевле|бюджетнее|недорогие|недорогой|недорогое|недорогая")
	vPricier = ph("pricier|more expensive|higher end|premium|подороже|дороже")
	// vGender maps to the words titles use.
	vWomen = ph("women|womens|women's|woman|ladies|lady|female|for her|girls|женск*|для женщин|женщин*|девушк*|для нее")
	vMen   = ph("men|mens|men's|man|male|for him|guys|мужск*|для мужчин|мужчин*|для него")
)

// colours maps colour words, English and Russian stems, to the English
// colour the catalog's attributes and titles use.
var colours = []struct{ stem, en string }{
	{"black", "black"}, {"white", "white"}, {"red", "red"}, {"blue", "blue"}, {"navy", "navy"}, {"green", "green"},
	{"grey", "grey"}, {"gray", "grey"}, {"yellow", "yellow"}, {"pink", "pink"}, {"purple", "purple"},
	{"orange", "orange"}, {"brown", "brown"}, {"beige", "beige"}, {"silver", "silver"}, {"gold", "gold"},
	{"olive", "olive"},
	{"черн", "black"}, {"бел", "white"}, {"красн", "red"}, {"син", "blue"}, {"голуб", "blue"}, {"зелен", "green"},
	{"сер", "grey"}, {"желт", "yellow"}, {"розов", "pink"}, {"фиолет", "purple"}, {"оранж", "orange"},
	{"коричн", "brown"}, {"бежев", "beige"}, {"серебр", "silver"}, {"золот", "gold"},
}

// colourOf is the English colour of a word, or "".
func colourOf(w string) string {
	for _, c := range colours {
		if w == c.stem || strings.HasPrefix(w, c.stem) && (isCyrillic(w) || len(w) <= len(c.stem)+1) {
			return c.en
		}
	}
	return ""
}

func matchFollowUp(m *parseMsg) (Intent, bool) {
	l := m.st.Listing
	if l == nil || l.Kind != session.ListSearch || l.Query == "" || len(m.st.ShownCards) == 0 {
		return Intent{}, false
	}
	if theOneShown(m) { // "the yellow one in M" after one product: that product
		return Intent{Kind: IntentAdd, Refs: []Ref{{Focus: true}}}, true
	}
	toks, prices := analysis.CutPrices(negatedFloors(m.toks))
	in := Intent{Kind: IntentSearch, MinPrice: l.MinPrice, MaxPrice: l.MaxPrice, Sort: l.Sort, Options: maps.Clone(l.Options)}
	changed := false
	if prices.Max > 0 {
		in.MaxPrice, changed = prices.Max, true
	}
	if prices.Min > 0 {
		in.MinPrice, changed = prices.Min, true
	}
	var add []string
	drop := map[string]bool{}
	for i := 0; i < len(toks); i++ {
		w := toks[i]
		if n := matchLen(toks, i, vCheaper); n > 0 {
			in.Sort, in.Topic, changed = "price_asc", TopicCheaper, true
			i += n - 1
			continue
		}
		if n := matchLen(toks, i, vPricier); n > 0 {
			in.Sort, changed = "price_desc", true
			i += n - 1
			continue
		}
		if n := matchLen(toks, i, vWomen); n > 0 {
			add, changed = append(add, "women"), true
			drop["men"], drop["mens"], drop["men's"] = true, true, true
			i += n - 1
			continue
		}
		if n := matchLen(toks, i, vMen); n > 0 {
			add, changed = append(add, "men"), true
			drop["women"], drop["womens"], drop["women's"] = true, true, true
			i += n - 1
			continue
		}
		if c := colourOf(w); c != "" {
			add, changed = append(add, c), true
			for _, o := range colours {
				drop[o.en] = true
			}
			continue
		}
		if b := shownBrand(m.st, w); b != "" && !hasPhrase(toks, ph("one|it|этот|эту|это")) { // "the Parkside one" is a card
			add, changed = append(add, b), true
			continue
		}
		if n := matchLen(toks, i, vFollowLead); n > 0 {
			i += n - 1
			continue
		}
		return Intent{}, false
	}
	if !changed {
		return Intent{}, false
	}
	var words []string
	for _, w := range analysis.Tokenize(l.Query) {
		if !drop[w] && !slices.Contains(add, w) {
			words = append(words, w)
		}
	}
	in.Query = queryOf(append(words, add...))
	if in.Topic == "" && len(add) > 0 {
		in.Topic, in.About = TopicNarrow, strings.Join(add, " ")
	}
	return in, true
}

// shownBrand is w when it is (the first word of) the brand of a shown card.
func shownBrand(st *session.State, w string) string {
	if len(w) < 3 {
		return ""
	}
	for _, c := range st.ShownCards {
		if f := strings.Fields(strings.ToLower(c.Brand)); len(f) > 0 && f[0] == w {
			return w
		}
	}
	return ""
}

// vTheOne points at a product by a trait: "the yellow one", «жёлтую».
var vTheOne = ph("one|the one|that one|this one|такой|такую|такое|эту|этот|это")

// theOneShown reads "the yellow one (in M)" when one product was shown
// and is in focus: a variant of it, not a narrower search.
func theOneShown(m *parseMsg) bool {
	// "got an orange one?" asks for another product, not a variant.
	if len(m.st.ShownCards) != 1 || m.st.Focus != m.st.ShownCards[0].SKU || !hasPhrase(m.toks, vTheOne) ||
		strings.Contains(m.raw, "?") || hasPhrase(m.toks, ph("got|have|any|do|есть")) {
		return false
	}
	for _, w := range m.toks {
		if colourOf(w) != "" {
			return true
		}
	}
	return false
}

// OnlyPointing reports whether text holds nothing but lead-ins, filler
// and words pointing at what was shown ("do you have them", "pls", «а
// есть»): what is left of "got them in 43?" once its options are cut.
func OnlyPointing(text string) bool {
	toks := analysis.Tokenize(text)
	return len(cutAll(cutAll(cutAll(cutAll(cutAll(toks, vFollowLead), vThose), vFiller), vPolite), vChatter)) == 0
}

// Short reports whether text is a few words at most: a bare option value
// ("L please", «44-й») about the product in focus.
func Short(text string) bool {
	return len(analysis.Tokenize(text)) <= 3
}
