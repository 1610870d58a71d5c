package embedded

import (
	"cmp"
	"math"
	"sync"

	"shopbot/catalog/search"
)

// Scoring a passage query: BM25 over the posting lists (or, for a query
// narrowed to one product, over that product's reviews), the coarse
// vector scan over the passages the filter keeps, exact similarities for
// the best of both, and the fusion. A query at 100,000 reviews touches
// every passage once in the coarse scan, so that scan reads only dense
// arrays (pstate.meta and the sign codes), never the documents.

// pscratch holds one query's per-document scores, dense by document id,
// reused through a pool: a query touches thousands of passages, and maps
// of them cost more than the scoring. Only candidates have non-zero
// entries, so release clears those rather than every array.
type pscratch struct {
	tf      []float32 // one slot's weighted frequency
	bm25    []float32
	sim     []float32
	matched []uint8
	hasSim  []bool
	slotHit []int32 // documents of the current slot
	cands   []int32 // documents matching a word or similar enough
	inCands []bool
	scan    []int32  // documents the coarse scan measures, in id order
	dist    []uint16 // their coarse distance to the query vector, by scan position
	hist    []int32
}

var pscratchPool = sync.Pool{New: func() any { return new(pscratch) }}

// getPScratch returns clean scratch for an index of n documents.
func getPScratch(n int) *pscratch {
	s := pscratchPool.Get().(*pscratch)
	if c := n + n/4; cap(s.tf) < n { // c: room for the index to grow before the next allocation
		s.tf, s.bm25, s.sim = make([]float32, c), make([]float32, c), make([]float32, c)
		s.matched, s.hasSim, s.inCands = make([]uint8, c), make([]bool, c), make([]bool, c)
	}
	s.tf, s.bm25, s.sim = s.tf[:n], s.bm25[:n], s.sim[:n]
	s.matched, s.hasSim, s.inCands = s.matched[:n], s.hasSim[:n], s.inCands[:n]
	return s
}

// release clears what the query set (the candidates' entries; tf is
// cleared slot by slot) and returns s to the pool.
func (s *pscratch) release() {
	for _, d := range s.cands {
		s.bm25[d], s.sim[d], s.matched[d], s.hasSim[d], s.inCands[d] = 0, 0, 0, false, false
	}
	s.slotHit, s.cands, s.scan, s.dist = s.slotHit[:0], s.cands[:0], s.scan[:0], s.dist[:0]
	pscratchPool.Put(s)
}

func (s *pscratch) candidate(d int32) {
	if !s.inCands[d] {
		s.inCands[d] = true
		s.cands = append(s.cands, d)
	}
}

// keywordScores scores every passage of q's kind (and scope) that
// matches a slot, by BM25.
func (st *pstate) keywordScores(slots []pslot, want pfilter, s *pscratch) {
	if st.live == 0 || want.kind == 0 || want.scope < 0 {
		return
	}
	avg := float32(st.totalLen / float64(st.live))
	// Posting lists keep removed passages until compaction, so the idf
	// counts them on both sides: n is every document, removed or not.
	n := float64(len(st.docs))
	for _, sl := range slots {
		// The alternatives form one pseudo-term, as in the product index:
		// weighted frequencies add up and saturate once, with the idf of
		// the most frequent alternative.
		df, postings := 0, 0
		for _, a := range sl {
			df = max(df, len(st.postings[a.Stems[0]]))
			postings += len(st.postings[a.Stems[0]])
		}
		s.slotHit = s.slotHit[:0]
		if want.scope > 0 && len(st.scopeDocs[want.scope]) < postings {
			st.slotFreqsIn(sl, st.scopeDocs[want.scope], want, s)
		} else {
			st.slotFreqs(sl, want, s)
		}
		idf := float32(math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5)))
		for _, doc := range s.slotHit {
			tf, length := s.tf[doc], st.meta[doc].length
			s.tf[doc] = 0
			s.matched[doc]++
			s.bm25[doc] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-passageB+passageB*length/avg))
			s.candidate(doc)
		}
	}
}

