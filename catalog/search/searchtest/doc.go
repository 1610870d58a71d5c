// Package searchtest is the conformance suite every search backend runs,
// the way oscar's storage/vtest runs against every storage: Run loads the
// demo catalog into a database, opens the backend under test over it and
// checks ranking sanity, every filter, sorts and pages, typo and synonym
// cases, empty queries with filters, a 10 KB query (truncated, not
// rejected), odd Unicode, Similar, and that catalog updates, archivals and
// new products become visible through the backend's own way of keeping
// current (the embedded index follows the change feed; Weaviate is fed by
// the feed worker). Database (database.go) is a plain SQL LIKE search for
// engine and admin tests. Production code never imports the package.
package searchtest
