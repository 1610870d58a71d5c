package planner

// Honest search: when no product has a word the shopper asked for, the
// planner says so (and offers the categories) instead of listing what
// matched the other words: "a gift for a 6 year old who loves dinosaurs"
// is no coding book.
import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"shopbot/catalog/search/analysis"
	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

// maxProbes bounds the words checked against the whole catalog per turn.
const maxProbes = 3

// queryUnit is a word of a query, or a phrase the synonym table knows
// ("коврик для йоги"), with the stems that match it.
type queryUnit struct {
	surface string
	alts    [][]string // each alternative: stems a card must all have
	unit    bool       // a measure after a number ("5 метров"): a detail
}

// queryUnits splits q as the search does: words without stop words,
// multi-word synonym phrases kept whole.
func queryUnits(q string) []queryUnit {
	ws := analysis.QueryWords(q)
	syn := synonyms()
	var out []queryUnit
	for i := 0; i < len(ws); {
		if g, _, n := syn.PhraseAt(ws[i:]); g >= 0 && n > 1 {
			var surf []string
			for _, w := range ws[i : i+n] {
				surf = append(surf, w.Surface)
			}
			out = append(out, queryUnit{surface: strings.Join(surf, " "), alts: syn.Members(g)})
			i += n
			continue
		}
		w := ws[i]
		u := queryUnit{surface: w.Surface, alts: [][]string{{w.Key}}, unit: i > 0 && isDigits(ws[i-1].Surface) && intent.MeasureWord(w.Surface)}
		for _, g := range syn.GroupsOf(w.Key) {
			u.alts = append(u.alts, syn.Members(g)...)
		}
		out = append(out, u)
		i++
	}
	return out
}

// significant reports whether a unit must be matched: a number or a
// one- or two-letter word is a detail ("size 44", "6 year old").
func (u queryUnit) significant() bool {
	return len([]rune(u.surface)) >= 3 && !isDigits(u.surface) && !u.unit
}

func (u queryUnit) coveredBy(have map[string]bool) bool {
	for _, alt := range u.alts {
		if allIn2(alt, have) {
			return true
		}
	}
	return false
}

// coverage is how many significant units of q each card covers, and how
// many there are.
func coverage(cards []view.Card, units []queryUnit) (per []int, n int) {
	per = make([]int, len(cards))
	stems := make([]map[string]bool, len(cards))
	for i, c := range cards {
		stems[i] = cardStems(c, false)
	}
	for _, u := range units {
		if !u.significant() {
			continue
		}
		n++
		for i := range cards {
			if u.coveredBy(stems[i]) {
				per[i]++
			}
		}
	}
	return per, n
}

