package embedded

import (
	"slices"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// filter is a query's hard constraints, checked on every candidate before
// ranking: a result never violates one.
type filter struct {
	cats     []bool // allowed category ordinals; nil: any category
	min, max int64
	inStock  bool
	attrs    bitset    // documents with the attribute and option values; nil: any
	opts     []int32   // option value ids one variant must all have (variants.go); nil: none
	vars     [][]int32 // the state's packed variants, when a variant must be checked; nil: attrs suffices
}

func (st *state) newFilter(q search.Query) filter {
	f := filter{min: q.MinPrice, max: q.MaxPrice, inStock: q.InStockOnly, attrs: st.attrSet(q.Attributes)}
	if q.Category != "" {
		f.cats = st.categoryMatches(q.Category)
	}
	if len(q.Options) > 0 {
		ids, ok := st.optionFilter(q.Options)
		if !ok {
			f.attrs = newBitset(len(st.docs)) // a value no variant in stock has
			return f
		}
		f.opts = ids
		if len(ids) > 1 || f.min > 0 || f.max > 0 {
			f.vars = st.vars // one option value without a price: the option index is exact
		}
		opts := st.optionSet(ids)
		if f.attrs != nil {
			for i := range opts {
				opts[i] &= f.attrs[i]
			}
		}
		f.attrs = opts
	}
	return f
}

// categoryMatches marks the categories in the subtree of path, where path
// is a full path or its last names ("Running", "Shoes > Running"), as
// Database does: the path's names appear, in order, in a category's path.
func (st *state) categoryMatches(path string) []bool {
	want := lowerSegments(path)
	ok := make([]bool, len(st.cats))
	if len(want) == 0 {
		return ok
	}
	for i, c := range st.cats {
		ok[i] = containsRun(c.segs, want)
	}
	return ok
}

// containsRun reports whether want occurs as consecutive elements of segs.
func containsRun(segs, want []string) bool {
	for i := 0; i+len(want) <= len(segs); i++ {
		if slices.Equal(segs[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// ok reports whether document d, with meta m, may be returned for the
// query. Prices: a parent's range [price, priceMax] must overlap the
// query's, or with option filters a matching variant's price be in it
// (variants.go).
func (f *filter) ok(d int32, m docMeta) bool {
	switch {
	case m.flags&metaLive == 0:
		return false
	case f.opts == nil && (f.min > 0 && m.priceMax < f.min || f.max > 0 && m.price > f.max):
		return false
	case f.inStock && m.flags&metaInStock == 0:
		return false
	case f.cats != nil && (m.cat < 0 || !f.cats[m.cat]):
		return false
	}
	if f.attrs != nil && !f.attrs.has(d) {
		return false
	}
	if f.vars == nil {
		return true
	}
	// The parent's range spans its active variants: outside the bounds
	// no variant can match; inside them, with one option value, every
	// variant the option index found does.
	switch {
	case f.min > 0 && m.priceMax < f.min, f.max > 0 && m.price > f.max:
		return false
	case len(f.opts) == 1 && m.price >= f.min && (f.max <= 0 || m.priceMax <= f.max):
		return true
	}
	return variantMatch(f.vars[d], f.opts, f.min, f.max)
}

// allowed calls fn for every document passing f: the candidates of a
// query with no words. With attribute filters only their documents are
// visited.
func (st *state) allowed(f *filter, fn func(d int32)) {
	if f.attrs != nil {
		f.attrs.each(func(d int32) {
			if f.ok(d, st.meta[d]) {
				fn(d)
			}
		})
		return
	}
	for i, m := range st.meta {
		if f.ok(int32(i), m) {
			fn(int32(i))
		}
	}
}

// categoryOf is a copy of a shared category for a result.
func categoryOf(c *catalog.Category) *catalog.Category {
	if c == nil {
		return nil
	}
	cp := *c
	return &cp
}
