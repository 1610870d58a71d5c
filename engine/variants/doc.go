// Package variants is a product with variants as a shopper chooses it:
// one option at a time. A Family (family.go) is a parent, its variants and
// per option name the values in order of first appearance over the
// variants by id; a value's index in that order is what an ActOption
// button carries (EncodeChoice, DecodeChoice), so it stays stable while
// stock changes, and a forged or stale button decodes to nothing.
// Resolve applies the shopper's own words for options (names and values
// matched ignoring case and aliases).
//
// Picker (picker.go) asks for the next option not chosen yet, offering
// only values with a variant in stock given the choices so far; the last
// step's buttons add the variant itself. Its words (the question, "Choose
// size", the names of common options, a parent's "from" price) come from
// the text catalogue, engine/locale.
//
// add_to_cart and get_product_details (engine/tools) use it; the engine
// turns an ActOption button back into options with ChoiceOptions.
package variants
