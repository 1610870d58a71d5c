package embedded

// Hybrid ranking: relative score fusion of the keyword score and vector
// similarity, for relevance-sorted queries with words when the index has
// an embedder.
//
// Scoring every filtered product exactly would cost a 256-number dot
// product per product, 15–20 ms for 100,000 on one core: too slow. So
// exact similarity (int8 dot product, vectors.go) is computed for two
// candidate sets only:
//   - the keywordRescored best keyword matches, and
//   - the vectorCandidates closest to the query by a coarse scan of every
//     product passing the filters, which compares sign bits only
//     (coarseScan: about 1 ms for 100,000 products, and it finds 92% of
//     the 10 most similar; see BenchmarkSearch100kHybrid).
//
// A keyword match outside the first set gets no similarity score. The
// results are the keyword matches and the products whose similarity
// reaches the floor (Options.MinSimilarity), so a query with neither
// signal has none. Each score is min-max normalized over the results,
// with the minimum at "no signal":
//   - keyword: matched words plus the BM25F score as a fraction of the
//     best one (so it orders as keyword-only ranking does), divided by
//     the highest; 0 without a keyword match;
//   - similarity: from the lowest among the results, or the floor if that
//     is higher, to the highest; 0 at or below the floor, where similarity
//     is mostly noise (hashed n-grams collide; unrelated texts are never
//     quite orthogonal). When no similarity reaches the floor the vectors
//     say nothing about the query and the keyword order stands.
//
// fused = (1-alpha)·keyword + alpha·similarity, and results are ordered
// by it (then by SKU).

import "math/bits"

const (
	// keywordRescored is how many of the best keyword matches get an exact
	// similarity.
	keywordRescored = 1000
	// vectorCandidates is how many of the products closest by the coarse
	// scan get an exact similarity.
	vectorCandidates = 1000
	// kwBins is the resolution of the histogram that finds the best
	// keyword matches without sorting them.
	kwBins = 1024
)

// fusion is a query's vector side.
type fusion struct {
	probe *probe
	alpha float32 // weight of similarity, in (0, 1]
	floor float32 // least similarity of a result without a keyword match
}

// fuse ranks keyword candidates (which passed f; s holds their scoring)
// together with the products closest to the probe, and returns the
// results with their fused score.
func (st *state) fuse(kw []cand, fu fusion, f *filter, skip int32, s *scratch) []cand {
	s.vectorArrays(len(st.docs))
	st.rescoreKeyword(kw, fu.probe, s)
	st.rescoreNearest(fu.probe, f, skip, s)

	raw := keywordRaw(kw)
	var out []cand
	if fu.alpha < 1 {
		for _, c := range kw {
			out = append(out, cand{doc: c.doc, score: raw(c)})
		}
	}
	for _, d := range s.vdocs {
		if s.vsim[d] >= fu.floor && (s.mask[d] == 0 || fu.alpha == 1) {
			out = append(out, cand{doc: d})
		}
	}
	lo, hi := simRange(out, fu.floor, s)
	if hi < fu.floor && fu.alpha == 1 {
		return nil
	}
	kwHi := float32(0)
	for _, c := range kw {
		kwHi = max(kwHi, raw(c))
	}
	for i, c := range out {
		var kwN, vecN float32
		if c.score > 0 { // a keyword match
			kwN = c.score / kwHi
		}
		switch sim := s.vsim[c.doc]; {
		case !s.vmark[c.doc] || sim < lo || hi < fu.floor:
		case hi > lo:
			vecN = (sim - lo) / (hi - lo)
		default:
			vecN = 1 // all alike, at or above the floor
		}
		out[i].score = (1-fu.alpha)*kwN + fu.alpha*vecN
	}
	return out
}

// keywordRaw returns the keyword score fusion uses: the words matched
// plus the BM25F score as a fraction of the best, so it orders candidates
// as keyword-only ranking does.
func keywordRaw(kw []cand) func(c cand) float32 {
	best := float32(0)
	for _, c := range kw {
		best = max(best, c.score)
	}
	if best == 0 {
		return func(c cand) float32 { return float32(c.matched) }
	}
	scale := 1 / (best * 1.001)
	return func(c cand) float32 { return float32(c.matched) + c.score*scale }
}

// simRange is the range similarity is normalized over: from the lowest
// similarity among the scored results, or the floor if higher, to the
// highest.
func simRange(cs []cand, floor float32, s *scratch) (lo, hi float32) {
	lo, hi = 2, -2
	for _, c := range cs {
		if s.vmark[c.doc] {
			lo, hi = min(lo, s.vsim[c.doc]), max(hi, s.vsim[c.doc])
		}
	}
	return max(lo, floor), hi
}

