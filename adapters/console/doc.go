// Package console is the terminal adapter behind `shopbot chat`. On a
// terminal it is interactive (a prompt, streamed answers); with stdin not a
// terminal it reads one message per line and prints one reply block per
// line — the answer text, then product cards as `SKU · title · price`
// lines, the cart and any order — followed by a blank line, so the bot can
// be scripted and tested from the shell.
//
// Button actions can be typed as "/do add|SKU|1" (the same encoding the
// other adapters put in callback data). A variant picker prints one such
// line per value (picker.go); cart and order lines name the variant.
// Notices for the terminal user (back in stock, order status, a
// merchant's reply) wait in Notices and print between turns (notice.go).
package console
