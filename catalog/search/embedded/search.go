package embedded

import (
	"context"
	"maps"
	"slices"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
)

// otherLanguage scales the relevance of a product whose title is in
// another script than the query (a Russian title for an English query,
// and the other way round): of two about equally good matches, the one the
// shopper can read comes first, while a clearly better match (a Russian
// listing found by its brand and model) still leads.
const otherLanguage = 0.85

// Result page sizes.
const (
	defaultLimit = 10
	maxLimit     = 100
)

// Search implements search.Searcher. Filters are applied to every
// candidate before ranking. Words are optional, but a product matching
// more of them ranks above one matching fewer; with a sort other than
// relevance only the products matching the most words are listed. A
// query without words (punctuation, single letters) lists by the filters.
// With an embedder, relevance fuses the keyword score with vector
// similarity (hybrid.go), and products close enough to the query are
// found without sharing a word with it.
func (x *Index) Search(ctx context.Context, q search.Query) (search.Results, error) {
	if err := ctx.Err(); err != nil {
		return search.Results{}, err
	}
	limit := q.Limit
	switch {
	case limit <= 0:
		limit = defaultLimit
	case limit > maxLimit:
		limit = maxLimit
	}
	offset := min(max(q.Offset, 0), 1<<30)
	rank := q.RankText()
	words := analysis.QueryWords(rank)
	text, relevance := len(words) > 0, byRelevance(q.Sort)
	var qvec []float32
	if text && relevance {
		qvec = x.queryVector(ctx, rank) // before the lock: it may be a request
	}

	x.mu.RLock()
	defer x.mu.RUnlock()
	st := x.st
	f := st.newFilter(q)
	key := sortKey(q.Sort, text)
	col := collector{k: offset + limit, compare: st.compare}
	if text {
		var cs []cand
		if p := newProbe(qvec, st.vec.dim); p != nil {
			cs = st.hybridCandidates(words, x.syn.Load(), &f, fusion{probe: p, alpha: x.alpha, floor: x.floor})
		} else {
			cs = st.textCandidates(words, x.syn.Load(), &f, relevance)
		}
		qs := analysis.ScriptOf(rank)
		for _, c := range cs {
			if !relevance {
				c.matched, c.score = 0, 0
			} else if qs.Mismatch(st.docs[c.doc].script) {
				c.score *= otherLanguage
			}
			c.key = key(&st.docs[c.doc].p)
			col.add(c)
		}
	} else {
		st.allowed(&f, func(d int32) { col.add(cand{doc: d, key: key(&st.docs[d].p)}) })
	}
	res := search.Results{Total: col.total}
	if page := col.sorted(); offset < len(page) {
		res.Products = st.products(page[offset:])
	}
	return res, nil
}

// textCandidates scores the query and keeps the documents passing f;
// unless ranking by relevance, only those matching the most words.
func (st *state) textCandidates(words []analysis.QueryWord, syn *analysis.Synonyms, f *filter, relevance bool) []cand {
	s := getScratch(len(st.docs))
	defer s.release()
	cs, slots := st.matchText(words, syn, f, s)
	if !relevance && slots > 1 {
		cs = bestTier(cs)
	}
	return cs
}

// hybridCandidates ranks by keyword score and vector similarity fused
// (hybrid.go).
func (st *state) hybridCandidates(words []analysis.QueryWord, syn *analysis.Synonyms, f *filter, fu fusion) []cand {
	s := getScratch(len(st.docs))
	defer s.release()
	cs, _ := st.matchText(words, syn, f, s)
	return st.fuse(cs, fu, f, -1, s)
}

// matchText scores the query's words into s and returns the documents
// passing f with the slots they matched and their score, and how many
// slots the query has.
func (st *state) matchText(words []analysis.QueryWord, syn *analysis.Synonyms, f *filter, s *scratch) ([]cand, int) {
	slots := st.parse(words, syn, s)
	st.score(slots, s)
	cs := make([]cand, 0, len(s.touched)) // most pass: growing it cost more than the filters
	for _, d := range s.touched {
		if f.ok(d, st.meta[d]) {
			cs = append(cs, cand{doc: d, matched: uint8(matched(s.mask[d])), score: s.score[d]})
		}
	}
	return cs, len(slots)
}

// byRelevance reports whether s ranks by the text (unknown sorts do).
func byRelevance(s search.Sort) bool {
	switch s {
	case search.SortPriceAsc, search.SortPriceDesc, search.SortRating, search.SortPopular:
		return false
	}
	return true
}

// products copies the candidates' products out of the index: callers may
// keep or change them.
func (st *state) products(cs []cand) []catalog.Product {
	out := make([]catalog.Product, len(cs))
	for i, c := range cs {
		p := st.docs[c.doc].p
		p.Attributes = maps.Clone(p.Attributes)
		p.ImageURLs = slices.Clone(p.ImageURLs)
		p.Category = categoryOf(p.Category)
		out[i] = p
	}
	return out
}
