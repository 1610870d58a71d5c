package embedded

import (
	"context"
	"fmt"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
)

// passageBatch is how many passages one database read returns.
const passageBatch = 2000

// Rebuild loads every passage from db into a new generation, fitting the
// embedder on their texts when it learns from them, and swaps it in.
func (x *Passages) Rebuild(ctx context.Context, db search.PassageCatalog) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	return x.rebuild(ctx, db)
}

func (x *Passages) rebuild(ctx context.Context, db search.PassageCatalog) error {
	var all []catalog.Passage
	err := db.EachPassage(ctx, passageBatch, func(ps []catalog.Passage) error {
		all = append(all, ps...)
		return nil
	})
	if err != nil {
		return fmt.Errorf("search: embedded: passages: rebuild: %w", err)
	}
	if f, ok := x.emb.(fitter); ok {
		texts := make([]string, len(all))
		for i := range all {
			texts[i] = analysis.PassageVectorText(&all[i])
		}
		f.Fit(texts)
	}
	docs, vecs := x.analyze(ctx, all)
	st := newPState()
	for i, d := range docs {
		st.add(d, vecs[i])
	}
	x.mu.Lock()
	x.st = st
	x.mu.Unlock()
	x.built = true
	return nil
}

// analyze makes documents of passages, with their vectors; when embedding
// fails they rank by keywords alone (until the next rebuild or change).
func (x *Passages) analyze(ctx context.Context, ps []catalog.Passage) ([]pdoc, [][]float32) {
	docs := make([]pdoc, len(ps))
	vecs := make([][]float32, len(ps))
	texts := make([]string, len(ps))
	for i := range ps {
		terms, n := analyzePassage(&ps[i])
		docs[i] = pdoc{p: ps[i], terms: terms, length: n}
		texts[i] = analysis.PassageVectorText(&ps[i])
	}
	if x.emb == nil || len(ps) == 0 {
		return docs, vecs
	}
	for lo := 0; lo < len(ps); lo += embedBatch {
		hi := min(lo+embedBatch, len(ps))
		got, err := x.emb.Embed(ctx, texts[lo:hi])
		if err == nil && len(got) != hi-lo {
			err = errWrongCount
		}
		if err != nil {
			x.log.WarnContext(ctx, "search index: embedding passages failed; they rank by keywords",
				"embedder", x.emb.Name(), "passages", hi-lo, "err", err)
			continue
		}
		copy(vecs[lo:hi], got)
	}
	return docs, vecs
}

// Upsert reloads the passages of these sources (PassageKey: "page:returns");
// a source without passages any more is removed.
func (x *Passages) Upsert(ctx context.Context, db search.PassageCatalog, keys ...string) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	return x.upsert(ctx, db, keys)
}

func (x *Passages) upsert(ctx context.Context, db search.PassageCatalog, keys []string) error {
	ps, err := db.PassagesOf(ctx, keys)
	if err != nil {
		return fmt.Errorf("search: embedded: passages: upsert: %w", err)
	}
	docs, vecs := x.analyze(ctx, ps)
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, k := range keys {
		x.st.removeSource(k)
	}
	for i, d := range docs {
		x.st.add(d, vecs[i])
	}
	x.st = x.st.compacted()
	return nil
}

// Follow keeps the index current until ctx ends, as Index.Follow does for
// products: every Poll it reloads the sources written since the newest it
// has (less an overlap for late commits), and every reconcileEvery polls
// compares counts to notice deleted sources.
func (x *Passages) Follow(ctx context.Context, db search.PassageCatalog) {
	tick := time.NewTicker(x.poll)
	defer tick.Stop()
	var failures int
	var logged time.Time
	for n := 0; ; n++ {
		err := x.followOnce(ctx, db, n)
		switch {
		case ctx.Err() != nil:
		case err != nil:
			failures++
			if time.Since(logged) >= time.Minute {
				x.log.WarnContext(ctx, "passage index update failed; retrying", "err", err, "failed_polls", failures)
				logged = time.Now()
			}
		case failures > 0:
			x.log.InfoContext(ctx, "passage index updates resumed", "failed_polls", failures)
			failures = 0
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Sync brings the index up to date once (what one poll of Follow does,
// reconciling deletions too).
func (x *Passages) Sync(ctx context.Context, db search.PassageCatalog) error {
	return x.followOnce(ctx, db, reconcileEvery-1)
}

func (x *Passages) followOnce(ctx context.Context, db search.PassageCatalog, n int) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	if !x.built {
		return x.rebuild(ctx, db)
	}
	x.mu.RLock()
	since := x.st.newest.Add(-followOverlap)
	x.mu.RUnlock()
	for {
		cs, err := db.PassageChanges(ctx, since, followPage)
		if err != nil {
			return fmt.Errorf("search: embedded: passages: follow: %w", err)
		}
		if stale := x.stale(cs); len(stale) > 0 {
			if err := x.upsert(ctx, db, stale); err != nil {
				return err
			}
		}
		if len(cs) < followPage {
			break
		}
		since = cs[len(cs)-1].UpdatedAt
	}
	if n%reconcileEvery == reconcileEvery-1 {
		return x.reconcile(ctx, db)
	}
	return nil
}

// stale returns the keys of the changed sources the index has an older
// copy of, or none.
func (x *Passages) stale(cs []catalog.PassageChange) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var keys []string
	for _, c := range cs {
		key := catalog.PassageKey(c.Kind, c.Ref)
		ids := x.st.sources[key]
		if len(ids) == 0 || !x.st.docs[ids[0]].p.UpdatedAt.Equal(c.UpdatedAt) {
			keys = append(keys, key)
		}
	}
	return keys
}

// reconcile removes the sources deleted from the database (a deletion
// leaves no updated_at to follow). Counts are compared first.
func (x *Passages) reconcile(ctx context.Context, db search.PassageCatalog) error {
	n, err := db.CountPassages(ctx)
	if err != nil || n == x.Len() {
		return err
	}
	keys, err := db.PassageSources(ctx)
	if err != nil {
		return fmt.Errorf("search: embedded: passages: reconcile: %w", err)
	}
	inDB := make(map[string]bool, len(keys))
	for _, k := range keys {
		inDB[k] = true
	}
	var changed []string
	x.mu.RLock()
	for k := range x.st.sources {
		if !inDB[k] {
			changed = append(changed, k)
		}
	}
	for _, k := range keys {
		if _, ok := x.st.sources[k]; !ok {
			changed = append(changed, k)
		}
	}
	x.mu.RUnlock()
	return x.upsert(ctx, db, changed)
}

// Expand analyzes query text against the passages' vocabulary: the query
// expansion of the Weaviate passage collection (weaviate.Config's
// PassageExpander).
func (x *Passages) Expand(text string) [][]analysis.Alternative {
	ws := analysis.QueryWords(text)
	if len(ws) == 0 {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	slots := x.st.slots(ws, x.syn)
	out := make([][]analysis.Alternative, len(slots))
	for i, sl := range slots {
		out[i] = sl
	}
	return out
}
