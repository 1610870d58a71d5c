package tools

import (
	"shopbot/catalog"
	"shopbot/engine/view"
)

// Helpers that keep the tool schemas short and uniformly strict.

// object is a strict object schema: no properties beyond these.
func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func str(desc string, maxLen int) map[string]any {
	return map[string]any{"type": "string", "description": desc, "maxLength": maxLen}
}

// MaxSKUBytes is the longest SKU the tools accept.
const MaxSKUBytes = 64

func sku() map[string]any {
	return map[string]any{"type": "string", "minLength": 1, "maxLength": MaxSKUBytes}
}

func num(desc string, minimum float64) map[string]any {
	return map[string]any{"type": "number", "description": desc, "minimum": minimum}
}

func integer(desc string, minimum, maximum int) map[string]any {
	return map[string]any{"type": "integer", "description": desc, "minimum": minimum, "maximum": maximum}
}

func enum(desc string, values ...string) map[string]any {
	return map[string]any{"type": "string", "description": desc, "enum": values}
}

// brief is a product as the model sees it in lists: just enough to talk
// about it and to call other tools with its SKU.
type brief struct {
	SKU     string  `json:"sku"`
	Title   string  `json:"title"`
	Brand   string  `json:"brand,omitempty"`
	Price   string  `json:"price"`
	Stock   int     `json:"stock"`
	Rating  float64 `json:"rating,omitempty"`
	Reviews int     `json:"reviews,omitempty"`
	// Options are a parent's option names: add_to_cart needs a choice.
	Options []string `json:"options,omitempty"`
}

func briefs(cards []view.Card) []brief {
	out := make([]brief, len(cards))
	for i, c := range cards {
		out[i] = brief{SKU: c.SKU, Title: c.Title, Brand: c.Brand, Price: c.PriceText, Stock: c.Stock, Rating: c.Rating, Reviews: c.RatingCount}
		if c.VariantCount > 0 {
			out[i].Options = c.OptionNames
		}
	}
	return out
}

// options is a product's option choice: name → value.
// The example goes on one tool only (add_to_cart): the model reads every
// tool's schema on every call.
func options(desc string) map[string]any {
	s := map[string]any{
		"type": "object", "maxProperties": catalog.MaxOptions,
		"additionalProperties": map[string]any{"type": "string", "minLength": 1, "maxLength": 40},
	}
	if desc != "" {
		s["description"] = desc
	}
	return s
}
