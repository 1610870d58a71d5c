// Package weaviate is the scale-out search backend, SEARCH_BACKEND=weaviate:
// products live in a Weaviate collection and every query is one GraphQL
// request, so any number of shopbot processes share one index.
//
// # Collection
//
// The collection (default "ShopbotProduct") is created on first use with
// explicit properties and no vectorizer: vectors come from the configured
// embedder (package vectorizer), the same one, fitted on the same catalog, as
// the embedded index, and the distance is the dot product, so a query
// vector the Local embedder shortened for words the catalog never used
// stays less similar to everything, as in the embedded index. Each active
// product is one object, its id derived from its SKU:
//
//   - t_title, t_brand, t_category, t_attrs, t_desc: the product's index
//     terms per field (analysis.Terms: stems, compounds joined), searched
//     by BM25 with the embedded index's field boosts (doubled to whole
//     numbers: the server scores a fractional boost 0); Weaviate's own
//     tokenizer only splits them on spaces, and its stop words are off;
//   - terms: all of them, filterable, for counting keyword matches and for
//     queries sorted by price, rating or sales;
//   - category_keys (every run of consecutive lower-cased names of the
//     category path, so "Running" and "Shoes > Running" both match),
//     category_top, attr_keys ("key=value", lists split), price, stock,
//     in_stock, rating_avg, rating_count, sold_count: filters and sorts;
//   - price_max, option_keys, option_price_keys, variant_skus: a product
//     with variants is one object, the parent, with the option values of
//     its active variants in t_attrs. price_max is its dearest active
//     variant (a price filter matches when [price, price_max] overlaps
//     it); option_keys holds every subset of each in-stock variant's
//     option values as search.OptionsKey ("color=navy;size=42"), so an
//     Options filter is one key and needs one variant with all of them;
//     option_price_keys joins those with the decimal prefixes of the
//     variant's price, so Options with a price range asks for a variant
//     with both (search.OptionPriceFilter); variant_skus lets Similar of
//     a variant answer as its parent. Variants are no objects: Upsert of
//     a variant's SKU rewrites its parent's object;
//   - payload: the product as JSON, returned to callers as is;
//   - generation: when the object was written, so Rebuild can drop the
//     objects of products that are gone.
//
// Inactive products are not stored.
//
// # Queries
//
// The query text goes through the shared analysis (package analysis) and
// is expanded against the catalog's vocabulary by Config.Expander (in
// production the embedded index, which bot builds anyway as the fallback;
// this package does not import it): stop words out, stems, synonyms and
// typo corrections.
// The alternatives become the BM25 query, each repeated by its weight
// (Weaviate multiplies the idf of a repeated query term). With words and
// relevance order, the query is hybrid: BM25 and the query vector fused
// by Weaviate's relative score fusion with Config.Alpha; a result must
// match a word or be at least Config.MinSimilarity similar to the query,
// as in the embedded index. Hybrid results are ranked within a window of
// 100 (more for deeper pages) fetched alike for every page of a query,
// so pages agree. Filters are where clauses, applied before ranking.
// Other sorts list the products matching every word (or, when none does,
// any) by their key. Total is exact up to 100 matches and "at least 100"
// beyond: Weaviate's filtered Aggregate takes seconds on 100,000 products.
//
// # Writes
//
// Upsert reads listings through search.Catalog (catalog.SearchSource: the
// backend runs no SQL), embeds them and imports them in one batch; Delete removes objects by SKU; Rebuild fits the embedder
// on the whole catalog, imports it in batches and then deletes objects
// older than the rebuild. Catalog changes reach the collection through
// the catalog's change feed (package indexer), from a cursor stored in
// the database: one collection serves every replica, so whichever
// replica's worker delivers a change, all see it. While Weaviate is down, searches fall back to the
// embedded index (search.Fallback).
//
// # Passages
//
// Backend.Passages is a second collection (default "ShopbotPassage") for
// passages (shop pages now, reviews next; passages.go): one object per
// passage with its kind, scope and source key as filters, its title,
// heading and text as BM25 fields (2, 2, 1) and the payload returned to
// callers. It is fed by the change feed's passage sources
// (indexer.Config.Passages): the current passages of a source are written,
// then its older objects deleted. Queries are expanded against the
// embedded passage index's vocabulary and ranked like products.
package weaviate
