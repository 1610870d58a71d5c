package toolkit

import "shopbot/engine/view"

// The cart as the model reads it, in every tool that shows or changes
// it (view_cart, the cart changes, checkout): amounts already formatted.

// CartData is a cart as the model reads it: amounts already formatted.
type CartData struct {
	Shared bool       `json:"shared,omitempty"`
	Units  int        `json:"units"`
	Total  string     `json:"total"`
	Lines  []CartLine `json:"lines"`
	Promo  *PromoData `json:"promo,omitempty"`
}

// PromoData is the cart's promo code as the model reads it: the discount
// already in total, or the note saying why there is none.
type PromoData struct {
	Code     string `json:"code"`
	Subtotal string `json:"subtotal"`
	Discount string `json:"discount,omitempty"`
	Note     string `json:"note,omitempty"`
}

// CartLine is one line of a CartData.
type CartLine struct {
	SKU       string `json:"sku"`
	Title     string `json:"title"`
	Variant   string `json:"variant,omitempty"` // "42 / Navy"
	Qty       int    `json:"qty"`
	LineTotal string `json:"line_total"`
	AddedBy   string `json:"added_by,omitempty"`
	// Available is set when stock fell below the quantity in the cart.
	Available *int `json:"available,omitempty"`
}

// CartDataOf is the cart v as the model reads it.
func CartDataOf(v *view.CartView) CartData {
	out := CartData{Shared: v.Shared, Units: v.Units, Total: v.TotalText, Lines: make([]CartLine, len(v.Lines))}
	if v.PromoCode != "" {
		out.Promo = &PromoData{Code: v.PromoCode, Subtotal: v.SubtotalText, Discount: v.DiscountText, Note: v.PromoNote}
	}
	for i, l := range v.Lines {
		out.Lines[i] = CartLine{SKU: l.SKU, Title: l.Title, Variant: l.Variant, Qty: l.Qty, LineTotal: l.PriceText, AddedBy: l.AddedBy}
		if l.Stock < l.Qty {
			out.Lines[i].Available = &l.Stock
		}
	}
	return out
}