// slotFreqs adds up one slot's weighted frequencies (s.tf, documents in
// s.slotHit) from its posting lists.
func (st *pstate) slotFreqs(sl pslot, want pfilter, s *pscratch) {
	for _, a := range sl {
		for _, p := range st.postings[a.Stems[0]] {
			if !want.ok(st.meta[p.doc]) {
				continue
			}
			tf := p.tf
			for _, stem := range a.Stems[1:] {
				tf = min(tf, st.docs[p.doc].terms[stem]) // a phrase: all its stems, as often as the rarest
			}
			s.addFreq(p.doc, a.Weight*tf)
		}
	}
}

// slotFreqsIn is slotFreqs over the documents docs (one product's
// reviews), looked up in each document's terms rather than read from
// posting lists that run through every product: a common word's list
// holds thousands of reviews, a product has tens. The sums are the same,
// added in the same order per document.
func (st *pstate) slotFreqsIn(sl pslot, docs []int32, want pfilter, s *pscratch) {
	for _, doc := range docs {
		if !want.ok(st.meta[doc]) {
			continue
		}
		terms := st.docs[doc].terms
		for _, a := range sl {
			tf := terms[a.Stems[0]]
			for _, stem := range a.Stems[1:] {
				tf = min(tf, terms[stem])
			}
			s.addFreq(doc, a.Weight*tf)
		}
	}
}

// addFreq adds w (a weighted frequency; 0 for none) to doc's for the slot.
func (s *pscratch) addFreq(doc int32, w float32) {
	if w <= 0 {
		return
	}
	if s.tf[doc] == 0 {
		s.slotHit = append(s.slotHit, doc)
	}
	s.tf[doc] += w
}

// pfilter is what a query keeps: a kind and, when scope is set, a scope.
type pfilter struct {
	kind  uint8 // 0: a kind never indexed, so nothing
	scope int32 // 0: any; -1: a scope never indexed, so nothing
}

func filterFor(st *pstate, q search.PassageQuery) pfilter {
	f := pfilter{kind: st.kinds[q.Kind]}
	if q.Scope != "" {
		f.scope = -1
		if sc, ok := st.scopes[q.Scope]; ok {
			f.scope = sc
		}
	}
	return f
}

// ok reports whether f keeps a passage; never a removed one (kind 0).
func (f pfilter) ok(m pmeta) bool {
	return m.kind == f.kind && f.kind != 0 && (f.scope == 0 || m.scope == f.scope)
}

// passageKeywordCandidates bounds the keyword matches a query carries into
// the vector stage: a common word ("battery") matches thousands of
// reviews, and an exact similarity for each was most of a query's time at
// 100,000. The best by keyword score are kept; with at most
// MaxPassageLimit results, the rest could only win by their vector, which
// the coarse scan still offers them.
const passageKeywordCandidates = 1024

// capKeywordMatches keeps about the best n keyword candidates (by words
// matched, then BM25), in buckets of score so it stays linear, and forgets
// the others' keyword scores.
func (s *pscratch) capKeywordMatches(n int) {
	if len(s.cands) <= n {
		return
	}
	const buckets = 1024
	var hi float32
	raw := func(d int32) float32 { return float32(s.matched[d])*1e3 + s.bm25[d] }
	for _, d := range s.cands {
		hi = max(hi, raw(d))
	}
	var hist [buckets]int32
	bucket := func(d int32) int { return min(int(raw(d)/hi*(buckets-1)), buckets-1) }
	for _, d := range s.cands {
		hist[bucket(d)]++
	}
	cut, kept := buckets-1, int32(0)
	for ; cut > 0 && kept+hist[cut] < int32(n); cut-- {
		kept += hist[cut]
	}
	out := s.cands[:0]
	for _, d := range s.cands {
		if bucket(d) >= cut {
			out = append(out, d)
			continue
		}
		s.matched[d], s.bm25[d], s.inCands[d] = 0, 0, false
	}
	s.cands = out
}

// passageVectorCandidates is how many passages closest to the query by
// the coarse sign-bit scan (hybrid.go) get an exact similarity, besides
// every keyword match: exact int8 products for every passage were half a
// query's time at 1,000 pages.
const passageVectorCandidates = 256

