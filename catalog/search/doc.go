// Package search owns product search: the Query and Results types every
// backend speaks, the Searcher interface, and the backends.
//
//   - embedded (subpackage): the in-process index, the default — BM25F with
//     stemming, typo tolerance and synonyms, fused with vector similarity
//     from an embed.Embedder (relative score fusion, weight alpha), kept
//     current from the database.
//   - embed (subpackage): the embedders — local (hashed character n-grams,
//     TF-IDF fitted on the catalog; no network) and OpenAI embeddings.
//   - eval (subpackage): search-eval's metrics on a judgments file.
//   - weaviate (subpackage): SEARCH_BACKEND=weaviate, a Weaviate
//     collection fed by the outbox (indexer subpackage) and queried with
//     hybrid search, using the embedded index's analysis.
//   - Database (this package): a keyword query over the catalog tables
//     (every word must match the title, brand, description or category
//     path) with the filters applied in SQL. It needs no index, so the
//     engine's tests use it.
//   - Fallback (this package): a backend (Weaviate) backed by another
//     (the embedded index): when the first fails or is slow the second
//     answers, with a warning and shopbot_search_fallback_total, so the
//     shopper never sees an outage. Measured and Fallback record
//     shopbot_search_latency_seconds by backend.
//   - searchtest (subpackage): the conformance suite every backend runs.
//
// Every backend applies the filters (price, category subtree, stock,
// attributes) before ranking, so a result never violates a stated limit,
// and ranks by Query.RankText: the text without the price phrases
// ("under 100", "до 5000") that restate its price filter. prices.go reads
// those phrases; the offline planner uses it to turn them into filters.
package search
