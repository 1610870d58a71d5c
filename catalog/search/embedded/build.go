package embedded

import (
	"slices"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// builder makes a fresh state for Rebuild. BM25F weights need the average
// field lengths of the whole catalog, so it first collects raw per-field
// counts and turns them into weights in finish.
type builder struct {
	st   *state
	raw  [][]rawPosting      // by term id
	lens [][numFields]uint16 // by doc id
	sum  [numFields]float64  // total field lengths of active products
}

// rawPosting packs a document's per-field counts, 6 bits each.
type rawPosting struct {
	doc int32
	tf  uint32
}

func newBuilder() *builder { return &builder{st: newState()} }

// add appends p with its variants fam (nil for none). Rebuild sees each
// SKU once.
func (b *builder) add(p catalog.Product, a *analyzed, fam *family) {
	st := b.st
	st.bump(p.UpdatedAt)
	id := int32(len(st.docs))
	cat := st.category(&p)
	st.bySKU[p.SKU] = id
	e := entry{p: p, cat: cat, sig: a.sig, script: analysis.ScriptOf(p.Title)}
	b.lens = append(b.lens, a.length)
	if p.Active {
		st.active++
		st.indexAttrs(id, p.Attributes)
		e.terms = b.post(id, a)
		for f, n := range a.length {
			b.sum[f] += float64(n)
		}
	}
	e.varSKUs = st.setFamily(id, p.SKU, fam, p.Active)
	st.docs = append(st.docs, e)
	st.sync(id)
}

func (b *builder) post(id int32, a *analyzed) []int32 {
	ids := b.st.register(a)
	for len(b.raw) < len(b.st.postings) {
		b.raw = append(b.raw, nil)
	}
	for i, t := range ids {
		b.raw[t] = append(b.raw[t], rawPosting{doc: id, tf: pack(a.terms[i].tf)})
	}
	slices.Sort(ids)
	return ids
}

// finish computes the average field lengths and the final posting lists,
// each allocated at its exact size.
func (b *builder) finish() *state {
	st := b.st
	if st.active > 0 {
		for f := range numFields {
			st.avgLen[f] = float32(b.sum[f] / float64(st.active))
		}
	}
	for t, raw := range b.raw {
		ps := make([]posting, len(raw))
		for i, r := range raw {
			ps[i] = posting{doc: r.doc, w: weight(unpack(r.tf), b.lens[r.doc], st.avgLen)}
		}
		st.postings[t] = ps
		b.raw[t] = nil
	}
	return st
}

func pack(tf [numFields]uint8) uint32 {
	var v uint32
	for f, n := range tf {
		v |= uint32(min(n, 63)) << (6 * f)
	}
	return v
}

func unpack(v uint32) [numFields]uint8 {
	var tf [numFields]uint8
	for f := range tf {
		tf[f] = uint8(v >> (6 * f) & 63)
	}
	return tf
}
