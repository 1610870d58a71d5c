package embedded

// Passages is the embedded passage index (shop pages and reviews): an
// in-process hybrid index beside the product index, sharing its analysis
// and fusion but not its data. It keeps plain structures: a posting list
// of (document, weighted frequency) per stem, BM25 with the passage's
// title and heading counted twice, and vectors quantized as the product
// index's (vectors.go): the keyword matches and the 256 passages closest
// by the coarse sign-bit scan get an exact similarity. Reviews make it
// large (100,000 of them), so what every query reads per passage is kept
// dense (pmeta, the sign codes) and a query narrowed to one product reads
// that product's reviews only (passages_score.go).
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
	p      catalog.Passage
	terms  map[string]float32 // stem → weighted frequency
	length float32
}

// pmeta is what a query reads of every passage it filters or scores,
// kept dense beside docs: a scan of 100,000 reviews then reads 1.2 MB in
// order instead of touching each pdoc (some 200 bytes apart), which was
// most of an unfiltered query's time.
type pmeta struct {
	kind   uint8 // pstate.kinds[p.Kind]; 0 once removed
	scope  int32 // pstate.scopes[p.Scope]; 0 for no scope
	length float32
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
	meta     []pmeta            // by document id, as docs
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
	m := pmeta{kind: st.kindID(d.p.Kind), length: d.length}
	if d.p.Scope != "" {
		sc, ok := st.scopes[d.p.Scope]
		if !ok {
			sc = int32(len(st.scopeDocs))
			st.scopes[d.p.Scope] = sc
			st.scopeDocs = append(st.scopeDocs, nil)
		}
		m.scope = sc
		st.scopeDocs[sc] = append(st.scopeDocs[sc], id)
	}
	st.docs = append(st.docs, d)
	st.meta = append(st.meta, m)
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
		if m := &st.meta[id]; m.kind != 0 {
			m.kind = 0
			st.live--
			st.totalLen -= float64(m.length)
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
		if st.meta[i].kind != 0 {
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
	s := getPScratch(len(st.docs))
	defer s.release()
	want := filterFor(st, q)
	st.keywordScores(st.slots(ws, x.syn), want, s)
	s.capKeywordMatches(passageKeywordCandidates)
	st.similarities(qvec, want, x.floor, s)
	return st.rank(s, x.alpha, x.floor, q.PassageLimit()), nil
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
