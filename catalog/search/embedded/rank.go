package embedded

import (
	"cmp"
	"math"
	"slices"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// cand is a document that passed the filters with what it is ranked by:
// the query slots it matched and its text score (relevance), or the sort
// key of the requested order. Higher ranks first; the SKU breaks ties, so
// pages are stable.
type cand struct {
	doc     int32
	matched uint8
	score   float32
	key     int64
}

// sortKey returns the key for a sort, higher first. Relevance without
// words puts what can be bought and is most reviewed first, as Database
// does; relevance with words needs no key.
func sortKey(s search.Sort, text bool) func(p *catalog.Product) int64 {
	switch s {
	case search.SortPriceAsc:
		return func(p *catalog.Product) int64 { return -p.Price }
	case search.SortPriceDesc:
		return func(p *catalog.Product) int64 { return p.Price }
	case search.SortRating:
		return func(p *catalog.Product) int64 { return pair(int64(math.Round(p.RatingAvg*1e4)), p.RatingCount) }
	case search.SortPopular:
		return func(p *catalog.Product) int64 { return pair(int64(p.SoldCount), p.RatingCount) }
	}
	if text {
		return func(*catalog.Product) int64 { return 0 }
	}
	return func(p *catalog.Product) int64 { return pair(int64(boolRank(p.Stock > 0)), p.RatingCount) }
}

// pair orders by hi, then lo; both are far below 2³¹ in practice.
func pair(hi int64, lo int) int64 { return hi<<32 | int64(min(max(lo, 0), math.MaxInt32)) }

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareFunc orders candidates best first.
type compareFunc func(a, b cand) int

func (st *state) compare(a, b cand) int {
	if c := cmp.Compare(b.matched, a.matched); c != 0 {
		return c
	}
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	if c := cmp.Compare(b.key, a.key); c != 0 {
		return c
	}
	return cmp.Compare(st.docs[a.doc].p.SKU, st.docs[b.doc].p.SKU)
}

// bestTier keeps the candidates matching the most slots. A query sorted by
// price or popularity is not meant to list the cheapest product that
// merely shares one word with it: "waterproof jacket" cheapest first lists
// waterproof jackets, not a waterproof mascara.
func bestTier(cs []cand) []cand {
	var top uint8
	for _, c := range cs {
		top = max(top, c.matched)
	}
	out := cs[:0]
	for _, c := range cs {
		if c.matched == top {
			out = append(out, c)
		}
	}
	return out
}

// collector keeps the best k candidates it is given, in a heap with the
// worst at the root (O(n log k) instead of sorting all n), and counts them.
type collector struct {
	k       int
	compare compareFunc
	items   []cand
	total   int
}

func (c *collector) add(x cand) {
	c.total++
	switch {
	case len(c.items) < c.k:
		c.items = append(c.items, x)
		c.up(len(c.items) - 1)
	case c.k > 0 && c.compare(x, c.items[0]) < 0:
		c.items[0] = x
		c.down(0)
	}
}

// sorted returns the kept candidates best first.
func (c *collector) sorted() []cand {
	slices.SortFunc(c.items, c.compare)
	return c.items
}

func (c *collector) worse(i, j int) bool { return c.compare(c.items[i], c.items[j]) > 0 }

func (c *collector) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !c.worse(i, parent) {
			return
		}
		c.items[i], c.items[parent] = c.items[parent], c.items[i]
		i = parent
	}
}

func (c *collector) down(i int) {
	for {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(c.items) && c.worse(l, w) {
			w = l
		}
		if r < len(c.items) && c.worse(r, w) {
			w = r
		}
		if w == i {
			return
		}
		c.items[i], c.items[w] = c.items[w], c.items[i]
		i = w
	}
}
