package search

import (
	"context"
	"time"

	"shopbot/catalog"
)

// Catalog is what the search backends read of the catalog's products:
// the listing loader and the product change feed. catalog.SearchSource
// implements it over the database; the backends run no SQL of their own.
type Catalog interface {
	// EachListing calls fn with every listing and its variants, a batch
	// at a time (activeOnly leaves out archived listings).
	EachListing(ctx context.Context, activeOnly bool, fn func(catalog.Listings) error) error
	// ListingsOf reads the listings these SKUs belong to (a variant's
	// SKU gives its parent); unknown SKUs are left out.
	ListingsOf(ctx context.Context, skus []string) (catalog.Listings, error)
	// ChangedSince is the change feed: the products written at or after
	// since, in (updated_at, id) order after (since, afterID).
	ChangedSince(ctx context.Context, since time.Time, afterID int64, limit int) ([]catalog.Change, error)
	// CountListings and AllSKUs let a follower notice deletions.
	CountListings(ctx context.Context) (int, error)
	AllSKUs(ctx context.Context) ([]string, error)
	// ShopSynonyms returns the shop's synonym groups and their version,
	// nil groups when the version is have.
	ShopSynonyms(ctx context.Context, have string) (groups [][]string, version string, err error)
}

// PassageCatalog is what the search backends read of passages (shop
// pages, reviews): catalog.SearchSource implements it.
type PassageCatalog interface {
	// PassagesOf returns the passages of these sources (catalog.PassageKey);
	// a source without any is gone.
	PassagesOf(ctx context.Context, keys []string) ([]catalog.Passage, error)
	// EachPassage calls fn with every passage, batch at a time.
	EachPassage(ctx context.Context, batch int, fn func([]catalog.Passage) error) error
	// PassageChanges is the passages' change feed: the sources written
	// after since, oldest first.
	PassageChanges(ctx context.Context, since time.Time, limit int) ([]catalog.PassageChange, error)
	// CountPassages and PassageSources let a follower notice deletions.
	CountPassages(ctx context.Context) (int, error)
	PassageSources(ctx context.Context) ([]string, error)
}

var (
	_ Catalog        = catalog.SearchSource{}
	_ PassageCatalog = catalog.SearchSource{}
)
