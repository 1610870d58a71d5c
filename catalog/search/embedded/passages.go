package embedded

// Passages is the embedded passage index (shop pages now, reviews next):
// a small in-process hybrid index beside the product index, sharing its
// analysis and fusion but not its data. Passages are few next to
// products (1,000 pages make some 5,000), so it keeps plain structures:
// a posting list of (document, weighted frequency) per stem, BM25 with
// the passage's title and heading counted twice, and vectors quantized as
// the product index's (vectors.go): the keyword matches and the 256
// passages closest by the coarse sign-bit scan get an exact similarity.
//
// A query's words (analysis.QueryWords) become slots as in the product
// index: a word matches its stem, a compound's parts together, or its
// synonyms (weight 0.4). Typo correction is left out: shoppers ask
// policy questions in few common words. Results are the passages that
// match a word or whose similarity reaches the floor, ranked by
// (1-alpha)·keyword + alpha·similarity, each normalized over the
// results as hybrid.go does for products (keyword: words matched plus
// the BM25 share of the best).

import (
	"cmp"
	"context"
	"log/slog"
	"math"
	"slices"
	"sync"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
	"shopbot/catalog/search/vectorizer"
)

var _ search.PassageSearcher = (*Passages)(nil)

const (
	// titleBoost weighs the words of a passage's title and heading.
	titleBoost = 2
	// passageB is BM25's length normalization, weaker than for products
	// (k1 is theirs): chunks differ in length by how paragraphs fell, and
	// a short one is no more to the point.
	passageB = 0.3
)

// PassageOptions configures a Passages index.
type PassageOptions struct {
	// Synonyms: nil means analysis.DefaultSynonyms.
	Synonyms [][]string
	// Embedder adds vector similarity; nil ranks by keywords alone. One
	// that learns from texts (vectorizer.Local) is fitted on the passages
	// at Rebuild, so it must not be the product index's.
	Embedder vectorizer.Embedder
	// Alpha: nil means search.DefaultAlpha; MinSimilarity 0 means
	// search.DefaultMinSimilarity.
	Alpha         *float64
	MinSimilarity float64
	// Poll is how often Follow looks for changes; default 500 ms.
	Poll   time.Duration
	Logger *slog.Logger
}

// Passages is the in-process passage index. It is safe for concurrent
// use: searches share a read lock; Rebuild, Upsert and Follow take turns.
type Passages struct {
	syn   *analysis.Synonyms
	emb   vectorizer.Embedder
	alpha float32
	floor float32
	poll  time.Duration
	log   *slog.Logger

	writeMu sync.Mutex // serializes writers
	built   bool

	mu sync.RWMutex // guards st
	st *pstate
}

// NewPassages returns an empty passage index; call Rebuild or Follow.
func NewPassages(opts PassageOptions) *Passages {
	if opts.Synonyms == nil {
		opts.Synonyms = analysis.DefaultSynonyms()
	}
	x := &Passages{syn: analysis.NewSynonyms(opts.Synonyms), emb: opts.Embedder,
		floor: float32(cmp.Or(opts.MinSimilarity, search.DefaultMinSimilarity)),
		poll:  cmp.Or(opts.Poll, 500*time.Millisecond),
		log:   cmp.Or(opts.Logger, slog.New(slog.DiscardHandler)), st: newPState()}
	if x.emb != nil {
		x.alpha = search.DefaultAlpha
		if opts.Alpha != nil {
			x.alpha = float32(min(max(*opts.Alpha, 0), 1))
		}
	}
	return x
}

// pdoc is one indexed passage.
type pdoc struct {
	p       catalog.Passage
	terms   map[string]float32 // stem → weighted frequency
	length  float32
	kind    uint8 // pstate.kinds[p.Kind]: compared per document per query
	scope   int32 // pstate.scopes[p.Scope]; 0 for no scope
	removed bool
}

// pposting is one document of a stem's posting list.
type pposting struct {
	doc int32
	tf  float32
}

// pstate is one generation of the index. Removed documents stay in docs
// and postings, skipped, until compaction rebuilds the state.
type pstate struct {
	docs     []pdoc
	sources  map[string][]int32 // PassageKey → documents
	postings map[string][]pposting
	vec      vecStore // by document id, quantized as the product index's
	kinds    map[catalog.PassageKind]uint8
	// scopes numbers the scopes (a review's SKU) from 1; scopeDocs lists
	// each one's documents, so a narrowed query (one product's reviews
	// among 100,000) scans only those for vectors.
	scopes    map[string]int32
	scopeDocs [][]int32
	live      int
	totalLen  float64
	newest    time.Time // newest UpdatedAt indexed
}

func newPState() *pstate {
	return &pstate{sources: map[string][]int32{}, postings: map[string][]pposting{}, kinds: map[catalog.PassageKind]uint8{},
		scopes: map[string]int32{}, scopeDocs: [][]int32{nil}}
}

// Len returns the number of indexed passages.
func (x *Passages) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.st.live
}

