package embedded

import (
	"math"
	"math/rand/v2"
	"testing"

	"shopbot/catalog/search/vectorizer"
)

func randomUnit(r *rand.Rand, dim int, density float64) []float32 {
	v := make([]float32, dim)
	for i := range v {
		if r.Float64() < density {
			v[i] = float32(r.NormFloat64())
		}
	}
	v[0] += 0.01 // never all zeros
	vectorizer.Normalize(v)
	return v
}

// TestQuantizedSimilarity: int8 vectors give the cosine to within 0.01,
// dense or sparse, and a shortened query shortens it in proportion.
func TestQuantizedSimilarity(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{8, 256, 1536} {
		var v vecStore
		docs := make([][]float32, 50)
		for d := range docs {
			docs[d] = randomUnit(r, dim, 1)
			if !v.set(int32(d), docs[d], len(docs)) {
				t.Fatalf("dim %d: doc %d has no vector", dim, d)
			}
		}
		for range 20 {
			q := randomUnit(r, dim, 0.1+r.Float64())
			for i := range q {
				q[i] *= 0.5
			}
			p := newProbe(q, dim)
			for d, doc := range docs {
				want := vectorizer.Cosine(q, doc) * 0.5
				if got := float64(v.sim(p, int32(d))); math.Abs(got-want) > 0.01 {
					t.Fatalf("dim %d: similarity %.4f, want %.4f", dim, got, want)
				}
			}
		}
	}
}

func TestVecStore(t *testing.T) {
	var v vecStore
	if v.set(3, []float32{0, 0, 0, 0}, 5) || v.has(3) {
		t.Error("a zero vector is no vector")
	}
	if !v.set(1, []float32{1, 0, 0, 0}, 5) || !v.has(1) || v.dim != 4 || len(v.inv) != 5 {
		t.Fatalf("set: dim %d, %d docs", v.dim, len(v.inv))
	}
	if v.set(1, []float32{1, 0}, 5) || v.has(1) {
		t.Error("a vector of another length replaced the old one or was kept")
	}
	v.set(7, []float32{0, 1, 0, 0}, 8)
	if !v.has(7) || v.has(6) || len(v.inv) != 8 {
		t.Errorf("growing: has(7) %v, %d docs", v.has(7), len(v.inv))
	}
	v.clear(7)
	if v.has(7) || v.has(100) {
		t.Error("cleared or unknown document has a vector")
	}
	if newProbe([]float32{1, 2}, 4) != nil || newProbe(make([]float32, 4), 4) != nil || newProbe(nil, 0) != nil {
		t.Error("probe of a wrong length or zero vector")
	}
}

// TestCoarseDistance: the closer the vector, the smaller the distance,
// and only the query's non-zero coordinates count.
func TestCoarseDistance(t *testing.T) {
	var v vecStore
	v.set(0, []float32{1, 1, 1, 1, -1, -1, -1, -1}, 3)
	v.set(1, []float32{1, 1, 1, -1, -1, -1, -1, 1}, 3)
	v.set(2, []float32{-1, -1, -1, -1, 1, 1, 1, 1}, 3)
	p := newProbe([]float32{1, 1, 1, 1, -1, -1, -1, -1}, 8)
	if d0, d1, d2 := v.distance(p, 0), v.distance(p, 1), v.distance(p, 2); d0 != 0 || d1 <= d0 || d2 <= d1 || d2 != 16 {
		t.Errorf("distances %d, %d, %d", d0, d1, d2)
	}
	sparse := newProbe([]float32{1, 0, 0, 0, 0, 0, 0, 0}, 8)
	if d0, d1 := v.distance(sparse, 0), v.distance(sparse, 1); d0 != d1 {
		t.Errorf("sparse query: %d, %d: coordinates it does not have counted", d0, d1)
	}
}

func TestThreshold(t *testing.T) {
	hist := []int32{0, 3, 5, 0, 4}
	for _, tc := range []struct {
		k         int
		highFirst bool
		cut, room int
	}{
		{1, false, 1, 1},
		{3, false, 1, 3},
		{4, false, 2, 1},
		{8, false, 2, 5},
		{100, false, 4, 100},
		{4, true, 4, 4},
		{5, true, 2, 1},
		{100, true, 0, 100},
	} {
		if cut, room := threshold(hist, tc.k, tc.highFirst); cut != tc.cut || room != tc.room {
			t.Errorf("k %d, highFirst %v: cut %d room %d, want %d %d", tc.k, tc.highFirst, cut, room, tc.cut, tc.room)
		}
	}
}

// TestCoarseScan4 checks the unrolled scan against vecStore.distance, and
// that it skips what the filter excludes.
func TestCoarseScan4(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	st := newState()
	const n = 200
	for d := range n {
		st.docs = append(st.docs, entry{cat: -1})
		st.docs[d].p.Active = d%10 != 0
		st.docs[d].p.Price = int64(d)
		st.sync(int32(d))
		st.vec.set(int32(d), randomUnit(r, 256, 1), n)
	}
	p := newProbe(randomUnit(r, 256, 0.2), 256)
	dist, hist := make([]uint16, n), make([]int32, 2*256+1)
	st.coarseScan(p, &filter{max: 150}, 5, dist, hist)
	counted := 0
	for d := range n {
		switch {
		case d%10 == 0 || d > 150 || d == 5:
			if dist[d] != noDistance {
				t.Errorf("doc %d: filtered out, yet distance %d", d, dist[d])
			}
		case int(dist[d]) != st.vec.distance(p, int32(d)):
			t.Errorf("doc %d: distance %d, want %d", d, dist[d], st.vec.distance(p, int32(d)))
		default:
			counted++
		}
	}
	total := 0
	for _, c := range hist {
		total += int(c)
	}
	if total != counted {
		t.Errorf("histogram counts %d, want %d", total, counted)
	}
}
