package embedded

import (
	"math/bits"
	"slices"

	"shopbot/catalog/search/analysis"
)

// The attribute index maps "key\x00value", lower-cased, to the sorted ids
// of the active documents with that value; a comma-separated value such
// as "40, 41, 42" is indexed whole and as each listed value. Attribute
// filters become bitsets built from it, so checking one costs a bit test.

// indexAttrs adds doc to the lists of its attributes.
func (st *state) indexAttrs(doc int32, attrs map[string]string) {
	for _, k := range analysis.AttributeKeys(attrs) {
		l := st.attrs[k]
		i, found := slices.BinarySearch(l, doc)
		if !found {
			st.attrs[k] = slices.Insert(l, i, doc)
		}
	}
}

// unindexAttrs removes doc from the lists of its attributes.
func (st *state) unindexAttrs(doc int32, attrs map[string]string) {
	for _, k := range analysis.AttributeKeys(attrs) {
		l := st.attrs[k]
		if i, found := slices.BinarySearch(l, doc); found {
			st.attrs[k] = slices.Delete(l, i, i+1)
		}
	}
}

// bitset is a set of document ids.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(d int32) bool { return b[d>>6]&(1<<(d&63)) != 0 }

func (b bitset) set(d int32) { b[d>>6] |= 1 << (d & 63) }

// each calls fn for every member in increasing order.
func (b bitset) each(fn func(d int32)) {
	for i, w := range b {
		for w != 0 {
			fn(int32(i*64 + bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
}

// attrSet returns the documents having every attribute value asked for,
// or nil when none is asked for.
func (st *state) attrSet(want map[string]string) bitset {
	var out bitset
	for k, v := range want {
		b := newBitset(len(st.docs))
		for _, d := range st.attrs[analysis.AttributeKey(k, v)] {
			b.set(d)
		}
		if out == nil {
			out = b
			continue
		}
		for i := range out {
			out[i] &= b[i]
		}
	}
	return out
}