// rescoreKeyword computes the similarity of the best keyword candidates
// (by matched words, then score).
func (st *state) rescoreKeyword(kw []cand, p *probe, s *scratch) {
	if len(kw) <= keywordRescored {
		for _, c := range kw {
			st.rescore(p, c.doc, s)
		}
		return
	}
	raw := keywordRaw(kw)
	rawMax := float32(0)
	for _, c := range kw {
		rawMax = max(rawMax, raw(c))
	}
	bin := func(c cand) int { return min(int(raw(c)/rawMax*(kwBins-1)), kwBins-1) }
	hist := s.histogram(kwBins)
	for _, c := range kw {
		hist[bin(c)]++
	}
	cut, room := threshold(hist, keywordRescored, true)
	for _, c := range kw {
		if b := bin(c); b > cut || b == cut && room > 0 {
			if b == cut {
				room--
			}
			st.rescore(p, c.doc, s)
		}
	}
}

// rescoreNearest computes the exact similarity of the vectorCandidates
// products passing f (but skip) closest to p by the coarse scan. Ties at
// the last distance taken are broken by document id, at twice
// vectorCandidates in all.
func (st *state) rescoreNearest(p *probe, f *filter, skip int32, s *scratch) {
	n := len(st.vec.inv)
	dist, hist := s.distances(n), s.histogram(2*st.vec.dim+1)
	st.coarseScan(p, f, skip, dist, hist)
	cut, room := threshold(hist, vectorCandidates, false)
	room += vectorCandidates
	for d, dd := range dist {
		switch {
		case dd == noDistance || int(dd) > cut:
			continue
		case int(dd) == cut:
			if room == 0 {
				continue
			}
			room--
		}
		st.rescore(p, int32(d), s)
	}
}

// noDistance marks a document the coarse scan passed over.
const noDistance = 1<<16 - 1

// coarseScan measures the coarse distance (vecStore.distance) of every
// document passing f (but skip) into dist, counting them in hist; others
// get noDistance.
func (st *state) coarseScan(p *probe, f *filter, skip int32, dist []uint16, hist []int32) {
	v := &st.vec
	if v.words == 4 {
		st.coarseScan4(p, f, skip, dist, hist)
		return
	}
	meta := st.meta[:len(v.inv)]
	for d, inv := range v.inv {
		if inv == 0 || int32(d) == skip || !f.ok(int32(d), meta[d]) {
			dist[d] = noDistance
			continue
		}
		n := v.distance(p, int32(d))
		dist[d] = uint16(n)
		hist[n]++
	}
}

// coarseScan4 is coarseScan for 256 coordinates (the Local embedder's),
// unrolled with the probe in registers: about 3 ns a product.
func (st *state) coarseScan4(p *probe, f *filter, skip int32, dist []uint16, hist []int32) {
	v := &st.vec
	meta, signs, dist := st.meta[:len(v.inv)], v.signs[:4*len(v.inv)], dist[:len(v.inv)]
	p0, p1, p2, p3 := p.pos[0], p.pos[1], p.pos[2], p.pos[3]
	n0, n1, n2, n3 := p.nz[0], p.nz[1], p.nz[2], p.nz[3]
	s0, s1, s2, s3 := p.strong[0], p.strong[1], p.strong[2], p.strong[3]
	for d, inv := range v.inv {
		if inv == 0 || int32(d) == skip || !f.ok(int32(d), meta[d]) {
			dist[d] = noDistance
			continue
		}
		c := signs[4*d : 4*d+4 : 4*d+4]
		x0, x1, x2, x3 := c[0]^p0, c[1]^p1, c[2]^p2, c[3]^p3
		n := bits.OnesCount64(x0&n0) + bits.OnesCount64(x1&n1) + bits.OnesCount64(x2&n2) + bits.OnesCount64(x3&n3) +
			bits.OnesCount64(x0&s0) + bits.OnesCount64(x1&s1) + bits.OnesCount64(x2&s2) + bits.OnesCount64(x3&s3)
		dist[d] = uint16(n)
		hist[n]++
	}
}

// threshold finds the bin of a histogram where the k best items end:
// counting from the top bin when highFirst, else from bin 0. room is how
// many items of that bin still belong to the k.
func threshold(hist []int32, k int, highFirst bool) (cut, room int) {
	seen := 0
	for i := range hist {
		b := i
		if highFirst {
			b = len(hist) - 1 - i
		}
		n := int(hist[b])
		if seen+n >= k {
			return b, k - seen
		}
		seen += n
	}
	if highFirst {
		return 0, k
	}
	return len(hist) - 1, k
}

// rescore records document d's exact similarity to p, once.
func (st *state) rescore(p *probe, d int32, s *scratch) {
	if s.vmark[d] || !st.vec.has(d) {
		return
	}
	s.vmark[d] = true
	s.vsim[d] = st.vec.sim(p, d)
	s.vdocs = append(s.vdocs, d)
}
