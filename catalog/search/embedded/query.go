package embedded

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Query limits: a 10 KB paste is cut, not rejected; a document can match
// at most 32 slots (one bit each).
const (
	maxQueryBytes = 1000
	maxSlots      = 32
	maxTypoTerms  = 4
	synonymWeight = 0.4
)

// typoWeight scores a term reached through one or two edits below an exact
// match.
var typoWeight = [3]float32{1, 0.6, 0.45}

// qword is one word of a query or a synonym: key is its stem (for a
// hyphenated compound, the stem of the joined word); parts holds the stems
// of a compound's parts when there are two or more.
type qword struct {
	key, surface string
	parts        []string
}

// queryWords splits text into query words. Stop words are dropped unless
// the query has nothing else.
func queryWords(text string) []qword {
	var groups [][]string
	lex(truncate(text, maxQueryBytes), func(w word) {
		if w.joined && len(groups) > 0 {
			groups[len(groups)-1] = append(groups[len(groups)-1], w.text)
		} else {
			groups = append(groups, []string{w.text})
		}
	})
	var all, content []qword
	for _, g := range groups {
		if len(content) == maxSlots {
			break
		}
		w, ok := compound(g)
		if !ok {
			continue
		}
		all = append(all, w)
		if len(g) > 1 || !isStopWord(w.surface) {
			content = append(content, w)
		}
	}
	if len(content) == 0 {
		content = all
	}
	return content[:min(len(content), maxSlots)]
}

// compound makes one query word of hyphen-joined words.
func compound(g []string) (qword, bool) {
	if len(g) == 1 {
		return qword{key: stem(g[0]), surface: g[0]}, indexable(g[0])
	}
	j := strings.Join(g, "")
	w := qword{key: stem(j), surface: j}
	for _, p := range g {
		if indexable(p) && !isStopWord(p) {
			w.parts = append(w.parts, stem(p))
		}
	}
	if len(w.parts) < 2 {
		w.parts = nil
	}
	return w, true
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

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
func (st *state) parse(ws []qword, syn *synonyms, s *scratch) []slot {
	var slots []slot
	for i := 0; i < len(ws); {
		g, m, n := syn.phraseAt(ws[i:])
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

// wordSlot matches the word itself, or failing that its typo corrections,
// and its one-word synonyms.
func (st *state) wordSlot(w qword, syn *synonyms, s *scratch) slot {
	alts := st.exactAlts(w)
	keys := []string{w.key}
	if len(alts) == 0 {
		var fixed []string
		alts, fixed = st.typoAlts(w, s)
		keys = append(keys, fixed...)
	}
	for _, k := range keys {
		for _, g := range syn.single[k] {
			alts = st.groupAlts(syn, g, -1, alts)
		}
	}
	return slot{alts: alts}
}

// exactAlts matches the word itself and, for a compound, its parts
// together ("noise cancelling" for "noise-cancelling").
func (st *state) exactAlts(w qword) []alt {
	var alts []alt
	if t, ok := st.term(w.key); ok {
		alts = append(alts, alt{terms: []int32{t}, weight: 1})
	}
	if ts, ok := st.allTerms(w.parts); ok {
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
func (st *state) groupAlts(syn *synonyms, g, skip int, alts []alt) []alt {
	for i, stems := range syn.groups[g] {
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
func (st *state) typoAlts(w qword, s *scratch) ([]alt, []string) {
	q := []rune(w.surface)
	d := typoDistance(len(q))
	if d == 0 || len(q) > maxVocabRunes || strings.IndexFunc(w.surface, notLetter) >= 0 {
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
