// Package eval measures search quality and latency on a judgments file:
// one JSON object per line, {"query": "…", "filters": {…}, "relevant":
// {"SKU": grade}}, grades 1 (partial) to 3 (exact), unlisted products 0.
// Filters use the names of the search_products tool (category, min_price,
// max_price, in_stock, sort) plus attributes; in_stock applies only when
// given.
//
// Run searches every query against a search.Searcher and reports nDCG@10,
// recall@10 and MRR over the queries that have a right answer, how many of
// those returned nothing, how many results broke their query's filters, and
// latency percentiles. `shopbot search-eval` prints the report as
// `name value` lines.
package eval
