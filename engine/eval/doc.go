// Package eval runs conversation scenarios against the real engine
// (`shopbot eval --scenarios FILE`) and says which pass.
//
// A scenario file (scenario.go) is a YAML list of scenarios: a name, an
// optional locale and user (the shopper's display name), and turns, each
// `say: TEXT` or `press: ACTION` (a button, encoded as the buttons are,
// view.Action: add|SKU|1, set|SKU|2, rm|SKU, cart, co, confirm…) with an
// optional expect. Parse decodes strictly and validates the whole file
// before anything runs: unknown keys, wrong types, a turn with both say
// and press or neither, empty lists of scenarios or turns, duplicate names
// all come back together in a FileError, one FILE:LINE: problem a line.
//
// Expectations (expect.go) are checked in a fixed order, the first unmet
// one reported as "expected …, got …": shows, not_shows, first (SKUs of
// the product cards of the reply), max_price and min_price (every listed
// product, in the shop's major units), cart (the whole cart after the
// turn), order_placed, reply_contains and reply_not_contains
// (case-insensitive), tools (each named tool called in the turn) and
// max_model_calls. The offline planner and buttons record their tool calls
// as a model does, so tools holds on planner runs too; they make no model
// calls.
//
// The Runner (runner.go) runs each scenario as a new shopper in its own
// copy of the shop (catalog/sandbox: a throwaway SQLite file cloned from
// the shop's catalog), with an engine bot builds over that copy, Parallel
// at a time. What a turn produced is an outcome.Outcome (engine/outcome),
// read from the engine's events and the copy's database; a scenario stops
// at its first failing turn. The Report (report.go) lists the scenarios in
// file order whatever order they finished in: PASS name, or FAIL name:
// turn K: expected …, got …; then passed P/N scenarios; with verbose the
// transcript of each failure; or all of it as JSON.
//
// Replay (replay*.go, `shopbot replay`) runs stored shopper turns again
// against the current configuration and compares them with what happened
// then. Each conversation gets its own copy of the shop and one customer
// with the stored customer's identity; its selected turns run in order,
// each in a new chat of that customer holding the stored history before
// the turn (so a model sees what it saw then), the engine's state as the
// previous replayed turn left it, and the cart and saved contact as they
// were then. The transcript is the only record of then: the old cart is
// rebuilt by applying the turns' successful cart calls in order
// (add_to_cart adds, update_cart_item sets, remove_from_cart removes, a
// placed checkout empties), the old contact from checkout's summaries.
// Both sides of a turn are read from its messages the same way (tools
// with arguments, SKUs in the tool results, the last assistant words, the
// order placed), the new cart from the copy, and outcome.Compare tells
// them apart, order numbers masked. WriteScenario turns a stored
// conversation into a scenario file (the playground's download).
package eval
