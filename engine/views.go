package engine

import (
	"strings"
	"time"

	"shopbot/catalog"
)

// cardOf renders a product for shoppers from catalog data.
func cardOf(p *catalog.Product) Card {
	c := Card{
		SKU: p.SKU, Title: p.Title, Brand: p.Brand, Price: p.Price, Currency: p.Currency,
		PriceText: catalog.FormatPrice(p.Price, p.Currency), Stock: availableStock(p), InStock: p.InStock(),
		Rating: p.RatingAvg, RatingCount: p.RatingCount, Summary: summary(p.Description, 160),
		Attributes: p.Attributes,
	}
	if p.Category != nil {
		c.Category = p.Category.Path
	}
	if len(p.ImageURLs) > 0 {
		c.ImageURL = p.ImageURLs[0]
	}
	return c
}

func cardsOf(ps []catalog.Product) []Card {
	out := make([]Card, len(ps))
	for i := range ps {
		out[i] = cardOf(&ps[i])
	}
	return out
}

func availableStock(p *catalog.Product) int {
	if !p.Active {
		return 0
	}
	return p.Stock
}

// summary cuts text at a word boundary.
func summary(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, ",.;: ") + "…"
}

// cartViewOf renders a cart.
func cartViewOf(c *catalog.Cart, currency string) *CartView {
	v := &CartView{Shared: c.Scope != "" && strings.HasPrefix(c.Scope, "chat:"), Currency: currency, Lines: []CartLine{}}
	for _, it := range c.Items {
		if it.Product == nil {
			continue
		}
		line := CartLine{
			SKU: it.Product.SKU, Title: it.Product.Title, Qty: it.Quantity,
			UnitPrice: it.Product.Price, LineTotal: it.Product.Price * int64(it.Quantity),
			Stock: availableStock(it.Product),
		}
		line.PriceText = catalog.FormatPrice(line.LineTotal, it.Product.Currency)
		if it.Adder != nil {
			line.AddedBy = it.Adder.DisplayName
		}
		v.Lines = append(v.Lines, line)
	}
	total, cur := c.Total()
	if cur != "" {
		v.Currency = cur
	}
	v.Total, v.Units = total, c.Count()
	v.TotalText = catalog.FormatPrice(v.Total, v.Currency)
	return v
}

// orderViewOf renders an order.
func orderViewOf(o *catalog.Order) *OrderView {
	v := &OrderView{
		Number: o.Number, Status: string(o.Status), Total: o.Total, Currency: o.Currency,
		TotalText: catalog.FormatPrice(o.Total, o.Currency), CreatedAt: o.CreatedAt.UTC().Format(time.RFC3339),
		Tracking: o.TrackingNote, Lines: []OrderLine{},
	}
	for _, it := range o.Items {
		v.Lines = append(v.Lines, OrderLine{SKU: it.SKU, Title: it.Title, Qty: it.Quantity, UnitPrice: it.UnitPrice})
	}
	return v
}
