package vectorizer

import (
	"context"
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// DefaultLocalDim is the vector length NewLocal uses for dim ≤ 0: enough
// coordinates that hash collisions stay well below the similarity of a
// misspelt word to the word meant, few enough that a 100,000-product
// catalog fits in 25 MB of int8 vectors.
const DefaultLocalDim = 256

// idfBits sizes the idf table: features are counted in 2²⁰ buckets of
// their hash (4 MB), so the table does not grow with the catalog.
const idfBits = 20

// Local is the built-in Embedder: hashed character n-grams and words,
// TF-IDF weighted, with the idf fitted on the catalog (see the package
// documentation). The same texts and Fit always give the same vectors, in
// every process. It needs no network and is safe for concurrent use; Fit
// may run while Embed does.
type Local struct {
	dim int
	fit atomic.Pointer[fitted] // nil: unfitted, every weight 1
}

// fitted is what Fit learnt.
type fitted struct {
	idf    []float32 // by feature bucket; 0 for features in no text
	unseen float32   // the idf a feature in no text would have
}

// NewLocal returns an unfitted Local embedder of dim coordinates
// (DefaultLocalDim if dim ≤ 0). Unfitted, features are weighed by their
// count alone.
func NewLocal(dim int) *Local {
	if dim <= 0 {
		dim = DefaultLocalDim
	}
	return &Local{dim: dim}
}

// Name is "local-" and the dimension.
func (l *Local) Name() string { return "local-" + strconv.Itoa(l.dim) }

// Dim is the vector length.
func (l *Local) Dim() int { return l.dim }

// Fit learns the inverse document frequency of every feature from texts,
// normally every product of the catalog, replacing what an earlier Fit
// learnt. A feature in df of n texts weighs ln((1+n)/(1+df)) + 1. One in
// none cannot match any of them: it gets no coordinate, but shortens the
// vector by its weight, so a query only partly made of the catalog's
// words is less similar to everything, and nonsense is similar to nothing.
func (l *Local) Fit(texts []string) {
	df := make([]uint32, 1<<idfBits)
	last := make([]int32, 1<<idfBits) // 1 + the text that last counted the bucket
	var f features
	for i, t := range texts {
		f.each(t, func(h uint64, _ float32) {
			if b := bucket(h); last[b] != int32(i+1) {
				last[b] = int32(i + 1)
				df[b]++
			}
		})
	}
	n := float64(len(texts))
	fit := &fitted{idf: make([]float32, 1<<idfBits), unseen: float32(math.Log(1+n) + 1)}
	for b, c := range df {
		if c > 0 {
			fit.idf[b] = float32(math.Log((1+n)/(1+float64(c))) + 1)
		}
	}
	l.fit.Store(fit)
}

// parallelFrom is the batch size from which Embed uses every CPU.
const parallelFrom = 512

// Embed returns the unit-length vectors of texts; a text without words
// gets the zero vector. Large batches are split across CPUs.
func (l *Local) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fit := l.fit.Load()
	flat := make([]float32, len(texts)*l.dim)
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = flat[i*l.dim : (i+1)*l.dim : (i+1)*l.dim]
	}
	workers := 1
	if len(texts) >= parallelFrom {
		workers = runtime.GOMAXPROCS(0)
	}
	each := func(w int) {
		var f features
		for i := w; i < len(texts); i += workers {
			l.vector(&f, fit, texts[i], out[i])
		}
	}
	if workers == 1 { // a query: no goroutine to start
		each(0)
		return out, nil
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { each(w) })
	}
	wg.Wait()
	return out, ctx.Err()
}

// vector adds the weighted, signed features of text into v and scales it
// to unit length, or shorter by the share of the weight that fell on
// features no fitted text had.
func (l *Local) vector(f *features, fit *fitted, text string, v []float32) {
	dim := uint64(l.dim)
	var known, unknown float64 // squared weights
	f.each(text, func(h uint64, w float32) {
		if fit != nil {
			idf := fit.idf[bucket(h)]
			if idf == 0 {
				unknown += float64(w*fit.unseen) * float64(w*fit.unseen)
				return
			}
			w *= idf
		}
		known += float64(w) * float64(w)
		if h>>63 != 0 {
			w = -w
		}
		v[h%dim] += w
	})
	if Normalize(v) && unknown > 0 {
		scale := float32(math.Sqrt(known / (known + unknown)))
		for i := range v {
			v[i] *= scale
		}
	}
}

// bucket is a feature's slot in the idf table: hash bits that neither the
// coordinate (the low bits, modulo dim) nor the sign (the top bit) use.
func bucket(h uint64) uint32 { return uint32(h>>32) & (1<<idfBits - 1) }
