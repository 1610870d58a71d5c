package embedded

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

const (
	// embedBatch is how many products one Embed call gets.
	embedBatch = 2048
	// queryEmbedTimeout bounds embedding a query; past it the query is
	// answered by keywords alone.
	queryEmbedTimeout = 3 * time.Second
	// fillEvery is how often Follow retries products whose embedding
	// failed, fillBatch how many at a time.
	fillEvery = 30 * time.Second
	fillBatch = 2048
	// warnEvery spaces out warnings about failing query embeddings.
	warnEvery = time.Minute
)

var errWrongCount = errors.New("embedder returned a wrong number of vectors")

// fitter is an embedder that learns from the catalog (vectorizer.Local): the
// index fits it on every active product at Rebuild.
type fitter interface{ Fit(texts []string) }

// embedAll computes the vectors of the active products of a new
// generation, fitting the embedder on their texts first when it learns
// from the catalog. A failure leaves the rest without vectors, to be
// retried by Follow; searches meanwhile rank them by keywords alone.
func (x *Index) embedAll(ctx context.Context, st *state) {
	if x.emb == nil {
		return
	}
	var docs []int32
	var texts []string
	for i := range st.docs {
		if e := &st.docs[i]; e.p.Active {
			docs = append(docs, int32(i))
			texts = append(texts, analysis.VectorText(&e.p))
		}
	}
	if f, ok := x.emb.(fitter); ok {
		f.Fit(texts)
	}
	st.vec.dim = x.emb.Dim()
	st.vec.words = (st.vec.dim + 63) / 64
	st.vec.grow(len(st.docs))
	if failed, err := x.embedDocs(ctx, st, docs, texts); err != nil {
		x.log.WarnContext(ctx, "search index: embedding products failed; they rank by keywords until retried",
			"embedder", x.emb.Name(), "products", failed, "err", err)
	}
}

// embedDocs embeds texts (parallel to docs) in batches and stores the
// vectors. Once a batch fails, it and the rest are marked missing; it
// returns how many and the error.
func (x *Index) embedDocs(ctx context.Context, st *state, docs []int32, texts []string) (int, error) {
	for lo := 0; lo < len(docs); lo += embedBatch {
		hi := min(lo+embedBatch, len(docs))
		vecs, err := x.emb.Embed(ctx, texts[lo:hi])
		if err == nil && len(vecs) != hi-lo {
			err = errWrongCount
		}
		if err != nil {
			for _, d := range docs[lo:] {
				st.vec.clear(d)
				st.missing[d] = true
			}
			return len(docs) - lo, err
		}
		for i, d := range docs[lo:hi] {
			st.vec.set(d, vecs[i], len(st.docs))
			delete(st.missing, d)
		}
	}
	return 0, nil
}

// vectorsFor embeds the products of an upsert whose vector is out of date:
// active ones that are new, changed in what they index, or without one.
// It runs under writeMu, so st cannot change meanwhile (and is only read).
func (x *Index) vectorsFor(ctx context.Context, st *state, ps []catalog.Product, as []analyzed) (want []bool, vecs [][]float32, err error) {
	if x.emb == nil {
		return nil, nil, nil
	}
	want = make([]bool, len(ps))
	var texts []string
	for i := range ps {
		p := &ps[i]
		id, ok := st.bySKU[p.SKU]
		if p.Active && (!ok || st.docs[id].sig != as[i].sig || !st.vec.has(id)) {
			want[i] = true
			texts = append(texts, analysis.VectorText(p))
		}
	}
	if len(texts) == 0 {
		return want, nil, nil
	}
	vecs, err = x.emb.Embed(ctx, texts)
	if err == nil && len(vecs) != len(texts) {
		err = errWrongCount
	}
	return want, vecs, err
}

// setVector stores the vector of the product just put, or marks it
// missing when embedding failed (vec nil).
func (st *state) setVector(sku string, vec []float32) {
	id, ok := st.bySKU[sku]
	if !ok {
		return
	}
	if vec == nil {
		st.vec.clear(id)
		st.missing[id] = true
		return
	}
	st.vec.set(id, vec, len(st.docs))
	delete(st.missing, id)
}

// fillMissing retries, at most every fillEvery, the products whose
// embedding failed. It runs under writeMu.
func (x *Index) fillMissing(ctx context.Context) error {
	x.mu.RLock()
	st, n := x.st, len(x.st.missing)
	x.mu.RUnlock()
	if x.emb == nil || n == 0 || time.Since(x.lastFill) < fillEvery {
		return nil
	}
	x.lastFill = time.Now()
	var docs []int32
	var texts []string
	for _, d := range slices.Sorted(maps.Keys(st.missing)) {
		if e := &st.docs[d]; !e.removed && e.p.Active {
			docs = append(docs, d)
			texts = append(texts, analysis.VectorText(&e.p))
		}
		if len(docs) == fillBatch {
			break
		}
	}
	vecs, err := x.emb.Embed(ctx, texts)
	if err == nil && len(vecs) != len(texts) {
		err = errWrongCount
	}
	if err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, d := range docs {
		st.vec.set(d, vecs[i], len(st.docs))
		delete(st.missing, d)
	}
	if len(docs) < fillBatch { // the rest were removed or inactive
		clear(st.missing)
	}
	return nil
}

// queryVector embeds a query's text, or returns nil when the index has no
// embedder or it fails; the query is then answered by keywords alone, with
// a warning now and then.
func (x *Index) queryVector(ctx context.Context, text string) []float32 {
	if x.emb == nil || x.alpha == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, queryEmbedTimeout)
	defer cancel()
	vecs, err := x.emb.Embed(ctx, []string{analysis.Truncate(text, analysis.MaxQueryBytes)})
	if err == nil && len(vecs) != 1 {
		err = errWrongCount
	}
	if err != nil {
		if now := time.Now().UnixNano(); now-x.lastWarn.Load() >= int64(warnEvery) {
			x.lastWarn.Store(now)
			x.log.WarnContext(ctx, "search: embedding the query failed; keywords only", "embedder", x.emb.Name(), "err", err)
		}
		return nil
	}
	return vecs[0]
}
