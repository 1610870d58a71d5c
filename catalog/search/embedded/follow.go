package embedded

import (
	"context"
	"fmt"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

const (
	// followOverlap re-reads changes this far behind the newest one seen:
	// a transaction that stamped updated_at earlier but committed later
	// (or a writer with a slightly slow clock) is still picked up.
	// Products whose updated_at the index already has are skipped.
	followOverlap = 2 * time.Second
	// followPage is how many changes one query reads.
	followPage = 5000
	// reconcileEvery is how many polls pass between checks for products
	// deleted from the database, which leave no updated_at behind.
	reconcileEvery = 20
)

// Follow keeps the index current until ctx ends. Every
// Poll it reloads the products whose updated_at is newer than the newest
// it has seen; every catalog write, including stock taken by orders, bumps
// updated_at. Without a prior Rebuild it starts with one. Errors are
// logged (at most once a minute while they last) and retried on the next
// poll.
func (x *Index) Follow(ctx context.Context, db search.Catalog) {
	tick := time.NewTicker(x.poll)
	defer tick.Stop()
	var fl failureLog
	for n := 0; ; n++ {
		err := x.followOnce(ctx, db, n)
		if ctx.Err() == nil {
			fl.report(ctx, x, err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// failureLog keeps a database outage from logging twice a second.
type failureLog struct {
	failures int
	logged   time.Time
}

func (l *failureLog) report(ctx context.Context, x *Index, err error) {
	switch {
	case err == nil && l.failures > 0:
		x.log.InfoContext(ctx, "search index updates resumed", "failed_polls", l.failures)
		*l = failureLog{}
	case err != nil:
		l.failures++
		if time.Since(l.logged) >= time.Minute {
			x.log.WarnContext(ctx, "search index update failed; retrying", "err", err, "failed_polls", l.failures)
			l.logged = time.Now()
		}
	}
}

func (x *Index) followOnce(ctx context.Context, db search.Catalog, n int) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	if !x.built {
		return x.rebuild(ctx, db)
	}
	if n%reconcileEvery == reconcileEvery-1 {
		if err := x.reconcile(ctx, db); err != nil {
			return err
		}
	}
	if err := x.catchUp(ctx, db); err != nil {
		return err
	}
	if err := x.loadShopSynonyms(ctx, db); err != nil {
		return err
	}
	return x.fillMissing(ctx)
}

// catchUp reloads every product changed since the newest indexed write.
func (x *Index) catchUp(ctx context.Context, db search.Catalog) error {
	since, after := x.newest().Add(-followOverlap), int64(0)
	for {
		cs, err := db.ChangedSince(ctx, since, after, followPage)
		if err != nil {
			return fmt.Errorf("search: embedded: follow: %w", err)
		}
		if stale := x.stale(cs); len(stale) > 0 {
			if err := x.upsert(ctx, db, stale); err != nil {
				return err
			}
		}
		if len(cs) < followPage {
			return nil
		}
		since, after = cs[len(cs)-1].UpdatedAt, cs[len(cs)-1].ID
	}
}

func (x *Index) newest() time.Time {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.st.newest
}

// stale returns the SKUs whose indexed copy is older than the change.
func (x *Index) stale(cs []catalog.Change) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var skus []string
	for _, c := range cs {
		if v, ok := x.st.variants[c.SKU]; ok {
			if !v.updated.Equal(c.UpdatedAt) {
				skus = append(skus, c.SKU)
			}
			continue
		}
		id, ok := x.st.bySKU[c.SKU]
		if !ok || !x.st.docs[id].p.UpdatedAt.Equal(c.UpdatedAt) {
			skus = append(skus, c.SKU)
		}
	}
	return skus
}

// reconcile removes products deleted from the database and loads any the
// index lacks (variants count as known through their parents). It counts
// first and reads the SKUs only on a mismatch.
func (x *Index) reconcile(ctx context.Context, db search.Catalog) error {
	n, err := db.CountListings(ctx)
	if err != nil || n == x.known() {
		return err
	}
	skus, err := db.AllSKUs(ctx)
	if err != nil {
		return fmt.Errorf("search: embedded: reconcile: %w", err)
	}
	inDB := make(map[string]bool, len(skus))
	var missing []string
	x.mu.RLock()
	for _, s := range skus {
		inDB[s] = true
		_, doc := x.st.bySKU[s]
		if _, variant := x.st.variants[s]; !doc && !variant {
			missing = append(missing, s)
		}
	}
	var gone []string
	for s := range x.st.bySKU {
		if !inDB[s] {
			gone = append(gone, s)
		}
	}
	for s := range x.st.variants {
		if !inDB[s] {
			gone = append(gone, s)
		}
	}
	x.mu.RUnlock()
	if len(missing)+len(gone) == 0 {
		return nil
	}
	x.log.InfoContext(ctx, "search index reconciled", "added", len(missing), "removed", len(gone))
	return x.upsert(ctx, db, append(missing, gone...))
}

// known is how many products the index knows of: documents and variants.
func (x *Index) known() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.st.live() + len(x.st.variants)
}
