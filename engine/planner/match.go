package planner

// Honest search: when no product has a word the shopper asked for, the
// planner says so (and offers the categories) instead of listing what
// matched the other words: "a gift for a 6 year old who loves dinosaurs"
// is no coding book.
import (
	"context"
	"strings"
	"sync"
	"unicode"

	"shopbot/catalog/search/analysis"
	"shopbot/engine/view"
)

// maxProbes bounds the words checked against the whole catalog per turn.
const maxProbes = 3

// unknownWords returns the words of q that no product of the catalog has:
// a word no listed card covers (in its text or through a synonym) is
// looked up alone, by keywords only (a non-relevance sort), so a vector
// neighbour does not count as a match.
func (t *plannerTurn) unknownWords(ctx context.Context, q string, cards []view.Card) ([]string, error) {
	var uncovered []analysis.QueryWord
	for _, w := range analysis.QueryWords(q) {
		if len([]rune(w.Surface)) < 3 || isDigits(w.Surface) {
			continue
		}
		if !anyCovers(cards, w.Key) {
			uncovered = append(uncovered, w)
		}
	}
	// The lookups must not change what the shopper was shown.
	saved := *t.s.State
	defer func() {
		st := t.s.State
		st.Shown, st.ShownCards, st.Focus, st.Listing = saved.Shown, saved.ShownCards, saved.Focus, saved.Listing
	}()
	var missing []string
	for i, w := range uncovered {
		if i == maxProbes {
			break
		}
		res, err := t.p.tb.Call(ctx, t.s, "search_products", `{"query":`+jsonString(w.Surface)+`,"sort":"rating","limit":1}`)
		if err != nil {
			return nil, t.fail(err)
		}
		if len(res.Cards) == 0 {
			missing = append(missing, w.Surface)
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
	res, err := t.call(ctx, "get_categories", map[string]string{})
	if err == nil {
		for _, c := range dataAs[categoryView](res).Categories {
			v.Categories = append(v.Categories, c.Name)
		}
		t.plan.Buttons = append(t.plan.Buttons, res.Buttons...)
	}
	t.say(rNoMatch, v)
	return nil
}

func anyCovers(cards []view.Card, stem string) bool {
	for _, c := range cards {
		if covers(c, stem) {
			return true
		}
	}
	return false
}

// covers reports whether a card's text has the stem, or a synonym of it.
func covers(c view.Card, stem string) bool {
	have := cardStems(c)
	if have[stem] {
		return true
	}
	syn := synonyms()
	for _, g := range syn.GroupsOf(stem) {
		for _, member := range syn.Members(g) {
			if allIn2(member, have) {
				return true
			}
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

func cardStems(c view.Card) map[string]bool {
	var b strings.Builder
	b.WriteString(c.Title + " " + c.Brand + " " + c.Category + " " + c.Summary)
	for _, v := range c.Attributes {
		b.WriteString(" " + v)
	}
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(b.String()), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		have[analysis.Stem(strings.ReplaceAll(w, "ё", "е"))] = true
	}
	return have
}

var (
	synOnce sync.Once
	synSet  *analysis.Synonyms
)

// synonyms are the search's built-in synonym groups.
func synonyms() *analysis.Synonyms {
	synOnce.Do(func() { synSet = analysis.NewSynonyms(analysis.DefaultSynonyms()) })
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
		if titleHas(c.Title, q) {
			if sku != "" {
				return ""
			}
			sku = c.SKU
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