// bestCovered keeps the cards that cover every word of q when some do:
// the rest matched fewer words, or only a vector neighbourhood, and the
// shopper asked for all of them ("desk lamp" is no desk mat).
// exact reports whether some card has every word.
func bestCovered(cards []view.Card, q string) (kept []view.Card, exact bool) {
	per, n := coverage(cards, queryUnits(q))
	if n == 0 {
		return cards, false
	}
	for i, c := range cards {
		if per[i] == n {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		return cards, false
	}
	return kept, true
}

// unknownWords returns the words of q that no product of the catalog has:
// a word no listed card covers (in its text or through a synonym) is
// looked up alone, by keywords only (a non-relevance sort), so a vector
// neighbour does not count as a match.
func (t *plannerTurn) unknownWords(ctx context.Context, q string, cards []view.Card) ([]string, error) {
	var uncovered []queryUnit
	var titles, full []map[string]bool // stems of each card, without and with its summary
	for _, u := range queryUnits(q) {
		if !u.significant() {
			continue
		}
		if titles == nil {
			for _, c := range cards {
				titles = append(titles, cardStems(c, false))
			}
		}
		if anyCovered(u, titles) {
			continue
		}
		if full == nil {
			for _, c := range cards {
				full = append(full, cardStems(c, true))
			}
		}
		if !anyCovered(u, full) {
			uncovered = append(uncovered, u)
		}
	}
	if len(uncovered) == 0 {
		return nil, nil
	}
	// The lookups must not change what the shopper was shown.
	saved := *t.s.State
	defer func() {
		st := t.s.State
		st.Shown, st.ShownCards, st.Focus, st.Listing = saved.Shown, saved.ShownCards, saved.Focus, saved.Listing
	}()
	var missing []string
	for i, u := range uncovered {
		if i == maxProbes {
			break
		}
		res, err := t.p.tb.Call(ctx, t.s, "search_products", `{"query":`+jsonString(u.surface)+`,"sort":"rating","limit":1}`)
		if err != nil {
			return nil, t.fail(err)
		}
		if len(res.Cards) == 0 {
			missing = append(missing, u.surface)
		}
	}
	return missing, nil
}

// noMatch tells the shopper nothing matches and offers the top-level
// categories; nothing is left shown to refer to.
func (t *plannerTurn) noMatch(ctx context.Context, q string, missing []string) error {
	st := t.s.State
	st.Shown, st.ShownCards, st.Listing, st.Focus = nil, nil, nil, ""
	v := struct {
		Query      string
		Missing    []string
		Categories []string
	}{Query: q, Missing: missing}
	// The categories come as buttons, not as a list in the words: the
	// reply says what is missing and stays short.
	if res, err := t.call(ctx, "get_categories", map[string]string{}); err == nil {
		t.plan.Buttons = append(t.plan.Buttons, res.Buttons...)
	}
	t.say(rNoMatch, v)
	return nil
}

func anyCovered(u queryUnit, stems []map[string]bool) bool {
	for _, have := range stems {
		if u.coveredBy(have) {
			return true
		}
	}
	return false
}

func allIn2(stems []string, have map[string]bool) bool {
	for _, s := range stems {
		if !have[s] {
			return false
		}
	}
	return len(stems) > 0
}

// cardStems are the stems of a card's title, brand, category and
// attributes, and with described of its summary too.
func cardStems(c view.Card, described bool) map[string]bool {
	key := cardKey{c.SKU, c.Title, described}
	if have, ok := cardStemCache.Load(key); ok {
		return have.(map[string]bool)
	}
	have := computeCardStems(c, described)
	if cardStemCount.Add(1) <= maxCardStems {
		cardStemCache.Store(key, have)
	}
	return have
}

// cardKey names a card's stems in the cache: a product whose title
// changes is stemmed anew. The maps are read-only once stored.
type cardKey struct {
	sku, title string
	described  bool
}

var (
	cardStemCache sync.Map // cardKey → map[string]bool
	cardStemCount atomic.Int64
)

const maxCardStems = 20_000

func computeCardStems(c view.Card, described bool) map[string]bool {
	var b strings.Builder
	b.WriteString(c.Title + " " + c.Brand + " " + c.Category)
	if described {
		b.WriteString(" " + c.Summary)
	}
	for _, v := range c.Attributes {
		// A list ("iPhone, Android, USB-C laptops") says what a
		// product works with, not what it is.
		if !strings.Contains(v, ",") {
			b.WriteString(" " + v)
		}
	}
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(b.String()), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		have[stem(w)] = true
	}
	return have
}

// stems memoizes analysis.Stem for card words: the catalog's vocabulary is
// small, and stemming every card of every list would cost more than the
// search that found them. Bounded, so odd text cannot grow it forever.
var (
	stems     sync.Map // word → stem
	stemCount atomic.Int64
)

const maxStems = 100_000

func stem(w string) string {
	if s, ok := stems.Load(w); ok {
		return s.(string)
	}
	s := analysis.Stem(strings.ReplaceAll(w, "ё", "е"))
	if stemCount.Add(1) <= maxStems {
		stems.Store(strings.Clone(w), s)
	}
	return s
}

var (
	synOnce sync.Once
	synSet  *analysis.Synonyms
)

// synonyms are the groups search expands queries with (the tuned groups
// and the retail lexicon), so a card the search found through a synonym or
// a Russian word for an English title counts as covering that word.
func synonyms() *analysis.Synonyms {
	synOnce.Do(func() { synSet = analysis.NewSynonyms(analysis.SearchSynonyms()) })
	return synSet
}

// soleMatch is the only card whose title has every word of q ("it" after
// "cast iron dutch oven" means that one), or "".
func soleMatch(cards []view.Card, q string) string {
	if len(cards) == 1 {
		return cards[0].SKU
	}
	sku := ""
	for _, c := range cards {
		if intent.TitleHas(c.Title, q) {
			if sku != "" {
				return ""
			}
			sku = c.SKU
		}
	}
	if sku == "" { // said in other words («саморезы» for "Wood Screws")
		if exact := exactOnly(cards, q); len(exact) == 1 {
			sku = exact[0].SKU
		}
	}
	return sku
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// exactOnly keeps the cards that cover every word of q.
func exactOnly(cards []view.Card, q string) []view.Card {
	per, n := coverage(cards, queryUnits(q))
	var out []view.Card
	for i, c := range cards {
		if per[i] == n {
			out = append(out, c)
		}
	}
	return out
}
