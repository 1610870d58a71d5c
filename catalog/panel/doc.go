// Package panel holds the read models only the merchant's admin panel
// reads: the dashboard's figures per day (dashboard.go) and its searches,
// counted from the stored search tool calls (dashboard_searches.go) and
// read for the search insights page (search_insights.go); the inbox, a
// keyset-paginated page of conversations with the team's views
// (conversations_inbox.go, workflow_inbox.go) and its counts and a
// customer's spend and identities (customer_panel.go); the shop counts
// the metrics scrape reports (shop_counts.go).
//
// Every function is a query over catalog's tables taking a bun.IDB, like
// catalog's own, and returns plain rows for a page to render; nothing
// here writes. The domain (types, writes, what the engine reads too)
// stays in catalog, which does not import panel.
package panel
