// Package checkout holds the tools that turn a cart into an order: the
// chat's checkout (checkout.go: contact, delivery, promo code, the
// summary the shopper confirms in a later turn, then the order of that
// summary, placed once per turn key), get_delivery_options
// (delivery_options.go, which the planner reads too) and the agent
// door's create_checkout and complete_checkout (agent.go), which take the
// buyer's contact as structured arguments and say how to pay.
//
// The order is placed through toolkit's effect transaction (Deps.Apply),
// keyed by the turn, so a replayed turn finds the order it placed and
// places none again; a confirmation whose cart, prices or delivery
// differ from the summary the shopper saw is rolled back and the new
// summary shown (session.CheckoutState.Summary fingerprints it).
//
// The tools are listed in engine/tools' registry (tools.Tools for the
// chat, tools.AgentOnly for agents), which passes them Deps.
package checkout
