// Package search owns product search: the Query and Results types every
// backend speaks, the Searcher interface, the hybrid defaults both
// backends share, and the backends.
//
//   - analysis (subpackage): the text analysis both backends share —
//     words, stems, compounds, stop words, synonyms, attribute text, the
//     text a product's vector is computed from, and price phrases. It
//     imports neither backend.
//   - vectorizer (subpackage): the embedders — local (hashed character
//     n-grams, TF-IDF fitted on the catalog; no network) and OpenAI
//     embeddings.
//   - embedded (subpackage): the in-process index, the default — BM25F
//     with typo tolerance and synonyms, fused with vector similarity
//     (relative score fusion, weight alpha). Every process builds it and
//     keeps it current by polling the database (Follow), so every replica
//     sees every change.
//   - weaviate (subpackage): SEARCH_BACKEND=weaviate, one Weaviate
//     collection shared by every replica, fed by the change feed (indexer
//     subpackage) and queried with hybrid search. It does not import the
//     embedded index: query expansion (typo corrections need the
//     catalog's vocabulary) comes through its Expander interface, which
//     bot fills with the embedded index it builds anyway as the fallback.
//   - indexer (subpackage): the worker that follows the catalog's
//     change feed into Weaviate from a cursor stored in the database.
//   - eval (subpackage): search-eval's metrics on a judgments file.
//   - Catalog and PassageCatalog (source.go): what the backends read of
//     the catalog — the listing loader, the change feed, passages and
//     the shop's synonyms — as data; catalog.SearchSource implements
//     them. The backends run no SQL and import no database package.
//   - searchtest (subpackage) also holds Database, a keyword query over
//     the catalog tables with SQL LIKE that engine and admin tests use;
//     production never does.
//   - Fallback (this package): a backend (Weaviate) backed by another
//     (the embedded index): when the first fails or is slow the second
//     answers, with a warning and shopbot_search_fallback_total, so the
//     shopper never sees an outage. Measured and Fallback record
//     shopbot_search_latency_seconds by backend.
//   - searchtest (subpackage): the conformance suite every backend runs.
//   - Passages (passage.go): PassageSearcher and its types, the search of
//     chunks of longer texts (shop pages; reviews next) in an index of
//     their own on each backend (embedded.Passages, weaviate.Passages),
//     ranked by the same hybrid machinery; RunPassages in searchtest
//     checks both.
//
// Imports run one way: analysis and vectorizer import no search package;
// this package imports analysis (Query.RankText); embedded and weaviate
// import this package, analysis and vectorizer, and not each other.
//
// Every backend lists a product with variants once, as its parent (the
// variants' option values are in its text; Query.Options filters on its
// in-stock variants; variants.go has the keys Weaviate stores), and
// applies the filters (price, category subtree, stock, attributes,
// options) before ranking, so a result never violates a stated limit,
// and ranks by Query.RankText: the text without the price phrases
// ("under 100", "до 5000") that restate its price filter. The offline
// planner reads those phrases with analysis.CutPrices to turn them into
// filters.
package search
