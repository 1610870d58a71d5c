// Package planner is Shopbot's offline planner: it answers a shopper
// without a language model, so the shop keeps selling when none is
// configured, the daily token budget is spent, or the model fails.
//
// Data flows one way through it. Answer parses the message into an
// Intent (intent.go over the word tables of vocab.go and words.go, with
// slots such as quantities, prices and contact fields in slots.go), then
// runs the tools that serve the intent through the same tools.Toolbox the
// model's calls go through (browse.go, cart.go, checkout.go, orders.go),
// and words the reply from their results in the shopper's language
// (text.go). The Plan it returns holds the reply, the calls for the
// transcript, the results for the adapter and the quick-reply buttons.
// It is deterministic: no model, no randomness, no clock but the
// session's.
//
// Questions about the shop itself (returns, shipping, payment, warranty,
// contact) are answered from the shop's pages by info.go, quoting the
// best passage with its page title.
//
// It imports engine/tools and catalog; the engine imports it, never the
// other way round.
package planner
