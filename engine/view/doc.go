// Package view is what Shopbot shows people, as plain data: product
// cards, the cart and order views, a shopper's Home (home.go), buttons
// with the Action each one triggers (encoded for callback data and parsed
// back by ParseAction, since clients send it), and the Notices that tell
// a merchant or shopper about something outside their turn. A Picker
// (picker.go) asks which variant of a product to add, one option at a
// time; chat adapters redraw it in place as options are chosen.
//
// Data flows down to it and out of it: engine/tools renders catalog rows
// into views (CardOf, CartViewOf, OrderViewOf: every figure from the
// catalog, never from model text) and puts them in its results; the
// engine streams them to adapters in its Events; adapters render them
// natively (Telegram HTML and keyboards, Slack Block Kit, SSE JSON,
// terminal text) and parse button presses back into Actions; admin and
// adapters send Notices. It imports only catalog, so adapters can render
// a reply without importing the tools.
package view
