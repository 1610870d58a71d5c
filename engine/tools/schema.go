package tools

import (
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// The schema builders (toolkit/schema.go) under the short names the tool
// files use.

func object(props map[string]any, required ...string) map[string]any {
	return toolkit.Object(props, required...)
}

func str(desc string, maxLen int) map[string]any { return toolkit.Str(desc, maxLen) }

// MaxSKUBytes is the longest SKU the tools accept.
const MaxSKUBytes = toolkit.MaxSKUBytes

func sku() map[string]any { return toolkit.SKU() }

func num(desc string, minimum float64) map[string]any { return toolkit.Num(desc, minimum) }

func integer(desc string, minimum, maximum int) map[string]any {
	return toolkit.Integer(desc, minimum, maximum)
}

func enum(desc string, values ...string) map[string]any { return toolkit.Enum(desc, values...) }

func options(desc string) map[string]any { return toolkit.Options(desc) }

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
