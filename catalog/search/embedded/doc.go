// Package embedded is the in-process search backend, the default of
// SEARCH_BACKEND=embedded: a keyword index over the catalog that needs no
// network and no service besides the database it is built from.
//
// # Data flow
//
// Rebuild reads every product (with its category) from the database in
// batches and builds a fresh generation of the index, which it swaps in
// when complete; searches meanwhile use the old one. Upsert reloads given
// SKUs and patches the current generation. Follow polls for products whose
// updated_at is newer than the newest indexed (every catalog write bumps
// it, stock taken by orders included) and upserts them; it re-reads a
// short overlap behind that mark for late commits, and now and then
// compares product counts to notice deletions, which leave no updated_at.
// Rebuild, Upsert and Follow take turns on a writer mutex; searches share
// a read lock with each other and wait only while a write batch (at most
// 256 products) is applied.
//
// Follow is the index's only feed: the catalog's change feed
// (catalog/changes.go), read through search.Catalog, which the Weaviate
// worker follows too. Every shopbot process builds its own index, so each
// must see every change; polling the catalog serves any number of
// replicas and needs no recovery after a crash: a restart rebuilds. The
// index receives data (search.Catalog, search.PassageCatalog; bot passes
// catalog.SearchSource) and runs no SQL of its own.
//
// # Index
//
// A product becomes an entry (the catalog.Product itself, returned to
// callers as a copy, with its category shared per category) and, while
// active, postings. Its text goes through package analysis, which the
// Weaviate backend shares: lower-cased runs of letters and digits split
// at letter–digit changes ("16gb"), Snowball English and Russian stems,
// words with digits kept as they are ("42", "4k"), hyphenated and
// letter–digit compounds also joined ("wi-fi" as "wifi"). Each stem has a posting list of (document, weight), sorted by
// document, where weight is the BM25F pseudo-frequency: per-field counts
// times the field boost (title 3, brand 2, category path 1.5, attribute
// values 1.5, description 1), normalized by field length against the
// average at the last Rebuild. An update rewrites only the postings of
// terms that changed; a price or stock change touches none.
//
// Three side structures serve queries: a typo vocabulary (every letters-
// only word with a trigram index, fuzzy.go), an attribute index from
// "key\x00value" to documents (attrs.go), and the category paths split into
// lower-cased names (filter.go). What the filters read of each product
// (price, category, active, in stock) is also kept in a compact array
// beside the entries, so a pass over every product stays in cache.
//
// Products with variants (variants.go) are one document, the parent:
// variant rows are never documents. The option names and values of the
// parent's active variants join its attribute text; an option index maps
// each option value of its in-stock active variants to documents, and its
// in-stock variants are packed per document (value ids and price), so
// Query.Options (all values on one variant) is a bitset and, for several
// values or with a price filter, a check of a few integers. A variant's
// SKU given to Upsert (Follow sees variants change too) reloads its
// parent with all its variants; Similar answers it as the parent.
// Without Options a parent's price is its range: it passes a price filter
// when [Price, PriceMax] overlaps it.
//
// # Vectors
//
// With Options.Embedder (package vectorizer) every active product also
// has a vector, computed from its title (twice), brand, category path,
// attribute values and the first 200 bytes of its description
// (analysis.VectorText). Rebuild fits the embedder on those texts when it learns
// from the catalog (vectorizer.Local) and embeds them in batches; Upsert
// embeds the products whose indexed text changed, outside the lock
// searches wait on; a price or stock change embeds nothing. Vectors are
// kept as int8 with their sign bits packed apart (vectors.go): 25 MB for
// 100,000 products of 256 numbers. When embedding fails (a remote
// embedder is down) the products concerned are ranked by keywords alone,
// and Follow retries them every 30 seconds.
//
// # Queries
//
// A query becomes up to 32 slots, one per word after dropping stop words
// (analysis.QueryWords). A slot's alternatives are the word's stem (for a
// compound, also its parts together), its synonyms (analysis.Synonyms,
// by default analysis/synonyms.txt; a several-word synonym
// requires all its words) and, when no active product contains the word,
// the vocabulary words within Damerau-Levenshtein distance 1 (4–7 runes) or
// 2 (8+ runes), found by shared trigrams and verified. Alternatives of a
// slot form one pseudo-term: weighted frequencies add up (exact 1,
// synonym 0.4, typo 0.6 or 0.45) and saturate once, with the idf of the
// most frequent alternative. Scores accumulate in dense per-document
// arrays taken from a pool. Every candidate passes the filters (active,
// category subtree, price, stock, attribute bitset) before ranking; the
// first offset+limit are kept in a bounded heap. Relevance orders by slots
// matched, then score; other sorts list the products matching the most
// slots, by their key. The SKU breaks ties.
//
// With an embedder, a relevance-sorted query with words is embedded too
// (before the read lock is taken: a remote embedder answers over the
// network; if it fails the query is answered by keywords alone) and the
// keyword score is fused with vector similarity (hybrid.go): products
// similar enough to the query are found without sharing a word with it,
// so "airfryer" finds an air fryer and, with a semantic embedder,
// "notebook computer" a laptop. Options.Alpha weighs the two; at 0 the
// index answers exactly as without an embedder. Other sorts, and queries
// without words, use keywords and filters only. Similar fuses the same
// way, with the product's own vector as the query.
//
// Expand (expand.go) hands the slots out as analysis.Alternative stems:
// the Weaviate backend's query expansion, which needs this catalog's
// vocabulary for typo corrections.
//
// # Passages
//
// Passages (passages.go, passages_score.go, passages_write.go) is a
// separate index of the passages of shop pages and reviews, with the same
// analysis, synonyms, quantized vectors and fusion; it follows the
// passages table the way Index follows products. Its embedder, when it
// learns from texts, is its own: fitting it on pages must not move the
// products' vectors.
package embedded
