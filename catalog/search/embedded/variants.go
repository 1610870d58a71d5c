package embedded

import (
	"maps"
	"slices"
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// Variants. A product with variants is one document: the parent row plus
// its variants. Variant rows (parent_id set) are never documents. The
// option values of the parent's active variants join its attribute text
// (so "navy tee" or "trail runner 42" finds it); those of its active
// variants in stock go into the option index, which search.Query.Options
// filters by.
//
// The option index maps each option value ("size\x0042", lower-cased, an
// id from optIDs) to the sorted active documents having an active variant
// in stock with it. An Options filter takes the intersection of its
// values' lists as candidates, then checks that one variant of each
// candidate has every value asked for (and, with a price filter, a price
// in range): "size 42 + navy" needs a variant that is both.
//
// Price filters read a parent as its price range: without an Options
// filter a parent passes when [Price, PriceMax] (its lowest and highest
// active variant) overlaps the asked range, so one "from $24" to $27
// matches "under $25"; with an Options filter the price of a matching
// variant must be in range.

// A document's in-stock active variants, as option filters read them, are
// packed in one []int32 (state.vars, by document): for each variant its
// number of option values n, its price (high and low 32 bits), then its n
// option value ids, sorted. A filter then reads one array per candidate.

// family is what a parent's variants add to its document.
type family struct {
	text string               // option names and values of active variants, as attribute text
	keys []string             // option values of in-stock active variants, sorted, distinct
	vars []variantOptions     // in-stock active variants
	skus map[string]time.Time // every variant's SKU and updated_at
}

// variantOptions is an in-stock variant's option values before they get ids.
type variantOptions struct {
	keys  []string
	price int64
}

// familyOf summarizes a parent's variants; nil when it has none.
func familyOf(vs []catalog.VariantRow) *family {
	if len(vs) == 0 {
		return nil
	}
	f := &family{skus: make(map[string]time.Time, len(vs))}
	values := map[string][]string{}
	var keys []string
	for _, v := range vs {
		f.skus[v.SKU] = v.UpdatedAt
		if !v.Active {
			continue
		}
		for n, val := range v.Options {
			values[n] = append(values[n], val)
		}
		if v.Stock <= 0 {
			continue
		}
		ks := make([]string, 0, len(v.Options))
		for n, val := range v.Options {
			ks = append(ks, analysis.AttributeKey(catalog.OptionName(n), val))
		}
		slices.Sort(ks)
		keys = append(keys, ks...)
		f.vars = append(f.vars, variantOptions{keys: ks, price: v.Price})
	}
	slices.Sort(keys)
	f.keys = slices.Compact(keys)
	text := make(map[string]string, len(values))
	for n, vals := range values {
		slices.Sort(vals)
		text[n] = strings.Join(slices.Compact(vals), ", ")
	}
	f.text = analysis.AttributeText(text)
	return f
}

// optionText is the attribute text a family adds ("" for none).
func (f *family) optionText() string {
	if f == nil {
		return ""
	}
	return f.text
}

// optionID returns the id of an option value, creating it.
func (st *state) optionID(key string) int32 {
	if id, ok := st.optIDs[key]; ok {
		return id
	}
	id := int32(len(st.optDocs))
	st.optIDs[strings.Clone(key)] = id
	st.optDocs = append(st.optDocs, nil)
	return id
}

// setFamily records a parent document's variants: their SKUs, its packed
// in-stock variants (st.vars), and when index is true (the document is
// active and its option values changed) adds it to the option index. It
// returns the document's variant SKUs.
func (st *state) setFamily(doc int32, parent string, f *family, index bool) []string {
	for len(st.vars) <= int(doc) {
		st.vars = append(st.vars, nil)
	}
	st.vars[doc] = nil
	if f == nil {
		return nil
	}
	skus := make([]string, 0, len(f.skus))
	for sku, t := range f.skus {
		sku = strings.Clone(sku)
		skus = append(skus, sku)
		st.variants[sku] = variantRef{parent: parent, updated: t}
		st.bump(t)
	}
	var packed []int32
	for _, v := range f.vars {
		packed = append(packed, int32(len(v.keys)), int32(v.price>>32), int32(uint32(v.price)))
		at := len(packed)
		for _, k := range v.keys {
			packed = append(packed, st.optionID(k))
		}
		slices.Sort(packed[at:])
	}
	st.vars[doc] = slices.Clip(packed)
	if index {
		for _, k := range f.keys {
			id := st.optionID(k)
			l := st.optDocs[id]
			if i, found := slices.BinarySearch(l, doc); !found {
				st.optDocs[id] = slices.Insert(l, i, doc)
			}
		}
	}
	return skus
}

// unindexOptions removes doc from the option index.
func (st *state) unindexOptions(doc int32) {
	if int(doc) >= len(st.vars) {
		return
	}
	for v := st.vars[doc]; len(v) > 0; v = v[3+v[0]:] {
		for _, id := range v[3 : 3+v[0]] {
			l := st.optDocs[id]
			if i, found := slices.BinarySearch(l, doc); found {
				st.optDocs[id] = slices.Delete(l, i, i+1)
			}
		}
	}
}

// forgetVariants drops the variant SKUs of a parent from the index's
// record of variants.
func (st *state) forgetVariants(parent string, skus []string) {
	for _, s := range skus {
		if r, ok := st.variants[s]; ok && r.parent == parent {
			delete(st.variants, s)
		}
	}
}

// variantRef is a variant SKU the index knows of: its parent's SKU and
// its updated_at, for Follow and Similar.
type variantRef struct {
	parent  string
	updated time.Time
}

// optionFilter resolves Query.Options to option value ids, sorted. ok is
// false when a value is in no in-stock variant: nothing can match.
func (st *state) optionFilter(want map[string]string) (ids []int32, ok bool) {
	for _, n := range slices.Sorted(maps.Keys(want)) {
		id, found := st.optIDs[analysis.AttributeKey(catalog.OptionName(n), want[n])]
		if !found {
			return nil, false
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}

// optionSet returns the documents in every list of ids.
func (st *state) optionSet(ids []int32) bitset {
	out := newBitset(len(st.docs))
	ids = slices.Clone(ids)
	slices.SortFunc(ids, func(a, b int32) int { return len(st.optDocs[a]) - len(st.optDocs[b]) })
	for _, d := range st.optDocs[ids[0]] {
		out.set(d)
	}
	for _, id := range ids[1:] {
		next := newBitset(len(st.docs))
		for _, d := range st.optDocs[id] {
			if out.has(d) {
				next.set(d)
			}
		}
		out = next
	}
	return out
}

// variantMatch reports whether one of the packed variants has every
// option value of want (sorted) and a price within [lo, hi] (zero: no
// bound).
func variantMatch(packed []int32, want []int32, lo, hi int64) bool {
	for v := packed; len(v) > 0; v = v[3+v[0]:] {
		price := int64(v[1])<<32 | int64(uint32(v[2]))
		if (lo > 0 && price < lo) || (hi > 0 && price > hi) {
			continue
		}
		if containsSorted(v[3:3+v[0]], want) {
			return true
		}
	}
	return false
}

// containsSorted reports whether every element of want (sorted) is in
// have (sorted).
func containsSorted(have, want []int32) bool {
	i := 0
	for _, w := range want {
		for i < len(have) && have[i] < w {
			i++
		}
		if i == len(have) || have[i] != w {
			return false
		}
	}
	return true
}
