// Package tools holds Shopbot's shopping tools: the functions the model,
// the offline planner and the buttons call, and their registry. What a
// tool is (Tool, Result, Toolbox, the schema checks, the stores tools
// read and write through, the effects journal) is engine/toolkit, which
// the tool files and the tools' callers use directly. What tools show (product
// cards, the cart, orders, buttons and their actions, notices) is
// engine/view.
//
// One file per tool (search_products.go … request_human.go), listed in
// tools.go (Tools) in the order the model sees them. The tools over the
// purchase history are in tools/purchases, the review tools in
// tools/reviews; each such package declares the Deps it reads and the
// registry passes them d's stores, asked for at each call.
//
// Identity and cart scope come from the session.Session, which the engine
// builds from the platform-verified turn; no schema has a user, customer,
// chat or cart id. Deps (deps.go) are what tools work with: the database
// (toolkit.Store and toolkit.DBWrites over it when no fake is set), the
// Searcher, the passage search, the currency, the clock and Notify. A
// write goes through Deps.apply, one effect in its own transaction with
// its journal row (toolkit.Effects).
//
// Checkout (engine/tools/checkout: the chat's checkout, its delivery and
// promo steps, get_delivery_options and the agent door's checkout) asks
// for the contact details, then a delivery method that fits the address,
// then shows a summary the shopper confirms; the order is placed only if
// it matches that summary's fingerprint.
//
// A product with variants (picker.go; the family and its picker are
// engine/variants): add_to_cart with options that pick one variant in
// stock adds it; otherwise its result carries a view.Picker for the next
// option. An Add pressed on a card of a list filtered by options starts
// from those options (session.State.ListedOptions). search_products
// passes options to the search.
//
// The listing tools (search_products, get_similar_products,
// get_top_selling_products, get_order_status without a number) take an
// offset and remember the list they showed in session.State.Listing, with
// where the next page starts; a More button under a page names that list
// (paging.go), so a stale or forged one continues nothing.
//
// Imports run one way: tools imports toolkit, its sub-packages, catalog,
// catalog/search, engine/view and engine/variants, never engine or the
// planner. engine/tools/toolstest builds the demo shop, tools and session
// the tests of the engine, the planner and the tool sub-packages start
// from.
package tools
