package view

import "strings"

// Picker asks a shopper which variant of a product to add, one option at
// a time: "Size?" with buttons 40, 41, 42, then "Colour?" for the sizes
// chosen. Only values with an active variant in stock (given what was
// chosen before) are offered. The buttons of the last option add the
// variant itself (ActAdd with the variant's SKU); those of an earlier
// option narrow the picker (ActOption with the parent's SKU and the
// choices so far), so a chat adapter can redraw the same message in place
// (Telegram edits its inline keyboard; Slack replaces the message with
// select menus; web chat and the terminal show the buttons).
type Picker struct {
	SKU       string `json:"sku"` // the parent product
	Title     string `json:"title"`
	PriceText string `json:"price_text"` // "$25.00", or "from $24.00" when variants differ
	ImageURL  string `json:"image_url,omitempty"`
	// Chosen are the options picked so far, in the product's option order.
	Chosen []OptionValue `json:"chosen,omitempty"`
	// Option is the option asked now ("size"); Prompt the question in the
	// shopper's language ("Which size?").
	Option string `json:"option"`
	Prompt string `json:"prompt"`
	// Values are the buttons for Option's values, in catalog order.
	Values []Button `json:"values"`
}

// OptionValue is one chosen option ("size" = "42").
type OptionValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// FromPrice splits a parent's card PriceText, "from $24.00", into the
// lowest price; false for any other text. locale.Price words it per
// language.
func FromPrice(priceText string) (lowest string, ok bool) {
	return strings.CutPrefix(priceText, fromPrefix)
}
