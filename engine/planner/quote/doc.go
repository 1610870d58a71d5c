// Package quote picks what an answer from the shop's pages quotes: the
// passages in the shopper's language when a page has both (InLanguage),
// and of the best page the sentences that answer the question — the
// return window, the price, the country — rather than the whole section
// (Answering). It is pure text over tools.ShopPassage: no catalog, no
// session, so the planner's page answers can be tested without a shop.
//
// The planner imports it; it imports only engine/tools (for the passage
// type) and the shared text analysis.
package quote
