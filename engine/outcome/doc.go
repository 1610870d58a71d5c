// Package outcome says what one turn of a conversation produced, in terms
// a merchant can compare: the reply text, the products listed, the tools
// called with their arguments, the model calls, the cart after the turn
// and the order it placed.
//
// An Outcome is assembled from two sources. A Collector is the turn's
// engine.Sink and keeps what the shopper was shown (the final reply, the
// product cards in order). After the turn, Read adds what the shop
// recorded: the turn's messages (its tool calls, and its model calls —
// assistant messages not written by the offline planner), the shopper's
// cart and their newest order. The planner records its tool calls like a
// model does, so Tools is filled on planner turns too.
//
// Read queries the database it is given; shopbot eval and replay give it
// a sandbox copy (catalog/sandbox), where one throwaway shopper is the
// only customer. Compare tells two outcomes of the same turn apart, the
// way replay reports a changed turn; engine/eval checks an outcome
// against a scenario's expectations.
package outcome
