package embedded

import (
	"math"
	"slices"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// state is one generation of the index. Searches read it under the read
// lock; Upsert changes it in place under the write lock; Rebuild builds a
// new one and swaps it in.
type state struct {
	docs     []entry            // by doc id; removed products leave a hole until the next Rebuild
	meta     []docMeta          // by doc id: what the filters read (filter.go)
	bySKU    map[string]int32   // live products
	active   int                // active products: the N of idf
	terms    map[string]int32   // stem → term id
	postings [][]posting        // by term id, sorted by doc id; active products only
	attrs    map[string][]int32 // attribute index (attrs.go); active products only
	vocab    *vocab
	cats     []category
	catByID  map[int64]int32
	avgLen   [numFields]float32    // field lengths at the last Rebuild
	newest   time.Time             // latest updated_at indexed: where Follow resumes
	vec      vecStore              // product vectors, when the index has an embedder
	missing  map[int32]bool        // active documents whose embedding failed, for Follow to retry
	optIDs   map[string]int32      // option value ("size\x0042") → id (variants.go)
	optDocs  [][]int32             // by option id: active documents with an in-stock variant having it
	variants map[string]variantRef // variant SKU → its parent: variants are not documents
	vars     [][]int32             // by doc id: packed in-stock variants (variants.go)
}

// entry is one indexed product.
type entry struct {
	p       catalog.Product // Category points into state.cats
	cat     int32           // category ordinal, -1 for none
	terms   []int32         // posted term ids, sorted; nil while inactive
	sig     uint64
	removed bool
	varSKUs []string        // every variant's SKU
	script  analysis.Script // of the title: a query in another ranks it lower
}

// docMeta is what the filters read of a document, kept apart from the
// entries: a filter pass over every document then reads 16 bytes each,
// in order, instead of a product scattered in memory.
type docMeta struct {
	price    int64
	priceMax int64 // the highest price of a parent's active variants; price otherwise
	cat      int32
	flags    uint8
}

const (
	metaLive    = 1 << iota // active and not removed
	metaInStock             // stock > 0
)

// sync makes meta[id] reflect docs[id].
func (st *state) sync(id int32) {
	for len(st.meta) <= int(id) {
		st.meta = append(st.meta, docMeta{cat: -1})
	}
	e := &st.docs[id]
	m := docMeta{price: e.p.Price, priceMax: max(e.p.Price, e.p.PriceMax), cat: e.cat}
	if e.p.Active && !e.removed {
		m.flags |= metaLive
	}
	if e.p.Stock > 0 {
		m.flags |= metaInStock
	}
	st.meta[id] = m
}

// posting is a document containing a term and its BM25F pseudo-frequency.
type posting struct {
	doc int32
	w   float32
}

// category is a category with its lower-cased path segments for filters.
type category struct {
	c    *catalog.Category
	segs []string
}

func newState() *state {
	return &state{bySKU: map[string]int32{}, terms: map[string]int32{}, attrs: map[string][]int32{},
		vocab: newVocab(), catByID: map[int64]int32{}, missing: map[int32]bool{},
		optIDs: map[string]int32{}, variants: map[string]variantRef{}}
}

// live reports how many products are indexed, inactive ones included.
func (st *state) live() int { return len(st.bySKU) }

// idfOf is the BM25 inverse document frequency of a term in df documents.
func (st *state) idfOf(df int) float32 {
	return float32(math.Log(1 + (float64(st.active)-float64(df)+0.5)/(float64(df)+0.5)))
}

// term returns the id of a stem that occurs in at least one active product.
func (st *state) term(stem string) (int32, bool) {
	t, ok := st.terms[stem]
	return t, ok && len(st.postings[t]) > 0
}

// termID returns the id of stem, creating it.
func (st *state) termID(stem string) int32 {
	if t, ok := st.terms[stem]; ok {
		return t
	}
	t := int32(len(st.postings))
	st.terms[strings.Clone(stem)] = t
	st.postings = append(st.postings, nil)
	return t
}

// register resolves a product's analyzed terms to term ids (parallel to
// a.terms) and adds its words to the typo vocabulary.
func (st *state) register(a *analyzed) []int32 {
	ids := make([]int32, len(a.terms))
	for i, tf := range a.terms {
		ids[i] = st.termID(tf.stem)
	}
	for _, s := range a.surfaces {
		st.vocab.add(s.word, s.stem, st.terms[s.stem])
	}
	return ids
}

// category returns the ordinal of p's category, registering it, and points
// p.Category at the shared copy.
func (st *state) category(p *catalog.Product) int32 {
	if p.CategoryID == nil || p.Category == nil {
		p.Category = nil
		return -1
	}
	i, ok := st.catByID[*p.CategoryID]
	if !ok {
		i = int32(len(st.cats))
		st.catByID[*p.CategoryID] = i
		st.cats = append(st.cats, category{})
	}
	switch c := st.cats[i].c; {
	case c == nil:
		c := *p.Category
		st.cats[i] = category{c: &c, segs: lowerSegments(c.Path)}
	case c.Path != p.Category.Path || c.Name != p.Category.Name:
		// Renamed: every product shares c, and no search holds the lock.
		*c = *p.Category
		st.cats[i].segs = lowerSegments(c.Path)
	}
	p.Category = st.cats[i].c
	return i
}

func lowerSegments(path string) []string {
	segs := catalog.SplitCategoryPath(path)
	for i, s := range segs {
		segs[i] = strings.ToLower(s)
	}
	return segs
}

// bump records the latest updated_at seen.
func (st *state) bump(t time.Time) {
	if t.After(st.newest) {
		st.newest = t
	}
}

// put indexes p (new or changed), with its variants fam (nil for none),
// with weights from the current average field lengths. Posting lists
// change only where the terms did.
func (st *state) put(p catalog.Product, a *analyzed, fam *family) {
	st.bump(p.UpdatedAt)
	cat := st.category(&p)
	id, ok := st.bySKU[p.SKU]
	if ok {
		st.forgetVariants(p.SKU, st.docs[id].varSKUs)
	}
	if ok && st.docs[id].sig == a.sig {
		e := &st.docs[id]
		e.p, e.cat = p, cat
		e.varSKUs = st.setFamily(id, p.SKU, fam, false) // same option values in stock: the index stands
		st.sync(id)
		return
	}
	if !ok {
		id = int32(len(st.docs))
		st.docs = append(st.docs, entry{})
		st.bySKU[strings.Clone(p.SKU)] = id
		st.vec.grow(len(st.docs))
	} else if old := &st.docs[id]; old.p.Active {
		st.active--
		st.unindexAttrs(id, old.p.Attributes)
		st.unindexOptions(id)
	}
	var nw []posted
	if p.Active {
		st.active++
		st.indexAttrs(id, p.Attributes)
		nw = st.weigh(a)
	}
	st.repost(id, st.docs[id].terms, nw)
	varSKUs := st.setFamily(id, p.SKU, fam, p.Active)
	st.docs[id] = entry{p: p, cat: cat, terms: postedTerms(nw), sig: a.sig, varSKUs: varSKUs, script: analysis.ScriptOf(p.Title)}
	st.sync(id)
}

// remove drops a product from the index.
func (st *state) remove(sku string) {
	id, ok := st.bySKU[sku]
	if !ok {
		return
	}
	if old := &st.docs[id]; old.p.Active {
		st.active--
		st.unindexAttrs(id, old.p.Attributes)
		st.unindexOptions(id)
	}
	st.forgetVariants(sku, st.docs[id].varSKUs)
	st.setFamily(id, sku, nil, false)
	st.repost(id, st.docs[id].terms, nil)
	st.docs[id] = entry{removed: true, cat: -1}
	st.sync(id)
	st.vec.clear(id)
	delete(st.missing, id)
	delete(st.bySKU, sku)
}

// posted is a term of a document and its weight.
type posted struct {
	term int32
	w    float32
}

func (st *state) weigh(a *analyzed) []posted {
	ids := st.register(a)
	out := make([]posted, len(ids))
	for i, t := range ids {
		out[i] = posted{term: t, w: weight(a.terms[i].tf, a.length, st.avgLen)}
	}
	slices.SortFunc(out, func(x, y posted) int { return int(x.term - y.term) })
	return out
}

func postedTerms(ps []posted) []int32 {
	if len(ps) == 0 {
		return nil
	}
	ids := make([]int32, len(ps))
	for i, p := range ps {
		ids[i] = p.term
	}
	return ids
}

// repost moves document id from the posting lists of old to those of nw
// (both sorted by term): kept terms get the new weight in place.
func (st *state) repost(id int32, old []int32, nw []posted) {
	i, j := 0, 0
	for i < len(old) || j < len(nw) {
		switch {
		case j == len(nw) || i < len(old) && old[i] < nw[j].term:
			st.postings[old[i]] = unpost(st.postings[old[i]], id)
			i++
		case i == len(old) || nw[j].term < old[i]:
			st.postings[nw[j].term] = addPost(st.postings[nw[j].term], posting{id, nw[j].w})
			j++
		default:
			st.postings[old[i]] = addPost(st.postings[old[i]], posting{id, nw[j].w})
			i, j = i+1, j+1
		}
	}
}

func findPost(l []posting, doc int32) (int, bool) {
	return slices.BinarySearchFunc(l, doc, func(p posting, d int32) int { return int(p.doc - d) })
}

// addPost inserts or replaces the posting of p.doc; new documents have the
// highest ids, so this is usually an append.
func addPost(l []posting, p posting) []posting {
	if n := len(l); n == 0 || l[n-1].doc < p.doc {
		return append(l, p)
	}
	i, ok := findPost(l, p.doc)
	if ok {
		l[i] = p
		return l
	}
	return slices.Insert(l, i, p)
}

func unpost(l []posting, doc int32) []posting {
	if i, ok := findPost(l, doc); ok {
		return slices.Delete(l, i, i+1)
	}
	return l
}
