// Package planner is Shopbot's offline planner: it answers a shopper
// without a language model, so the shop keeps selling when none is
// configured, the daily token budget is spent, or the model fails.
//
// Data flows one way through it. Answer parses the message into an
// Intent (package intent), then runs the tools that serve the intent
// through the same tools.Toolbox the model's calls go through (browse.go,
// cart.go, checkout.go; orders after checkout are engine/planner/aftersale's),
// and words the reply from their results in the shopper's language (text.go). The Plan it returns holds
// the reply, the calls for the transcript, the results for the adapter
// and the quick-reply buttons. It is deterministic: no model, no
// randomness, no clock but the session's.
//
// It follows the conversation through the session State: the cards last
// shown (their titles, prices and ratings) and the list that showed
// them (session.Listing: a search, a category, products like one, best
// sellers, orders). References resolve against them (the intent package
// reads them, resolve in planner.go turns them into SKUs); "show more"
// and the More button (Planner.More) run the same list from the next
// offset (paging.go). A search shows only the
// products that have every word asked for when some do, and
// says honestly that nothing matches when no product has one of the words
// (match.go, which looks the word up alone). At checkout one message may
// give every contact detail in any order; outside checkout, a phone
// number, an e-mail or an address is neither searched for nor stored as a
// query (paging.go answers the Personal intent).
//
// The package is split along its seam. engine/planner/intent owns
// understanding: message and State in, Intent out, pure functions over
// the vocabulary (kinds, slots, references, prices, quantities, contact
// details). This package owns acting: Intent in, tool calls and the reply
// out. engine/planner/aftersale owns the shopper's orders after checkout
// (status, cancelling, a new address or items, returns), acting through
// the narrow Turn that aftersale.go adapts this package's turn to. The
// splits keep each under the 3,000-line limit of issues 14 and 24 and
// let the parser be tested without a catalog; planner imports intent and
// aftersale, never the reverse, and the engine imports only planner.
//
// Its exchange table (testdata/exchanges.txt, played by table_test.go)
// holds multi-turn conversations in English and Russian; a held-out third
// (exchanges_holdout.txt) measures how well the planner generalizes.
//
// Questions about the shop itself (returns, shipping, payment, warranty,
// contact) are recognized by intent/info.go and answered from the shop's
// pages by info.go, quoting with its page title the sentences that answer,
// in the shopper's language: which passages and sentences is
// engine/planner/quote's (pure text, no catalog).
//
// A follow-up that narrows the last list ("anything cheaper?", a colour)
// and finds nothing under its words looks in the shown cards' category;
// a price sort keeps to the best matches' category (browse.go).
// Questions about what shoppers wrote ("do people complain about the
// battery of the second one?") are recognized by intent/reviews.go and
// answered by reviews.go: the rating summary and the reviews that mention
// what was asked (search_reviews), quoted with rating and author, or an
// honest "no review mentions it". quotes_test.go measures how often a
// policy or review answer quotes the right passage.
//
// It imports engine/planner/intent, engine/planner/aftersale,
// engine/planner/quote, engine/tools and catalog; the engine
// imports it, never the other way round.
package planner
