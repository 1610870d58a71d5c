// Package demo owns the demo shop: about 320 hand-written products in twelve
// categories (data/*.jsonl, embedded in the binary; English with some Russian
// listings), with ratings and reviews, loaded into an empty database at first
// start so a new install has something to sell. It also generates large
// synthetic catalogs in the import format for scale tests
// (`shopbot demo-catalog --size N`).
//
// The data files use the import JSONL format (see package importer) plus
// rating, rating_count and reviews.
package demo
