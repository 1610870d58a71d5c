package view

import (
	"strings"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/clip"
)

// fromPrefix marks the lowest of a parent's variant prices (FromPrice).
const fromPrefix = "from "

// CardOf renders a product for shoppers from catalog data.
func CardOf(p *catalog.Product) Card {
	c := Card{
		SKU: p.SKU, Title: p.Title, Brand: p.Brand, Price: p.Price, Currency: p.Currency,
		PriceText: catalog.FormatPrice(p.Price, p.Currency), Stock: AvailableStock(p), InStock: p.InStock(),
		Rating: p.RatingAvg, RatingCount: p.RatingCount, Summary: Summary(p.Description, 160),
		Attributes: p.Attributes, OptionNames: p.OptionNames, VariantCount: p.VariantCount, Options: p.Options,
	}
	if p.HasVariants() && p.PriceMax > p.Price {
		c.PriceText = fromPrefix + c.PriceText
	}
	if p.Category != nil {
		c.Category = p.Category.Path
	}
	if len(p.ImageURLs) > 0 {
		c.ImageURL = p.ImageURLs[0]
	}
	return c
}

func CardsOf(ps []catalog.Product) []Card {
	out := make([]Card, len(ps))
	for i := range ps {
		out[i] = CardOf(&ps[i])
	}
	return out
}

func AvailableStock(p *catalog.Product) int {
	if !p.Active {
		return 0
	}
	return p.Stock
}

// Shorten fits s in at most n runes for a reader, marking a cut with "…"
// (clip.Shorten): the adapters' way to it, as they import no package under
// catalog/.
func Shorten(s string, n int) string { return clip.Shorten(s, n) }

// Summary cuts text at a word boundary.
func Summary(s string, n int) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "\uFFFD")
	runes := 0
	for end := range s { // a search result summarizes every product's description: no []rune copy
		if runes == n {
			cut := s[:end]
			if i := strings.LastIndexByte(cut, ' '); i > n/2 {
				cut = cut[:i]
			}
			return strings.TrimRight(cut, ",.;: ") + "…"
		}
		runes++
	}
	return s
}

