package main

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// pinRefresh bounds how long a pin added or deleted by another replica
// (or straight in the database) takes to reach this one's searches.
// Edits made through this process are seen by the next search.
const pinRefresh = 5 * time.Second

// pinSource reads the merchant's search pins (catalog.PinnedProducts)
// once load has set its database; before that no search has pins.
//
// Pins are rare and edited rarely, and every search asks for them, so
// the set of pinned queries is kept in memory: a search whose query has
// no pin (nearly all) costs no database round trip. The set is reloaded
// when this process edits a pin (catalog.SearchPinEdits) or when it is
// older than pinRefresh. A query that has pins reads its products from
// the database as before, so their stock, price and active flag are
// current.
type pinSource struct {
	db  atomic.Pointer[bun.DB]
	now func() time.Time // time.Now unless a test sets it

	mu      sync.Mutex
	queries map[string]bool // normalized queries with pins; nil until loaded
	loaded  time.Time
	edits   uint64 // catalog.SearchPinEdits when loaded
}

// PinnedProducts implements search.PinSource.
func (p *pinSource) PinnedProducts(ctx context.Context, query string) ([]catalog.Product, error) {
	db := p.db.Load()
	if db == nil {
		return nil, nil
	}
	q := catalog.NormalizeSearchQuery(query)
	if q == "" {
		return nil, nil
	}
	pinned, err := p.pinned(ctx, db, q)
	if err != nil || !pinned {
		return nil, err
	}
	return catalog.PinnedProducts(ctx, db, q)
}

// pinned reports whether q has pins, reloading the set when it is stale.
func (p *pinSource) pinned(ctx context.Context, db *bun.DB, q string) (bool, error) {
	now := time.Now
	if p.now != nil {
		now = p.now
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	edits := catalog.SearchPinEdits() // read before loading: an edit during the load reloads again
	t := now()
	if p.queries == nil || edits != p.edits || t.Sub(p.loaded) >= pinRefresh || t.Before(p.loaded) {
		qs, err := catalog.PinnedQueries(ctx, db)
		if err != nil {
			return false, err
		}
		p.queries, p.loaded, p.edits = qs, t, edits
	}
	return p.queries[q], nil
}
