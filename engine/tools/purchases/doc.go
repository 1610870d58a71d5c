// Package purchases holds the tools over a shopper's purchase history:
// get_purchase_statistics (counts, spend, by item, category or week) and
// generate_shopping_list (what is due again by a date, within a budget).
// history.go reads the history as one product's purchases over time: the
// mean interval between them, the predicted next one and the usual
// quantity.
//
// The tools are listed in engine/tools' registry (tools.Tools), which
// passes them Deps: the orders and products readers and the clock.
package purchases
