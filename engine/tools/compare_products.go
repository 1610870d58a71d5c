package tools

import (
	"context"
	"encoding/json"
	"maps"
	"shopbot/engine/toolkit"
	"slices"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type compareProductsArgs struct {
	SKUs []string `json:"skus"`
}

// compared is a product in a comparison: its brief and its attributes.
type compared struct {
	brief
	InStock    bool              `json:"in_stock"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

func compareProductsTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "compare_products",
		Description: "Compare 2-5 products: attributes and which fields differ.",
		Schema: object(map[string]any{
			"skus": map[string]any{
				"type": "array", "description": "2-5 distinct SKUs",
				"items": sku(), "minItems": 2, "maxItems": 5, "uniqueItems": true,
			},
		}, "skus"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a compareProductsArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			ps, err := d.products().Products(ctx, a.SKUs)
			if err != nil {
				return toolkit.Result{}, err
			}
			if missing := compareMissing(a.SKUs, ps); len(missing) > 0 {
				return toolkit.Result{}, toolkit.Errorf("unknown SKUs: %s; use SKUs returned by a tool", strings.Join(missing, ", "))
			}
			cards := view.CardsOf(ps)
			s.State.Remember(cards)
			out := make([]compared, len(cards))
			for i, b := range briefs(cards) {
				out[i] = compared{brief: b, InStock: cards[i].InStock, Attributes: cards[i].Attributes}
			}
			return toolkit.Result{
				Data:  map[string]any{"products": out, "differences": compareDifferences(ps)},
				Cards: cards,
			}, nil
		},
	}
}

func compareMissing(asked []string, found []catalog.Product) []string {
	var missing []string
	for _, sku := range asked {
		if !slices.ContainsFunc(found, func(p catalog.Product) bool { return p.SKU == sku }) {
			missing = append(missing, sku)
		}
	}
	return missing
}

// compareDifferences names the fields whose values are not the same for every
// product: price and rating first, then attribute keys in order. A missing
// attribute counts as a value of its own.
func compareDifferences(ps []catalog.Product) []string {
	diff := []string{}
	if !sameForAll(ps, func(p *catalog.Product) string { return strconv.FormatInt(p.Price, 10) + p.Currency }) {
		diff = append(diff, "price")
	}
	if !sameForAll(ps, func(p *catalog.Product) string { return strconv.FormatFloat(p.RatingAvg, 'f', 2, 64) }) {
		diff = append(diff, "rating")
	}
	keys := map[string]bool{}
	for i := range ps {
		for k := range ps[i].Attributes {
			keys[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if !sameForAll(ps, func(p *catalog.Product) string {
			v, ok := p.Attributes[k]
			if !ok {
				return "\x00missing"
			}
			return strings.ToLower(strings.TrimSpace(v))
		}) {
			diff = append(diff, k)
		}
	}
	return diff
}

// sameForAll reports whether value gives one result for every product.
func sameForAll(ps []catalog.Product, value func(*catalog.Product) string) bool {
	for i := 1; i < len(ps); i++ {
		if value(&ps[i]) != value(&ps[0]) {
			return false
		}
	}
	return true
}
