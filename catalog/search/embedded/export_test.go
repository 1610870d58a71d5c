package embedded

import (
	"github.com/uptrace/bun"
	"shopbot/catalog"

	"context"
	"slices"
)

// Hooks for the external tests and benchmarks of this package.

// VectorRecall is, averaged over texts, the share of a query's 10 most
// similar active products (exact similarity over the whole catalog) that
// the coarse scan hands on to exact rescoring. Products tied with the
// tenth count as found: the synthetic catalog has many identical texts.
func (x *Index) VectorRecall(ctx context.Context, texts []string) float64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	st := x.st
	var sum float64
	n := 0
	for _, text := range texts {
		p := newProbe(x.queryVector(ctx, text), st.vec.dim)
		if p == nil {
			continue
		}
		best := st.exactNearest(p, 10)
		tenth := st.vec.sim(p, best[len(best)-1])
		s := getScratch(len(st.docs))
		s.vectorArrays(len(st.docs))
		st.rescoreNearest(p, &filter{}, -1, s)
		found := 0
		for _, d := range s.vdocs {
			if s.vsim[d] >= tenth {
				found++
			}
		}
		s.release()
		sum += min(float64(found)/float64(len(best)), 1)
		n++
	}
	return sum / float64(n)
}

// TopSimilarity is the highest similarity of any active product to text.
func (x *Index) TopSimilarity(ctx context.Context, text string) float32 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	st := x.st
	p := newProbe(x.queryVector(ctx, text), st.vec.dim)
	if p == nil {
		return 0
	}
	best := st.exactNearest(p, 1)
	if len(best) == 0 {
		return 0
	}
	return st.vec.sim(p, best[0])
}

// exactNearest returns the k active documents most similar to p, by brute
// force.
func (st *state) exactNearest(p *probe, k int) []int32 {
	var ds []int32
	for d := range st.docs {
		if e := &st.docs[d]; !e.removed && e.p.Active && st.vec.has(int32(d)) {
			ds = append(ds, int32(d))
		}
	}
	slices.SortFunc(ds, func(a, b int32) int {
		sa, sb := st.vec.sim(p, a), st.vec.sim(p, b)
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return int(a - b)
	})
	return ds[:min(k, len(ds))]
}

// FollowOnce is one poll of Follow.
func (x *Index) FollowOnce(ctx context.Context, db bun.IDB) error {
	return x.followOnce(ctx, catalog.NewSearchSource(db), 1)
}
