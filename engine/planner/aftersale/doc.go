// Package aftersale is the offline planner's answers about the shopper's
// orders after checkout: where an order stands, one or a page at a time
// (status.go), and the self-service of issue 30 — cancelling an order
// that has not shipped (cancel.go), a new delivery address or a line
// removed or set to a quantity (changes.go), a return or an exchange and
// its status (returns.go). Each write shows what would change and asks;
// only a yes in the next message (the State's Pending, which package
// intent reads back) calls the tool with confirm.
//
// It acts through Turn (turn.go), the few things it needs of the
// planner's turn in progress: run a tool and record it, answer a tool
// error, say a reply of the text catalogue (planner.KEY, engine/locale),
// add a button, offer the next page and set the pending question. Keys
// lists the replies it words, so the planner's template test leaves them
// to this package's.
//
// It imports engine/planner/intent (the Intent it acts on and the Pending
// prefixes), engine/tools (the results and tool errors) and engine/view
// (button actions); engine/planner imports it, never the reverse.
package aftersale
