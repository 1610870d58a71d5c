// Package aftersale holds the shopper's own changes of an order after it
// was placed (issue 30), beside cancel_order in engine/tools:
// change_order_address (a pending order's delivery address),
// change_order_items (a new order's lines: quantities, removals,
// additions; stock and totals re-quoted) and request_return (a return or
// exchange of a delivered order's lines, with a reason, within the
// shop's return window).
//
// Every tool takes the order number and confirm. Without confirm it only
// says what would change (status "confirm", with the re-quoted total for
// items); with it — given only after the shopper said yes — it writes
// once, through toolkit's effect transaction (Deps.Apply), keyed by the
// turn, so a replayed turn changes nothing twice. The writes are the
// catalog's (catalog/order_edits.go, returns.go): each updates the order
// conditional on the status and revision it read, so a merchant shipping,
// paying or refunding the order meanwhile either waits for it or makes it
// fail, and the tool then answers with the order as it now is.
//
// The tools are listed in engine/tools' registry (tools.Tools), which
// passes them Deps.
package aftersale
