// Package tools holds Shopbot's shopping tools: the functions the model,
// the offline planner and the buttons call. What they show (product cards,
// the cart, orders, buttons and their actions, notices) is engine/view.
//
// One file per tool (search_products.go … request_human.go), listed in
// tools.go in the order the model sees them. A Tool is a name, a strict
// JSON schema (schema.go: additionalProperties false, bounds and enums) and
// a Run function over a session.Session. Toolbox.Call (tool.go) is the way in: it
// validates the arguments against the schema, decodes them into the tool's
// typed struct and recovers a panic into an error; ModelMessage is the one
// place an outcome becomes what the model reads, {"error": ...} for a
// ToolError or a catalog error the shopper can fix, a generic failure for
// anything else.
//
// Identity and cart scope come from the session.Session, which the engine builds
// from the platform-verified turn; no schema has a user, customer, chat or
// cart id. A Result carries compact data for the model and what the
// adapters render (view.Card, view.CartView, view.OrderView, view.Button,
// rendered from catalog data, never from model text). Tools read through
// narrow interfaces declared here (store.go: Products, Carts, Orders;
// Store implements them over catalog and a bun.IDB, and a test may pass a
// fake of function fields) and the Searcher. They write through Writes
// (writes.go: AddToCart, SetCartQuantity, RemoveFromCart, SaveContact,
// PlaceOrder, RequestHuman, ApplyPromo, RemovePromo, SubscribeStockAlert),
// and only inside an effect: a tool hands
// Deps.apply a function of Writes, and apply opens the transaction
// (WriteStore.BeginEffect, effects.go) in which that function's writes
// and the effect's journal row commit together, or roll back together.
// DBWrites is the WriteStore over Deps.DB (a bun.Tx per effect, the
// catalog's functions on it); the tests' fakeWrites keeps the journal in
// memory.
//
// Checkout (checkout.go) asks for the contact details, then a delivery
// method that fits the address (checkout_delivery.go), then shows a
// summary the shopper confirms; the order is placed only if it matches
// that summary's fingerprint (lines, prices, contact, delivery, the
// promo discount: checkout_promo.go).
//
// A product with variants (picker.go, variants.go): add_to_cart with
// options that pick one variant in stock adds it; otherwise its result
// carries a view.Picker for the next option, offering only values in
// stock, whose last step's buttons add the variant itself. An Add pressed
// on a card of a list filtered by options starts from those options
// (session.State.ListedOptions). search_products passes options to the search.
//
// The listing tools (search_products, get_similar_products,
// get_top_selling_products, get_order_status without a number) take an
// offset and remember the list they showed in session.State.Listing, with where
// the next page starts; a More button under a page names that list
// (paging.go), so a stale or forged one continues nothing.
//
// Side effects are idempotent per turn (effects.go). Each one — a cart
// change, the order, the saved contact, a handoff — commits in its own
// short transaction together with a row of the effects journal
// (EffectTx.ClaimEffect), keyed by the turn (conversation + DedupKey) and
// the effect (kind, hash of canonical arguments, occurrence in the turn);
// a turn run again after a crash finds its rows and skips them. A notice
// owed to the merchant is written with its effect and claimed once after
// the commit (catalog.TakeEffectNotice). The engine gives each turn its
// session.Journal with the crash hook of its tests.
//
// Imports run one way: tools imports catalog, catalog/search, engine/view
// and engine/llm (a ToolSpec per tool), never engine or the planner.
// engine/tools/toolstest builds the demo shop, tools and session the
// engine's and the planner's tests start from.
package tools