// CartViewOf renders a cart.
func CartViewOf(c *catalog.Cart, currency string) *CartView {
	v := &CartView{Shared: c.Scope != "" && strings.HasPrefix(c.Scope, "chat:"), Currency: currency, Lines: []CartLine{}}
	for _, it := range c.Items {
		if it.Product == nil {
			continue
		}
		line := CartLine{
			SKU: it.Product.SKU, Title: it.Product.Title, Qty: it.Quantity,
			UnitPrice: it.Product.Price, LineTotal: it.Product.Price * int64(it.Quantity),
			Stock: AvailableStock(it.Product), Variant: catalog.OptionLabel(it.Product.Options, nil),
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
	v.promo(c.Promo)
	v.TotalText = catalog.FormatPrice(v.Total, v.Currency)
	return v
}

// promo shows the cart's code: its discount off the total, or why it
// gives none yet.
func (v *CartView) promo(q *catalog.PromoQuote) {
	if q == nil {
		return
	}
	v.PromoCode, v.Subtotal = q.Code, v.Total
	v.SubtotalText = catalog.FormatPrice(v.Subtotal, v.Currency)
	if q.Problem != nil {
		v.PromoNote = q.Problem.Msg
		return
	}
	v.Discount = q.Discount
	v.DiscountText = "−" + catalog.FormatPrice(q.Discount, v.Currency)
	v.Total -= q.Discount
}

// PromoLine is the cart's promo code line every channel shows under the
// lines: "Promo SPRING10: −$5.00 (subtotal $50.00)", or the code and why
// it gives no discount; "" without a code.
func (v *CartView) PromoLine() string {
	switch {
	case v.PromoCode == "":
		return ""
	case v.PromoNote != "":
		return "Promo " + v.PromoCode + ": " + v.PromoNote
	}
	return "Promo " + v.PromoCode + ": " + v.DiscountText + " (subtotal " + v.SubtotalText + ")"
}

// FreeDelivery is what a delivery that costs nothing shows instead of
// "$0.00": a free method, or the free-over threshold reached.
const FreeDelivery = "Free"

// DeliveryPriceText is a delivery price as the checkout summary and the
// order show it: FreeDelivery for 0, the amount otherwise.
func DeliveryPriceText(cents int64, currency string) string {
	if cents == 0 {
		return FreeDelivery
	}
	return catalog.FormatPrice(cents, currency)
}

// OrderViewOf renders an order.
func OrderViewOf(o *catalog.Order) *OrderView {
	v := &OrderView{
		Number: o.Number, Status: string(o.Status), Total: o.Total, Currency: o.Currency,
		PromoCode: o.PromoCode, Discount: o.DiscountCents,
		TotalText: catalog.FormatPrice(o.Total, o.Currency), CreatedAt: o.CreatedAt.UTC().Format(time.RFC3339),
		Tracking: o.TrackingNote, Lines: []OrderLine{},
		Delivery: o.DeliveryMethod, DeliveryCents: o.DeliveryCents,
	}
	if o.DeliveryMethod != "" {
		v.DeliveryText = DeliveryPriceText(o.DeliveryCents, o.Currency)
	}
	if o.DiscountCents > 0 {
		v.DiscountText = "−" + catalog.FormatPrice(o.DiscountCents, o.Currency)
	}
	for _, it := range o.Items {
		v.Lines = append(v.Lines, OrderLine{SKU: it.SKU, Title: it.Title, Qty: it.Quantity, UnitPrice: it.UnitPrice,
			Variant: catalog.OptionLabel(it.Options, nil)})
	}
	return v
}

// Card is a product as the shopper sees it. Every figure comes from the
// catalog, never from model text.
type Card struct {
	SKU         string            `json:"sku"`
	Title       string            `json:"title"`
	Brand       string            `json:"brand,omitempty"`
	Category    string            `json:"category,omitempty"`
	Price       int64             `json:"price"` // minor units
	Currency    string            `json:"currency"`
	PriceText   string            `json:"price_text"` // "$89.99"
	Stock       int               `json:"stock"`
	InStock     bool              `json:"in_stock"`
	Rating      float64           `json:"rating,omitempty"`
	RatingCount int               `json:"rating_count,omitempty"`
	ImageURL    string            `json:"image_url,omitempty"`
	Summary     string            `json:"summary,omitempty"`
	Attributes  map[string]string `json:"attributes,omitempty"`
	// Variants: a parent's option names and how many variants it has
	// (PriceText then reads "from $X" when their prices differ); Options,
	// a variant's option values.
	OptionNames  []string          `json:"option_names,omitempty"`
	VariantCount int               `json:"variant_count,omitempty"`
	Options      map[string]string `json:"options,omitempty"`
}

// Button is a quick reply or a card button.
type Button struct {
	Label  string `json:"label"`
	Action Action `json:"-"`
	Data   string `json:"data"` // Action.Encode()
}

// NewButton builds a button for an action.
func NewButton(label string, a Action) Button {
	return Button{Label: label, Action: a, Data: a.Encode()}
}

// CartView is a cart as shown to shoppers.
type CartView struct {
	Shared    bool       `json:"shared"`
	Lines     []CartLine `json:"lines"`
	Units     int        `json:"units"`
	Total     int64      `json:"total"`
	Currency  string     `json:"currency"`
	TotalText string     `json:"total_text"` // after the discount
	// The promo code on the cart: its discount, or PromoNote saying why
	// it gives none yet; Subtotal is the lines' sum before it.
	PromoCode    string `json:"promo_code,omitempty"`
	Subtotal     int64  `json:"subtotal,omitempty"`
	SubtotalText string `json:"subtotal_text,omitempty"`
	Discount     int64  `json:"discount,omitempty"`
	DiscountText string `json:"discount_text,omitempty"` // "−$5.00"
	PromoNote    string `json:"promo_note,omitempty"`
}

// CartLine is one product in a cart.
type CartLine struct {
	SKU       string `json:"sku"`
	Title     string `json:"title"`
	Variant   string `json:"variant,omitempty"` // a variant's option values, "42 / Navy"
	Qty       int    `json:"qty"`
	UnitPrice int64  `json:"unit_price"`
	LineTotal int64  `json:"line_total"`
	PriceText string `json:"price_text"` // line total, formatted
	Stock     int    `json:"stock"`
	AddedBy   string `json:"added_by,omitempty"` // shared carts: who added it
}

// OrderView is an order as shown to shoppers.
type OrderView struct {
	Number    string      `json:"number"`
	Status    string      `json:"status"`
	Lines     []OrderLine `json:"lines"`
	Total     int64       `json:"total"`
	Currency  string      `json:"currency"`
	TotalText string      `json:"total_text"`
	CreatedAt string      `json:"created_at"` // RFC 3339
	Tracking  string      `json:"tracking,omitempty"`
	// Delivery is the method's name, DeliveryCents its price (part of
	// Total) and DeliveryText that price shown ("$5.00", or FreeDelivery
	// when it cost nothing); empty for an order without delivery.
	Delivery      string `json:"delivery,omitempty"`
	DeliveryCents int64  `json:"delivery_cents,omitempty"`
	DeliveryText  string `json:"delivery_text,omitempty"`
	// PromoCode and Discount: what the order's code took off Total.
	PromoCode    string `json:"promo_code,omitempty"`
	Discount     int64  `json:"discount,omitempty"`
	DiscountText string `json:"discount_text,omitempty"`
}

// OrderLine is one line of an order at the price paid.
type OrderLine struct {
	SKU       string `json:"sku"`
	Title     string `json:"title"`
	Variant   string `json:"variant,omitempty"` // option values as sold, "42 / Navy"
	Qty       int    `json:"qty"`
	UnitPrice int64  `json:"unit_price"`
}

// PromoLine is the order's promo code line, "Promo SPRING10: −$5.00";
// "" when no code discounted it.
func (v *OrderView) PromoLine() string {
	if v.Discount == 0 {
		return ""
	}
	return "Promo " + v.PromoCode + ": " + v.DiscountText
}
