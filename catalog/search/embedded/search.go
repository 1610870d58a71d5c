package embedded

import (
	"context"
	"maps"
	"slices"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

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

	x.mu.RLock()
	defer x.mu.RUnlock()
	st := x.st
	f := st.newFilter(q)
	words := queryWords(q.Text)
	text := len(words) > 0
	key := sortKey(q.Sort, text)
	col := collector{k: offset + limit, compare: st.compare}
	if text {
		relevance := byRelevance(q.Sort)
		for _, c := range st.textCandidates(words, x.syn, &f, relevance) {
			if !relevance {
				c.matched, c.score = 0, 0
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
func (st *state) textCandidates(words []qword, syn *synonyms, f *filter, relevance bool) []cand {
	s := getScratch(len(st.docs))
	defer s.release()
	slots := st.parse(words, syn, s)
	st.score(slots, s)
	var cs []cand
	for _, d := range s.touched {
		if f.ok(d, &st.docs[d]) {
			cs = append(cs, cand{doc: d, matched: uint8(matched(s.mask[d])), score: s.score[d]})
		}
	}
	if !relevance && len(slots) > 1 {
		cs = bestTier(cs)
	}
	return cs
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