// similarities computes the similarity to qvec of the keyword matches and
// of the passages of q's kind closest to it by the coarse scan, adding
// those at or above floor as candidates.
func (st *pstate) similarities(qvec []float32, want pfilter, floor float32, s *pscratch) {
	p := newProbe(qvec, st.vec.dim)
	if p == nil {
		return
	}
	s.scan = st.scannable(want, s.scan[:0])
	if cap(s.dist) < len(s.scan) {
		s.dist = make([]uint16, len(s.scan), cap(s.scan))
	}
	s.dist = s.dist[:len(s.scan)]
	if cap(s.hist) < 2*st.vec.dim+1 {
		s.hist = make([]int32, 2*st.vec.dim+1)
	}
	s.hist = s.hist[:2*st.vec.dim+1]
	clear(s.hist)
	st.vec.distances(p, s.scan, s.dist, s.hist)
	cut, room := threshold(s.hist, passageVectorCandidates, false)
	for j, i := range s.scan {
		switch dd := int(s.dist[j]); {
		case s.matched[i] > 0 || dd < cut:
		case dd == cut && room > 0:
			room--
		default:
			continue
		}
		sim := st.vec.sim(p, i)
		if s.matched[i] == 0 && sim < floor {
			continue
		}
		s.sim[i], s.hasSim[i] = sim, true
		s.candidate(i)
	}
}

// scannable appends to out, in id order, the documents f keeps that have
// a vector: a scope's list when f has one, else all.
func (st *pstate) scannable(f pfilter, out []int32) []int32 {
	switch {
	case f.scope > 0:
		for _, d := range st.scopeDocs[f.scope] {
			if f.ok(st.meta[d]) && st.vec.has(d) {
				out = append(out, d)
			}
		}
	case f.scope == 0 && f.kind != 0:
		inv := st.vec.inv
		for d, m := range st.meta[:min(len(st.meta), len(inv))] {
			if f.ok(m) && inv[d] != 0 {
				out = append(out, int32(d))
			}
		}
	}
	return out
}

// rank fuses the scores and returns the best limit passages.
func (st *pstate) rank(s *pscratch, alpha, floor float32, limit int) []search.Passage {
	var bestBM, kwHi float32
	lo, hi := float32(2), float32(-2)
	for _, d := range s.cands {
		bestBM = max(bestBM, s.bm25[d])
		if s.hasSim[d] {
			lo, hi = min(lo, s.sim[d]), max(hi, s.sim[d])
		}
	}
	lo = max(lo, floor)
	raw := func(d int32) float32 {
		if bestBM == 0 {
			return float32(s.matched[d])
		}
		return float32(s.matched[d]) + s.bm25[d]/(bestBM*1.001)
	}
	for _, d := range s.cands {
		kwHi = max(kwHi, raw(d))
	}
	type scored struct {
		doc   int32
		fused float32
	}
	better := func(a, b scored) bool {
		if a.fused != b.fused {
			return a.fused > b.fused
		}
		pa, pb := &st.docs[a.doc].p, &st.docs[b.doc].p
		return cmp.Or(cmp.Compare(pa.Ref, pb.Ref), cmp.Compare(pa.Seq, pb.Seq)) < 0
	}
	top := make([]scored, 0, limit+1) // the best so far, best first
	for _, d := range s.cands {
		var kwN, vecN float32
		if s.matched[d] > 0 {
			kwN = raw(d) / kwHi
		}
		switch sim := s.sim[d]; {
		case !s.hasSim[d] || sim < lo || hi < floor:
		case hi > lo:
			vecN = (sim - lo) / (hi - lo)
		default:
			vecN = 1
		}
		c := scored{d, (1-alpha)*kwN + alpha*vecN}
		if c.fused <= 0 || len(top) == limit && !better(c, top[limit-1]) {
			continue
		}
		i := len(top)
		top = append(top, c)
		for ; i > 0 && better(c, top[i-1]); i-- {
			top[i] = top[i-1]
		}
		top[i] = c
		top = top[:min(len(top), limit)]
	}
	res := make([]search.Passage, len(top))
	for i, c := range top {
		p := &st.docs[c.doc].p
		res[i] = search.Passage{Kind: p.Kind, Ref: p.Ref, Seq: p.Seq, Scope: p.Scope,
			Title: p.Title, Heading: p.Heading, Text: p.Body, Score: float64(c.fused)}
	}
	return res
}
