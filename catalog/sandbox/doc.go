// Package sandbox makes throwaway copies of a shop, so that the engine can
// run real turns — carts, checkout, orders — without changing the shop.
//
// Clone reads the tables shopping reads (categories, products, reviews,
// pages, passages, settings, delivery methods) from the shop's database, SQLite or Postgres
// alike, and writes them into a freshly migrated embedded SQLite file, the
// Template, in one transaction. The copy is generic: for each table, the
// columns the source and the template both have, read in primary-key order
// and inserted in batches, so a source one migration behind still clones.
// Nothing is written to the source.
//
// Not copied: customers and everything that belongs to them (carts,
// orders, conversations, messages, the effects journal, rate limits), the
// search tombstones and cursors, the adapters' inboxes, staff and sessions, media (images are
// served over HTTP; no tool reads them). A sandbox's shopper is new, so
// their orders and carts start empty, and the top sellers come from
// products.sold_count, which is copied. Reviews lose their customer_id
// (the customer is not there); their text and rating stay.
//
// Template.Open gives each user (an eval scenario, a replayed turn) its
// own Copy: a plain file copy of the closed template, opened as any shop
// database is (catalog.OpenDB), so copies are independent of one another
// and of the order they run in. Copy.Close removes its files; callers put
// the template in a temporary directory of their own, so a crashed run
// leaves only files there.
package sandbox
