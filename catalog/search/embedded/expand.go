package embedded

import (
	"slices"

	"shopbot/catalog/search/analysis"
)

// Expand returns the words of a query as this index matches them against
// its current catalog (the Weaviate backend's query analysis): one slice of alternatives per word (or synonym
// phrase) — the word's stem, a compound's parts together, its synonyms,
// and for a word no active product contains, its typo corrections. Words
// that match nothing are left out.
func (x *Index) Expand(text string) [][]analysis.Alternative {
	words := analysis.QueryWords(text)
	if len(words) == 0 {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	st := x.st
	syn := x.syn.Load()
	s := getScratch(len(st.docs))
	defer s.release()
	var known []string
	for _, w := range words {
		known = append(known, w.Key)
		known = append(known, w.Parts...)
	}
	for g := range syn.Len() {
		for _, m := range syn.Members(g) {
			known = append(known, m...)
		}
	}
	out := [][]analysis.Alternative{}
	for _, sl := range st.parse(words, syn, s) {
		var alts []analysis.Alternative
		for _, a := range sl.alts {
			stems := make([]string, 0, len(a.terms))
			for _, t := range a.terms {
				if s := st.stemOf(t, known); s != "" {
					stems = append(stems, s)
				}
			}
			if len(stems) == len(a.terms) {
				alts = append(alts, analysis.Alternative{Stems: stems, Weight: a.weight})
			}
		}
		if len(alts) > 0 {
			out = append(out, alts)
		}
	}
	return out
}

// stemOf finds the stem of term t among known stems or, for a typo
// correction, through the vocabulary word it came from.
func (st *state) stemOf(t int32, known []string) string {
	for _, s := range known {
		if id, ok := st.terms[s]; ok && id == t {
			return s
		}
	}
	if i := slices.Index(st.vocab.terms, t); i >= 0 {
		return analysis.Stem(st.vocab.words[i])
	}
	return ""
}
