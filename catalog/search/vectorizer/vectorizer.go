package vectorizer

import (
	"context"
	"math"
)

// Embedder turns texts into unit-length vectors.
//
// Embed returns one vector of Dim numbers per text, in order. A text with
// nothing to embed (empty, or only punctuation) gets the zero vector, which
// is close to nothing. Implementations are safe for concurrent use.
type Embedder interface {
	// Name identifies the embedder and its settings, e.g. "local-256" or
	// "openai:text-embedding-3-small": vectors of different names are not
	// comparable.
	Name() string
	// Dim is the vector length, or 0 while not yet known (a remote model
	// of unknown size before its first answer).
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Normalize scales v to unit length in place and reports whether it was
// non-zero; a zero (or non-finite) vector is set to all zeros.
func Normalize(v []float32) bool {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsInf(sum, 0) || math.IsNaN(sum) {
		clear(v)
		return false
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return true
}

// Cosine is the cosine similarity of a and b (0 when either is zero or
// their lengths differ).
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
