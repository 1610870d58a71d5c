package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"

	"shopbot/engine/session"
	"shopbot/engine/view"
)

// availabilityLowMax is the most units a product can have and still be reported
// as "low_stock".
const availabilityLowMax = 5

// availability is the stock of one product as the model reads it.
type availability struct {
	SKU    string `json:"sku"`
	Title  string `json:"title"`
	Stock  int    `json:"stock"`
	Status string `json:"status"` // in_stock, low_stock or out_of_stock
	// NoLongerSold marks an archived product: it cannot be bought at all.
	NoLongerSold bool `json:"no_longer_sold,omitempty"`
}

func getAvailabilityTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "get_availability",
		Description: "Current stock of a product.",
		Schema:      object(map[string]any{"sku": sku()}, "sku"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a productSKUArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			p, err := d.products().Product(ctx, a.SKU)
			if err != nil {
				return toolkit.Result{}, err
			}
			stock := view.AvailableStock(p)
			return toolkit.Result{Data: availability{
				SKU: p.SKU, Title: p.Title, Stock: stock, Status: availabilityStatus(stock), NoLongerSold: !p.Active,
			}}, nil
		},
	}
}

func availabilityStatus(stock int) string {
	switch {
	case stock <= 0:
		return "out_of_stock"
	case stock <= availabilityLowMax:
		return "low_stock"
	}
	return "in_stock"
}
