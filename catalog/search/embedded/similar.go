package embedded

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// Similar returns active products like the one with sku: those from its
// top-level category first, then by BM25F of its title, brand and category
// words against theirs, fused with the similarity of their vectors when
// the index has an embedder. It never includes the product itself, nor
// variants; a variant's SKU is answered as its parent's.
func (x *Index) Similar(ctx context.Context, sku string, limit int) ([]catalog.Product, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)
	x.mu.RLock()
	defer x.mu.RUnlock()
	st := x.st
	if v, ok := st.variants[sku]; ok {
		sku = v.parent
	}
	id, ok := st.bySKU[sku]
	if !ok {
		return nil, fmt.Errorf("search: embedded: similar to %q: %w", sku, catalog.ErrNotFound)
	}
	s := getScratch(len(st.docs))
	defer s.release()
	st.score(st.similarSlots(&st.docs[id]), s)
	var cs []cand
	for _, d := range s.touched {
		if e := &st.docs[d]; d != id && !e.removed && e.p.Active {
			cs = append(cs, cand{doc: d, score: s.score[d]})
		}
	}
	if p := st.vec.docProbe(id); p != nil && x.alpha > 0 {
		cs = st.fuse(cs, fusion{probe: p, alpha: x.alpha, floor: x.floor}, &filter{}, id, s)
	}
	col := collector{k: limit, compare: st.similarOrder(id)}
	for _, c := range cs {
		col.add(c)
	}
	return st.products(col.sorted()), nil
}

// similarSlots makes a query of the distinct words of a product's title,
// brand and category, keeping the rarest when there are too many.
func (st *state) similarSlots(e *entry) []slot {
	texts := fieldTexts(&e.p, "")
	var ts []int32
	for _, f := range []field{fieldTitle, fieldBrand, fieldCategory} {
		analysis.EachTerm(texts[f], nil, func(_, s string, _ bool) {
			if t, ok := st.term(s); ok && !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		})
	}
	slices.SortFunc(ts, func(a, b int32) int {
		if c := cmp.Compare(len(st.postings[a]), len(st.postings[b])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	slots := make([]slot, 0, min(len(ts), analysis.MaxSlots))
	for _, t := range ts[:min(len(ts), analysis.MaxSlots)] {
		slots = append(slots, slot{alts: []alt{{terms: []int32{t}, weight: 1}}})
	}
	return slots
}

// similarOrder ranks products of the same top-level category as doc
// first, then by score, then by SKU.
func (st *state) similarOrder(doc int32) compareFunc {
	top := st.topCategory(doc)
	same := func(c cand) int { return boolRank(top != "" && st.topCategory(c.doc) == top) }
	return func(a, b cand) int {
		if c := cmp.Compare(same(b), same(a)); c != 0 {
			return c
		}
		return st.compare(a, b)
	}
}

// topCategory is the lower-cased first name of a document's category path.
func (st *state) topCategory(doc int32) string {
	if c := st.docs[doc].cat; c >= 0 && len(st.cats[c].segs) > 0 {
		return st.cats[c].segs[0]
	}
	return ""
}