// analyzePassage counts a passage's weighted stems.
func analyzePassage(p *catalog.Passage) (map[string]float32, float32) {
	terms := map[string]float32{}
	var n float32
	add := func(text string, w float32) {
		analysis.EachTerm(text, nil, func(_, stem string, _ bool) {
			terms[stem] += w
			n += w
		})
	}
	add(p.Title, titleBoost)
	add(analysis.PassageHeading(p), titleBoost)
	add(p.Body, 1)
	return terms, n
}

// kindID numbers a kind (the first 255; more would all share 255).
func (st *pstate) kindID(k catalog.PassageKind) uint8 {
	id, ok := st.kinds[k]
	if !ok {
		id = uint8(min(len(st.kinds)+1, 255))
		st.kinds[k] = id
	}
	return id
}

// add appends an analyzed passage and its vector (nil: none) to st.
func (st *pstate) add(d pdoc, vec []float32) {
	id := int32(len(st.docs))
	d.kind = st.kindID(d.p.Kind)
	if d.p.Scope != "" {
		sc, ok := st.scopes[d.p.Scope]
		if !ok {
			sc = int32(len(st.scopeDocs))
			st.scopes[d.p.Scope] = sc
			st.scopeDocs = append(st.scopeDocs, nil)
		}
		d.scope = sc
		st.scopeDocs[sc] = append(st.scopeDocs[sc], id)
	}
	st.docs = append(st.docs, d)
	if vec != nil {
		st.vec.set(id, vec, len(st.docs))
	}
	for stem, tf := range d.terms {
		st.postings[stem] = append(st.postings[stem], pposting{doc: id, tf: tf})
	}
	key := d.p.Key()
	st.sources[key] = append(st.sources[key], id)
	st.live++
	st.totalLen += float64(d.length)
	if d.p.UpdatedAt.After(st.newest) {
		st.newest = d.p.UpdatedAt
	}
}

// removeSource marks the passages of one source removed.
func (st *pstate) removeSource(key string) {
	for _, id := range st.sources[key] {
		d := &st.docs[id]
		if !d.removed {
			d.removed = true
			st.live--
			st.totalLen -= float64(d.length)
		}
	}
	delete(st.sources, key)
}

// compacted returns st without its removed documents, when they have come
// to outnumber the live ones; otherwise st itself.
func (st *pstate) compacted() *pstate {
	if dead := len(st.docs) - st.live; dead < 64 || dead < st.live {
		return st
	}
	n := newPState()
	for i, d := range st.docs {
		if !d.removed {
			n.add(d, nil)
			n.vec.copyFrom(int32(len(n.docs)-1), &st.vec, int32(i), len(n.docs))
		}
	}
	n.newest = st.newest
	return n
}

