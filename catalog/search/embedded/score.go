package embedded

import (
	"math/bits"
	"slices"
)

// score accumulates BM25F over the slots into s: s.touched lists every
// document matching at least one slot, s.mask which ones, s.score the sum
// over matched slots. A slot's alternatives count as one pseudo-term, as
// in Lucene's SynonymQuery: their weighted frequencies add up before
// saturation, and the idf is that of the most frequent alternative, so a
// rare synonym or typo correction cannot outscore the word typed.
func (st *state) score(slots []slot, s *scratch) {
	for i, sl := range slots {
		idf := st.slotIDF(sl)
		for _, a := range sl.alts {
			st.addAlt(a, s)
		}
		bit := uint32(1) << i
		for _, d := range s.slotTouched {
			if s.mask[d] == 0 {
				s.touched = append(s.touched, d)
			}
			w := s.slotScore[d]
			s.mask[d] |= bit
			s.score[d] += idf * w / (bm25K1 + w)
			s.slotScore[d] = 0
		}
		s.slotTouched = s.slotTouched[:0]
	}
}

// slotIDF is the idf of the slot's most frequent alternative.
func (st *state) slotIDF(sl slot) float32 {
	df := 0
	for _, a := range sl.alts {
		adf := len(st.postings[a.terms[0]])
		for _, t := range a.terms[1:] {
			adf = min(adf, len(st.postings[t]))
		}
		df = max(df, adf)
	}
	return st.idfOf(df)
}

// addAlt adds an alternative's weighted frequency to the slot's
// pseudo-frequency of each document containing it.
func (st *state) addAlt(a alt, s *scratch) {
	if len(a.terms) == 1 {
		for _, p := range st.postings[a.terms[0]] {
			s.add(p.doc, a.weight*p.w)
		}
		return
	}
	st.intersect(a, s)
}

func (s *scratch) add(d int32, w float32) {
	if s.slotScore[d] == 0 {
		s.slotTouched = append(s.slotTouched, d)
	}
	s.slotScore[d] += w
}

// intersect adds a multi-term alternative for the documents containing
// all its terms, at their mean frequency: it walks the shortest posting
// list and finds each document in the others by binary search, moving
// forward only.
func (st *state) intersect(a alt, s *scratch) {
	lists := make([][]posting, len(a.terms))
	for i, t := range a.terms {
		lists[i] = st.postings[t]
	}
	slices.SortFunc(lists, func(x, y []posting) int { return len(x) - len(y) })
	scale := a.weight / float32(len(lists))
next:
	for _, p := range lists[0] {
		sum := p.w
		for i := 1; i < len(lists); i++ {
			j, ok := findPost(lists[i], p.doc)
			lists[i] = lists[i][j:]
			if !ok {
				continue next
			}
			sum += lists[i][0].w
		}
		s.add(p.doc, scale*sum)
	}
}

// matched counts the slots a document matched.
func matched(mask uint32) int { return bits.OnesCount32(mask) }
