// Package demo owns the demo shop: about 320 hand-written listings in twelve
// categories (data/*.jsonl, embedded in the binary; English with some Russian
// listings), with ratings and reviews, loaded into an empty database at first
// start so a new install has something to sell: Seed loads it when the shop
// has no products and never had the demo, checking and loading in one
// transaction, and bot runs it under the migration lock so replicas
// starting together load it once (Load writes it unconditionally, for
// tests). Seed marks every row it writes as the demo's (catalog.MarkDemo)
// and records catalog.DemoLoaded, so catalog.RemoveDemo (`shopbot demo
// remove`, the panel's banner) deletes exactly the demo and a removed demo
// is never loaded again; Adopt marks a demo loaded before that existed (by
// its SKUs). With DEMO=false bot skips Seed and the shop starts empty.
//
// Every listing has an image (images.go): ImageURL(sku), /media/demo-SKU.png,
// a tile of its category's colour with its name and brand, which Tiles
// draws (standard library PNG, basicfont) on its first request and keeps. It also generates large
// synthetic catalogs in the import format for scale tests
// (`shopbot demo-catalog --size N`).
//
// The demo shop's pages (pages/*.md: returns, shipping with the countries
// it ships to, payment, warranty, contact, about; each with a short Russian
// section) are written with the catalog, in the `shopbot import-pages`
// format (importer.ParsePage).
//
// The reviews are made worth searching by reviews.go: each gets a title
// naming what it speaks of, and one product in five a critical review
// about a problem of its category, all derived from tables (no
// randomness), so the count stays as written.
//
// Shoes come in sizes, apparel in sizes (some also in colours), and a few
// sofas, armchairs, tables and bedding in colours, materials or bed sizes:
// variants.go names those listings and their options, and derives each
// variant (SKU, option values, stock with some sizes sold out, price) from
// the listing's record and its SKU's hash. Products returns listings with
// their variants; Load and Seed count listings, as catalog.CountProducts
// does.
//
// The data files use the import JSONL format (see package importer) plus
// rating, rating_count and reviews.
package demo