// SearchPassages implements search.PassageSearcher.
func (x *Passages) SearchPassages(ctx context.Context, q search.PassageQuery) ([]search.Passage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ws := analysis.QueryWords(q.Text)
	if len(ws) == 0 {
		return nil, nil
	}
	var qvec []float32
	if x.emb != nil && x.alpha > 0 {
		qvec = queryVec(ctx, x.emb, q.Text)
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	st := x.st
	s := pscratchPool.Get().(*pscratch)
	defer pscratchPool.Put(s)
	s.reset(len(st.docs))
	want := filterFor(st, q)
	st.keywordScores(st.slots(ws, x.syn), want, s)
	s.capKeywordMatches(passageKeywordCandidates)
	st.similarities(qvec, want, x.floor, s)
	return st.rank(s, x.alpha, x.floor, q.PassageLimit()), nil
}

// pscratch holds one query's per-document scores, dense by document id,
// reused through a pool: a query touches thousands of passages, and maps
// of them cost more than the scoring.
type pscratch struct {
	tf      []float32 // one slot's weighted frequency
	bm25    []float32
	sim     []float32
	matched []uint8
	hasSim  []bool
	slotHit []int32 // documents of the current slot
	cands   []int32 // documents matching a word or similar enough
	inCands []bool
	dist    []uint16 // coarse distance to the query vector
}

var pscratchPool = sync.Pool{New: func() any { return new(pscratch) }}

func (s *pscratch) reset(n int) {
	grow := func(a []float32) []float32 {
		if cap(a) < n {
			return make([]float32, n)
		}
		a = a[:n]
		clear(a)
		return a
	}
	s.tf, s.bm25, s.sim = grow(s.tf), grow(s.bm25), grow(s.sim)
	if cap(s.matched) < n {
		s.matched, s.hasSim, s.inCands = make([]uint8, n), make([]bool, n), make([]bool, n)
	}
	s.matched, s.hasSim, s.inCands = s.matched[:n], s.hasSim[:n], s.inCands[:n]
	clear(s.matched)
	clear(s.hasSim)
	clear(s.inCands)
	s.slotHit, s.cands = s.slotHit[:0], s.cands[:0]
}

func (s *pscratch) candidate(d int32) {
	if !s.inCands[d] {
		s.inCands[d] = true
		s.cands = append(s.cands, d)
	}
}

// queryVec embeds a query, or returns nil when the embedder fails (the
// query is then answered by keywords alone).
func queryVec(ctx context.Context, emb vectorizer.Embedder, text string) []float32 {
	ctx, cancel := context.WithTimeout(ctx, queryEmbedTimeout)
	defer cancel()
	vecs, err := emb.Embed(ctx, []string{analysis.Truncate(text, analysis.MaxQueryBytes)})
	if err != nil || len(vecs) != 1 {
		return nil
	}
	return vecs[0]
}

// pslot is one query word's alternatives: each a set of stems that must
// all occur, and its weight.
type pslot []analysis.Alternative

// slots resolves query words against the vocabulary; words no passage
// contains are left out.
func (st *pstate) slots(ws []analysis.QueryWord, syn *analysis.Synonyms) []pslot {
	var out []pslot
	for i := 0; i < len(ws); {
		g, m, n := syn.PhraseAt(ws[i:])
		for _, w := range ws[i : i+n] {
			var sl pslot
			st.addAlt(&sl, []string{w.Key}, 1)
			if len(w.Parts) > 1 {
				st.addAlt(&sl, w.Parts, 1)
			}
			for _, gi := range syn.GroupsOf(w.Key) {
				st.addGroup(&sl, syn, gi, -1)
			}
			if g >= 0 {
				st.addGroup(&sl, syn, g, m)
			}
			if len(sl) > 0 && !slices.ContainsFunc(out, func(o pslot) bool { return slices.Equal(o[0].Stems, sl[0].Stems) }) {
				out = append(out, sl)
			}
		}
		i += n
	}
	return out[:min(len(out), analysis.MaxSlots)]
}

func (st *pstate) addGroup(sl *pslot, syn *analysis.Synonyms, g, skip int) {
	for i, stems := range syn.Members(g) {
		if i != skip {
			st.addAlt(sl, stems, synonymWeight)
		}
	}
}

// addAlt adds an alternative whose stems all occur somewhere.
func (st *pstate) addAlt(sl *pslot, stems []string, w float32) {
	for _, s := range stems {
		if len(st.postings[s]) == 0 {
			return
		}
	}
	for _, a := range *sl {
		if slices.Equal(a.Stems, stems) {
			return
		}
	}
	*sl = append(*sl, analysis.Alternative{Stems: stems, Weight: w})
}

// keywordScores scores every passage of q's kind (and scope) that
// matches a slot, by BM25.
func (st *pstate) keywordScores(slots []pslot, want pfilter, s *pscratch) {
	if st.live == 0 {
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
		df := 0
		s.slotHit = s.slotHit[:0]
		for _, a := range sl {
			df = max(df, len(st.postings[a.Stems[0]]))
			for _, p := range st.postings[a.Stems[0]] {
				d := &st.docs[p.doc]
				if d.removed || !want.ok(d) {
					continue
				}
				tf := p.tf
				for _, stem := range a.Stems[1:] {
					tf = min(tf, d.terms[stem]) // a phrase: all its stems, as often as the rarest
				}
				if tf > 0 {
					if s.tf[p.doc] == 0 {
						s.slotHit = append(s.slotHit, p.doc)
					}
					s.tf[p.doc] += a.Weight * tf
				}
			}
		}
		idf := float32(math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5)))
		for _, doc := range s.slotHit {
			tf, d := s.tf[doc], &st.docs[doc]
			s.tf[doc] = 0
			s.matched[doc]++
			s.bm25[doc] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-passageB+passageB*d.length/avg))
			s.candidate(doc)
		}
	}
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

func (f pfilter) ok(d *pdoc) bool {
	return d.kind == f.kind && f.kind != 0 && (f.scope == 0 || d.scope == f.scope)
}

// eachDoc calls fn with every document id f may keep: a scope's list when
// it has one, else all.
func (st *pstate) eachDoc(f pfilter, fn func(i int)) {
	switch {
	case f.scope > 0:
		for _, d := range st.scopeDocs[f.scope] {
			fn(int(d))
		}
	case f.scope == 0:
		for i := range st.docs {
			fn(i)
		}
	}
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
	exact := func(i int) {
		sim := st.vec.sim(p, int32(i))
		if s.matched[i] == 0 && sim < floor {
			return
		}
		s.sim[i], s.hasSim[i] = sim, true
		s.candidate(int32(i))
	}
	if cap(s.dist) < len(st.docs) {
		s.dist = make([]uint16, len(st.docs))
	}
	dist := s.dist[:len(st.docs)]
	hist := make([]int32, 2*st.vec.dim+1)
	st.eachDoc(want, func(i int) {
		d := &st.docs[i]
		if d.removed || !want.ok(d) || !st.vec.has(int32(i)) {
			dist[i] = noDistance
			return
		}
		n := st.vec.distance(p, int32(i))
		dist[i] = uint16(n)
		hist[n]++
	})
	cut, room := threshold(hist, passageVectorCandidates, false)
	st.eachDoc(want, func(i int) {
		switch dd := dist[i]; {
		case dd == noDistance:
		case s.matched[i] > 0 || int(dd) < cut:
			exact(i)
		case int(dd) == cut && room > 0:
			room--
			exact(i)
		}
	})
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
