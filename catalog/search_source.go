package catalog

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// SearchSource is the catalog as the search backends read it: the
// listing loader (listings with their variants), the change feed
// (ChangedSince for products, PassageChanges for the passages of pages
// and reviews, Tombstones for what was deleted outright), the passages
// and the shop's synonym groups. The backends (catalog/search/embedded
// and weaviate) receive it through interfaces of their own and run no
// SQL; every query they need is here.
type SearchSource struct{ db bun.IDB }

// NewSearchSource reads the search backends' data from db.
func NewSearchSource(db bun.IDB) SearchSource { return SearchSource{db: db} }

// Listings are listings (products that are not variants) with their
// categories and the variants of those that have some.
type Listings struct {
	Products []Product
	// Variants are the variants of Products, by parent id, in id order.
	Variants map[int64][]VariantRow
	// VariantSKUs are the SKUs asked for (ListingsOf) that named a
	// variant: their listing is their parent's.
	VariantSKUs map[string]bool
}

// EachListing calls fn with every listing and its variants, one batch at
// a time, in id order (activeOnly leaves out archived listings). An error
// from fn stops the walk and is returned.
func (s SearchSource) EachListing(ctx context.Context, activeOnly bool, fn func(Listings) error) error {
	return EachListing(ctx, s.db, activeOnly, func(ps []Product) error {
		vs, err := VariantRowsOf(ctx, s.db, parentIDs(ps))
		if err != nil {
			return err
		}
		return fn(Listings{Products: ps, Variants: vs})
	})
}

// ListingsOf reads the listings the products with these SKUs belong to
// (a variant's SKU gives its parent), with their variants. Unknown SKUs
// are left out: the product was deleted.
func (s SearchSource) ListingsOf(ctx context.Context, skus []string) (Listings, error) {
	ps, variants, err := ListingsOf(ctx, s.db, skus)
	if err != nil {
		return Listings{}, err
	}
	vs, err := VariantRowsOf(ctx, s.db, parentIDs(ps))
	if err != nil {
		return Listings{}, err
	}
	return Listings{Products: ps, Variants: vs, VariantSKUs: variants}, nil
}

// parentIDs are the ids of the listings among ps that have variants.
func parentIDs(ps []Product) []int64 {
	var ids []int64
	for i := range ps {
		if ps[i].HasVariants() {
			ids = append(ids, ps[i].ID)
		}
	}
	return ids
}

// ChangedSince is the product change feed: see the package function.
func (s SearchSource) ChangedSince(ctx context.Context, since time.Time, afterID int64, limit int) ([]Change, error) {
	return ChangedSince(ctx, s.db, since, afterID, limit)
}

// CountListings returns how many listings there are, archived included.
func (s SearchSource) CountListings(ctx context.Context) (int, error) {
	return CountProducts(ctx, s.db)
}

// AllSKUs returns every product's SKU, listings and variants.
func (s SearchSource) AllSKUs(ctx context.Context) ([]string, error) { return AllSKUs(ctx, s.db) }

// ShopSynonyms returns the shop's own synonym groups and their version
// (SynonymsVersion); when the version is have, groups is nil and
// nothing more is read.
func (s SearchSource) ShopSynonyms(ctx context.Context, have string) (groups [][]string, version string, err error) {
	version, err = SynonymsVersion(ctx, s.db)
	if err != nil || version == have {
		return nil, version, err
	}
	gs, err := ListSynonymGroups(ctx, s.db)
	if err != nil {
		return nil, "", err
	}
	groups = make([][]string, len(gs))
	for i, g := range gs {
		groups[i] = g.List()
	}
	return groups, version, nil
}

// PassagesOf returns the passages of the sources with these keys
// (PassageKey), by source and in order; a source with none is gone.
func (s SearchSource) PassagesOf(ctx context.Context, keys []string) ([]Passage, error) {
	byKind := map[PassageKind][]string{}
	var kinds []PassageKind
	for _, k := range keys {
		if kind, ref, ok := SplitPassageKey(k); ok {
			if byKind[kind] == nil {
				kinds = append(kinds, kind)
			}
			byKind[kind] = append(byKind[kind], ref)
		}
	}
	var ps []Passage
	for _, kind := range kinds {
		refs := byKind[kind]
		for lo := 0; lo < len(refs); lo += 500 {
			got, err := PassagesOf(ctx, s.db, kind, refs[lo:min(lo+500, len(refs))]...)
			if err != nil {
				return nil, err
			}
			ps = append(ps, got...)
		}
	}
	return ps, nil
}

// EachPassage calls fn with every passage, in batches of up to batch, in
// id order.
func (s SearchSource) EachPassage(ctx context.Context, batch int, fn func([]Passage) error) error {
	return AllPassages(ctx, s.db, batch, fn)
}

// PassageChanges is the passage change feed: see the package function.
func (s SearchSource) PassageChanges(ctx context.Context, since time.Time, limit int) ([]PassageChange, error) {
	return PassageChanges(ctx, s.db, since, limit)
}

// CountPassages returns how many passages are stored.
func (s SearchSource) CountPassages(ctx context.Context) (int, error) {
	return CountPassages(ctx, s.db)
}

// PassageSources returns the key of every source that has passages.
func (s SearchSource) PassageSources(ctx context.Context) ([]string, error) {
	return PassageSources(ctx, s.db)
}

// Product is the variant as a Product with the fields a search index
// reads (SKU, options, price, stock, active, updated_at).
func (v VariantRow) Product() Product {
	parent := v.ParentID
	return Product{ID: v.ID, SKU: v.SKU, ParentID: &parent, Options: v.Options, Price: v.Price,
		Stock: v.Stock, Active: v.Active, UpdatedAt: v.UpdatedAt}
}
