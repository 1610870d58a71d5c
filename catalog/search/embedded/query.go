package embedded

import (
	"slices"
	"strings"

	"shopbot/catalog/search/analysis"
)

// Query limits: a word's typo corrections, and the weight of a synonym.
const (
	maxTypoTerms  = 4
	synonymWeight = 0.4
)

// typoWeight scores a term reached through one or two edits below an exact
// match.
var typoWeight = [3]float32{1, 0.6, 0.45}

// alt is one way a slot can match: all of terms (usually one) in a
// document, scored times weight.
type alt struct {
	terms  []int32
	weight float32
}

// slot is one query word (or synonym phrase) and its alternatives: the
// word itself, its synonyms, or its typo corrections. A document scores
// the best alternative it contains.
type slot struct{ alts []alt }

// parse turns query words into slots; words that match nothing are left
// out.
func (st *state) parse(ws []analysis.QueryWord, syn *analysis.Synonyms, s *scratch) []slot {
	var slots []slot
	for i := 0; i < len(ws); {
		g, m, n := syn.PhraseAt(ws[i:])
		for _, w := range ws[i : i+n] {
			sl := st.wordSlot(w, syn, s)
			if g >= 0 {
				sl.alts = st.groupAlts(syn, g, m, sl.alts)
			}
			if len(sl.alts) > 0 && !hasSlot(slots, sl) {
				slots = append(slots, sl)
			}
		}
		i += n
	}
	return slots
}

func hasSlot(slots []slot, sl slot) bool {
	for _, o := range slots {
		if slices.Equal(o.alts[0].terms, sl.alts[0].terms) {
			return true
		}
	}
	return false
}

// wordSlot matches the word itself and its one-word synonyms; a word
// that matches neither (no product has it, and no synonym a product has:
// a misspelling, not a word of the lexicon) matches its typo corrections
// and theirs instead. A known word is not corrected: "беговел" is a
// balance bike, not a typo of "беговой".
func (st *state) wordSlot(w analysis.QueryWord, syn *analysis.Synonyms, s *scratch) slot {
	alts := st.exactAlts(w)
	for _, g := range syn.GroupsOf(w.Key) {
		alts = st.groupAlts(syn, g, -1, alts)
	}
	if len(alts) > 0 {
		return slot{alts: alts}
	}
	alts, fixed := st.typoAlts(w, s)
	for _, k := range fixed {
		for _, g := range syn.GroupsOf(k) {
			alts = st.groupAlts(syn, g, -1, alts)
		}
	}
	return slot{alts: alts}
}

// exactAlts matches the word itself and, for a compound, its parts
// together ("noise cancelling" for "noise-cancelling").
func (st *state) exactAlts(w analysis.QueryWord) []alt {
	var alts []alt
	if t, ok := st.term(w.Key); ok {
		alts = append(alts, alt{terms: []int32{t}, weight: 1})
	}
	if ts, ok := st.allTerms(w.Parts); ok {
		alts = append(alts, alt{terms: ts, weight: 1})
	}
	return alts
}

// allTerms resolves stems that must all occur in active products.
func (st *state) allTerms(stems []string) ([]int32, bool) {
	if len(stems) == 0 {
		return nil, false
	}
	ts := make([]int32, len(stems))
	for i, s := range stems {
		t, ok := st.term(s)
		if !ok {
			return nil, false
		}
		ts[i] = t
	}
	return ts, true
}

// groupAlts appends the members of synonym group g except member skip
// (the phrase the query spelled, or -1), scored at synonymWeight.
func (st *state) groupAlts(syn *analysis.Synonyms, g, skip int, alts []alt) []alt {
	for i, stems := range syn.Members(g) {
		ts, ok := st.allTerms(stems)
		if i == skip || !ok || containsAlt(alts, ts) {
			continue
		}
		alts = append(alts, alt{terms: ts, weight: synonymWeight})
	}
	return alts
}

func containsAlt(alts []alt, ts []int32) bool {
	for _, a := range alts {
		if slices.Equal(a.terms, ts) {
			return true
		}
	}
	return false
}

// typoAlts corrects a word no active product contains: the closest
// vocabulary words (by distance, then document frequency) stand in for it.
// It also returns the stems of the corrections, whose synonyms apply too
// ("skilet" → skillet → frying pan).
func (st *state) typoAlts(w analysis.QueryWord, s *scratch) ([]alt, []string) {
	q := []rune(w.Surface)
	d := typoDistance(len(q))
	if d == 0 || len(q) > maxVocabRunes || strings.IndexFunc(w.Surface, notLetter) >= 0 {
		return nil, nil
	}
	ms := st.vocab.near(q, d, s)
	if len(ms) == 0 {
		return nil, nil
	}
	best := slices.MinFunc(ms, func(a, b wordMatch) int { return a.dist - b.dist }).dist
	var ts []int32
	for _, m := range ms {
		if m.dist == best && !slices.Contains(ts, m.term) && len(st.postings[m.term]) > 0 {
			ts = append(ts, m.term)
		}
	}
	slices.SortFunc(ts, func(a, b int32) int {
		if c := len(st.postings[b]) - len(st.postings[a]); c != 0 {
			return c
		}
		return int(a - b)
	})
	alts := make([]alt, 0, maxTypoTerms)
	var stems []string
	for _, t := range ts[:min(len(ts), maxTypoTerms)] {
		alts = append(alts, alt{terms: []int32{t}, weight: typoWeight[best]})
		for _, m := range ms {
			if m.term == t && !slices.Contains(stems, m.stem) {
				stems = append(stems, m.stem)
			}
		}
	}
	return alts, stems
}
