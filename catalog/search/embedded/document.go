package embedded

import (
	"hash/fnv"
	"strconv"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// field is a part of a product that is weighted separately (BM25F).
type field uint8

const (
	fieldTitle field = iota
	fieldBrand
	fieldCategory
	fieldAttrs
	fieldDesc
	numFields
)

// fieldBoost weighs a word in the title three times one in the description.
var fieldBoost = [numFields]float32{3, 2, 1.5, 1.5, 1}

// BM25 parameters: term-frequency saturation and length normalization.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// analyzed is what one product contributes to the index.
type analyzed struct {
	terms    []termFreq
	length   [numFields]uint16 // words per field
	surfaces []surface         // distinct words and their stems, for typo lookup
	sig      uint64            // hash of everything indexed: equal means no re-posting
}

// termFreq is one distinct term of a product and its count per field.
type termFreq struct {
	stem string
	tf   [numFields]uint8
}

type surface struct{ word, stem string }

// analyzer turns products into analyses. It belongs to the index writer.
type analyzer struct {
	stems analysis.StemCache
	pos   map[string]int // stem → index in the terms being built
	seen  map[string]bool
}

func newAnalyzer() *analyzer {
	return &analyzer{stems: analysis.StemCache{}, pos: map[string]int{}, seen: map[string]bool{}}
}

// product analyzes every indexed field of p, with the option values of
// its variants (fam, nil for none) as attribute text.
func (a *analyzer) product(p *catalog.Product, fam *family) analyzed {
	clear(a.pos)
	clear(a.seen)
	texts := fieldTexts(p, fam.optionText())
	out := analyzed{sig: signature(p, texts, fam)}
	for f, text := range texts {
		analysis.EachTerm(text, a.stems, func(w, s string, compound bool) {
			a.count(&out, field(f), w, s, compound)
		})
	}
	return out
}

func (a *analyzer) count(out *analyzed, f field, w, s string, compound bool) {
	if !compound && out.length[f] < 1<<16-1 {
		out.length[f]++
	}
	i, ok := a.pos[s]
	if !ok {
		i = len(out.terms)
		a.pos[s] = i
		out.terms = append(out.terms, termFreq{stem: s})
	}
	if out.terms[i].tf[f] < 63 {
		out.terms[i].tf[f]++
	}
	if !a.seen[w] {
		a.seen[w] = true
		out.surfaces = append(out.surfaces, surface{word: w, stem: s})
	}
}

// fieldTexts returns the text of each field of p; options is the
// attribute text of its variants' option values.
func fieldTexts(p *catalog.Product, options string) [numFields]string {
	var t [numFields]string
	t[fieldTitle], t[fieldBrand], t[fieldDesc] = p.Title, p.Brand, p.Description
	if p.Category != nil {
		t[fieldCategory] = p.Category.Path
	}
	t[fieldAttrs] = analysis.AttributeText(p.Attributes) + options
	return t
}

// signature hashes what the postings, attribute index and option index
// depend on, so a stock or price change updates the stored product without
// touching the posting lists.
func signature(p *catalog.Product, texts [numFields]string, fam *family) uint64 {
	h := fnv.New64a()
	for _, t := range texts {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	for _, k := range analysis.AttributeKeys(p.Attributes) { // the attribute index, "no" values included
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	if fam != nil {
		h.Write([]byte{1})
		for _, k := range fam.keys { // option values in stock
			h.Write([]byte(k))
			h.Write([]byte{0})
		}
	}
	h.Write([]byte(strconv.FormatBool(p.Active)))
	return h.Sum64()
}

// weight is the BM25F pseudo-frequency of a term in a document: field
// counts weighted by boost and normalized by field length.
func weight(tf [numFields]uint8, length [numFields]uint16, avg [numFields]float32) float32 {
	var w float32
	for f, n := range tf {
		if n == 0 {
			continue
		}
		norm := 1 - bm25B + bm25B*float32(length[f])/max(avg[f], 1)
		w += fieldBoost[f] * float32(n) / norm
	}
	return w
}
