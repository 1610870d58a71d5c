package embedded

import (
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"

	"shopbot/catalog"
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

// analysis is what one product contributes to the index.
type analysis struct {
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
	stems stemCache
	pos   map[string]int // stem → index in the analysis being built
	seen  map[string]bool
}

func newAnalyzer() *analyzer {
	return &analyzer{stems: stemCache{}, pos: map[string]int{}, seen: map[string]bool{}}
}

// product analyzes every indexed field of p.
func (a *analyzer) product(p *catalog.Product) analysis {
	clear(a.pos)
	clear(a.seen)
	texts := fieldTexts(p)
	out := analysis{sig: signature(p, texts)}
	for f, text := range texts {
		docTerms(text, a.stems, func(w, s string, compound bool) {
			a.count(&out, field(f), w, s, compound)
		})
	}
	return out
}

func (a *analyzer) count(out *analysis, f field, w, s string, compound bool) {
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

// docTerms calls fn for every indexable word of text with its stem, and
// once more for each compound joined up ("wi-fi" also yields "wifi", and
// "16gb" both "16", "gb" and "16gb"), so a query may spell it either way.
func docTerms(text string, stems stemCache, fn func(word, stem string, compound bool)) {
	var parts []string
	flush := func() {
		if len(parts) > 1 {
			j := strings.Join(parts, "")
			fn(j, stems.stem(j), true)
		}
		parts = parts[:0]
	}
	lex(text, func(w word) {
		if !w.joined {
			flush()
		}
		parts = append(parts, w.text)
		if indexable(w.text) {
			fn(w.text, stems.stem(w.text), false)
		}
	})
	flush()
}

// fieldTexts returns the text of each field of p.
func fieldTexts(p *catalog.Product) [numFields]string {
	var t [numFields]string
	t[fieldTitle], t[fieldBrand], t[fieldDesc] = p.Title, p.Brand, p.Description
	if p.Category != nil {
		t[fieldCategory] = p.Category.Path
	}
	t[fieldAttrs] = attributeText(p.Attributes)
	return t
}

// attributeText renders attributes as searchable text: "color: red" keeps
// the key ("size 42" finds sizes), a yes/no flag becomes its key or nothing
// ("waterproof": "no" must not match "waterproof").
func attributeText(attrs map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		v := attrs[k]
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", "no", "false", "нет":
			continue
		case "yes", "true", "да":
			b.WriteString(k)
		default:
			b.WriteString(k + ": " + v)
		}
		b.WriteString("; ")
	}
	return b.String()
}

// signature hashes what the postings and attribute index depend on, so a stock or price change
// updates the stored product without touching the posting lists.
func signature(p *catalog.Product, texts [numFields]string) uint64 {
	h := fnv.New64a()
	for _, t := range texts {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	for _, k := range attrKeys(p.Attributes) { // the attribute index, "no" values included
		h.Write([]byte(k))
		h.Write([]byte{0})
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
