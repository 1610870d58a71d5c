package embedded

import (
	"context"
	"fmt"

	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
)

// Synonyms returns the synonym groups this index expands queries with
// now: its base groups (Options.Synonyms) and the shop's own. The offline
// planner can match product words with the same set. The caller must not
// change it; it is replaced, never modified, when the shop's groups change.
func (x *Index) Synonyms() *analysis.Synonyms { return x.syn.Load() }

// SetShopSynonyms expands queries with the base groups and these from now
// on (Rebuild and Follow call it with the database's groups).
func (x *Index) SetShopSynonyms(groups [][]string) {
	all := append(append([][]string{}, x.base...), groups...)
	x.syn.Store(analysis.NewSynonyms(all))
}

// loadShopSynonyms reads the shop's groups when their version moved since
// the last read; the caller holds writeMu. Every replica polls, so a group
// added in any replica's panel reaches every index within a poll.
func (x *Index) loadShopSynonyms(ctx context.Context, db search.Catalog) error {
	groups, v, err := db.ShopSynonyms(ctx, x.shop)
	if err != nil {
		return fmt.Errorf("search: embedded: shop synonyms: %w", err)
	}
	if v == x.shop {
		return nil
	}
	x.SetShopSynonyms(groups)
	x.shop = v
	return nil
}
