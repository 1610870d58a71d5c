package embedded

import (
	"slices"

	"shopbot/catalog"
)

// What other backends (the Weaviate one) reuse of this index's text
// analysis, so every backend tokenizes, stems, expands synonyms and
// corrects typos the same way.

// Terms returns the index terms of text, in order, repeats kept: the
// stems of its words, and each hyphen or letter–digit compound joined up
// ("wi-fi" also yields "wifi"), exactly as this index posts a field.
func Terms(text string) []string {
	var out []string
	docTerms(text, stemCache{}, func(_, s string, _ bool) { out = append(out, s) })
	return out
}

// AttributeText is the searchable text of a product's attributes ("color:
// red; waterproof; …"; a "no" flag leaves its key out).
func AttributeText(attrs map[string]string) string { return attributeText(attrs) }

// AttributeKeys returns the values an attribute filter matches for attrs,
// as "key\x00value" lower-cased: each value whole and, for a
// comma-separated list ("40, 41, 42"), each listed value.
func AttributeKeys(attrs map[string]string) []string { return attrKeys(attrs) }

// AttributeKey is the key an attribute filter on k = v looks up.
func AttributeKey(k, v string) string { return attrKey(k, v) }

// VectorText is the text a product's vector is computed from.
func VectorText(p *catalog.Product) string { return vectorText(p) }

// MaxQueryBytes is where a query's text is cut.
const MaxQueryBytes = maxQueryBytes

// Alternative is one way a word of a query matches: a product containing
// all of Stems (terms as Terms makes them), worth Weight — 1 for the word
// itself, less for a synonym or a typo correction.
type Alternative struct {
	Stems  []string
	Weight float32
}

// Expand returns the words of a query as this index matches them against
// its current catalog: one slice of alternatives per word (or synonym
// phrase) — the word's stem, a compound's parts together, its synonyms,
// and for a word no active product contains, its typo corrections. Words
// that match nothing are left out.
func (x *Index) Expand(text string) [][]Alternative {
	words := queryWords(text)
	if len(words) == 0 {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	st := x.st
	s := getScratch(len(st.docs))
	defer s.release()
	var known []string
	for _, w := range words {
		known = append(known, w.key)
		known = append(known, w.parts...)
	}
	for _, g := range x.syn.groups {
		for _, m := range g {
			known = append(known, m...)
		}
	}
	out := [][]Alternative{}
	for _, sl := range st.parse(words, x.syn, s) {
		var alts []Alternative
		for _, a := range sl.alts {
			stems := make([]string, 0, len(a.terms))
			for _, t := range a.terms {
				if s := st.stemOf(t, known); s != "" {
					stems = append(stems, s)
				}
			}
			if len(stems) == len(a.terms) {
				alts = append(alts, Alternative{Stems: stems, Weight: a.weight})
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
		return stem(st.vocab.words[i])
	}
	return ""
}
