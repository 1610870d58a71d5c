// Package importer reads product files — CSV with a header row, or JSONL —
// and upserts them into the catalog by SKU.
//
// Rows flow reader → Record (as written in the file) → catalog.ProductInput
// (validated: price parsed into minor units, currency checked, attributes
// flattened to strings) → batches written with catalog.UpsertProducts, one
// transaction per batch. A row that fails validation is reported with its
// line number and reason and never written; a batch the database rejects is
// retried row by row so only the offending rows fail. A file that is not
// CSV or JSONL at all (binary data, no recognisable header) fails before
// anything is written.
//
// The same Import serves `shopbot import` and the admin panel's upload; both
// watch progress through Options.Progress.
package importer
