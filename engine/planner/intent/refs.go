package intent

// References to the cards shown last that need their titles, prices and
// ratings (State.ShownCards): "both", "them", "the cheapest", "the two
// best rated", "the glass one", "the sonique buds".
import (
	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
	"slices"
	"strings"
)

// shownPick is what a message says about the shown cards.
type shownPick struct {
	refs  []Ref    // the cards meant, as positions in State.Shown
	query []string // content words that name no shown card
	sort  string   // a superlative: a search_products sort
	n     int      // how many the superlative takes ("the two cheapest")
}

var (
	vBoth = ph("both|both of them|оба|обе|обоих")
	// vSuperlativeLead are the words before a superlative: "the most",
	// "самый", "самых".
	vSuperlativeLead = ph("the|most|very|самый|самая|самое|самые|самую|самых|самого|самой|самым")
	vAll             = ph("both|them|all of them|all|each|both of them|оба|обе|обоих|их|все|всех|всё")
	// vRefFiller are words that only point: "the one", "that", "этот".
	// vPointing marks a message that points at a shown card without a
	// verb: "the glass one", "which is the cheapest?".
	vPointing  = ph("the|that|this|one|cheapest|cheaper|most expensive|best rated|best|тот|та|этот|эту|самый|самую|самое|самая|дешев*|дорог*|лучш*")
	vRefFiller = ph("one|ones|the|a|an|that|those|these|this|it|its|of|and|also|too|please|which|is|are|" +
		"тот|та|те|эти|этот|эту|и|тоже|также|popular|популярн*|по|самый|самая|самое|самые|самую|самых|самого|самой")
)

// pickShown reads words (the message without its verb) against the shown
// cards. named says whether several cards matching the words are all
// meant ("remove the notebooks", "compare the kettles").
func pickShown(words []string, st *session.State, several bool) shownPick {
	var p shownPick
	all, both := hasPhrase(words, vAll), hasPhrase(words, vBoth)
	words = cutAll(words, vAll)
	words, p.sort, p.n = cutSuperlative(words)
	_, words, _ = extractQty(words) // a quantity is no name ("add 2 glass kettles")
	content := cutAll(cutAll(cutAll(words, vRefFiller), vFiller), vPolite)
	cands := shownCandidates(st)
	if len(content) > 0 {
		matched := cardsNamed(cands, content)
		if len(matched) == 0 && p.sort == "" && !all {
			if refs := eachNamed(cands, content); len(refs) > 1 {
				p.refs = refs
				return p
			}
		}
		if len(matched) == 0 {
			p.query = content
			return p
		}
		if len(matched) > 1 && p.sort == "" && !all && !several {
			p.query = content
			return p
		}
		cands = matched
	}
	switch {
	case p.sort != "":
		sortCards(cands, p.sort)
		cands = cands[:min(max(p.n, 1), len(cands))]
	case both && len(content) == 0:
		cands = cands[:min(2, len(cands))]
	case all || len(content) > 0:
		cands = cands[:min(MaxRefsPerAction, len(cands))]
	default:
		return p
	}
	for _, c := range cands {
		p.refs = append(p.refs, Ref{Pos: c.pos})
	}
	return p
}

type shownCandidate struct {
	session.ShownCard
	pos int
}

func shownCandidates(st *session.State) []shownCandidate {
	var out []shownCandidate
	for i, c := range st.ShownCards {
		if i < len(st.Shown) && st.Shown[i] == c.SKU {
			out = append(out, shownCandidate{c, i + 1})
		}
	}
	return out
}

// cardsNamed are the cards whose title or brand has every word (a word
// of three letters or more, matched at the start of a title word).
func cardsNamed(cands []shownCandidate, words []string) []shownCandidate {
	var out []shownCandidate
	for _, c := range cands {
		if namedBy(c.Title+" "+c.Brand, words) {
			out = append(out, c)
		}
	}
	return out
}

func namedBy(title string, words []string) bool {
	tw := analysis.Tokenize(title)
	for _, w := range words {
		stem := stemWord(w)
		if len([]rune(stem)) < 3 {
			return false
		}
		found := false
		for _, t := range tw {
			if strings.HasPrefix(t, stem) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return len(words) > 0
}

// eachNamed resolves "the gooseneck and the glass one": every word names
// exactly one card.
func eachNamed(cands []shownCandidate, words []string) []Ref {
	var refs []Ref
	for _, w := range words {
		m := cardsNamed(cands, []string{w})
		if len(m) != 1 {
			return nil
		}
		refs = addRef(refs, Ref{Pos: m[0].pos})
	}
	return refs
}

// cutSuperlative takes "the cheapest", "the two best rated", "самый
// дешёвый" out of words.
func cutSuperlative(words []string) (rest []string, sort string, n int) {
	for _, s := range sortHints {
		i := findAny(words, s.words)
		if i < 0 || s.sort == "popular" {
			continue
		}
		l := matchLen(words, i, s.words)
		for i > 0 && matchLen(words, i-1, vSuperlativeLead) == 1 {
			i, l = i-1, l+1
		}
		if i > 0 {
			if q, ok := qtyOf(words[i-1]); ok && q > 0 && q <= MaxRefsPerAction {
				n, i, l = q, i-1, l+1
			}
		}
		return append(slices.Clone(words[:i]), words[i+l:]...), s.sort, n
	}
	return words, "", 0
}

// hasSuperlative reports whether words say "the cheapest", "the best
// rated" and the like.
func hasSuperlative(words []string) bool {
	_, sort, _ := cutSuperlative(words)
	return sort != ""
}

func sortCards(cards []shownCandidate, sort string) {
	slices.SortStableFunc(cards, func(a, b shownCandidate) int {
		switch sort {
		case "price_asc":
			return cmpInt(a.Price, b.Price)
		case "price_desc":
			return cmpInt(b.Price, a.Price)
		}
		switch {
		case a.Rating > b.Rating:
			return -1
		case a.Rating < b.Rating:
			return 1
		}
		return 0
	})
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
