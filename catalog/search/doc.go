// Package search owns product search: the Query and Results types every
// backend speaks, the Searcher interface, and the backends.
//
//   - embedded (subpackage): the in-process index, the default — BM25F with
//     stemming, typo tolerance and synonyms, kept current from the
//     database.
//   - Database (this package): a keyword query over the catalog tables
//     (every word must match the title, brand, description or category
//     path) with the filters applied in SQL; always available, and the
//     fallback when a richer backend cannot answer.
//
// Every backend applies the filters (price, category subtree, stock,
// attributes) before ranking, so a result never violates a stated limit.
package search
