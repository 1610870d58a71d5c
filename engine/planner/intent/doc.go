// Package intent is the offline planner's understanding: it reads one
// shopper's message, with the session State for what "it", "the second
// one" or "the two cheapest" refer to, into an Intent: what the message
// asks for (a Kind) and its slots. It does no I/O and calls no tool; the
// planner (engine/planner) acts on what it returns.
//
// Parse tries a list of small matchers in order (intent.go); whatever none
// of them claims is a product search. The vocabulary is in vocab.go, one
// phrase table per idea, English and Russian side by side; words.go holds
// stems, the Russian glossary and the relaxed query a search retries with.
// The slots are read by slots.go (ordinals, "it", quantities, sort hints,
// periods, order numbers, the query), refs.go (references resolved against
// the cards shown last: "both", "the glass one", "the two cheapest"),
// prices.go (price phrases, negations such as "nothing over $80" as
// ceilings) and contact.go (every checkout detail one message gives, in
// any order). info.go recognizes questions about the shop itself.
//
// Outside checkout, a phone number, an e-mail or an address is the
// Personal kind, never a search (catalog/personal finds them). Parse is
// deterministic and leaves the State alone.
//
// It imports engine/tools (the State, tokens, language detection) and
// catalog's text analysis; engine/planner imports it, never the reverse.
package intent
