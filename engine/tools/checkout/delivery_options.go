package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"shopbot/engine/toolkit"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
)

type deliveryOptionsArgs struct {
	Country string `json:"country"`
}

// NoteNoDeliveryMethods is DeliveryOptions.Note for a shop whose merchant
// set up no methods: its pages may still say what delivery costs.
const NoteNoDeliveryMethods = "the shop has no delivery methods set up"

// DeliveryOptions is get_delivery_options' data, which the planner reads too.
type DeliveryOptions struct {
	Country     string           `json:"country"` // ISO code
	CountryName string           `json:"country_name"`
	Options     []DeliveryOption `json:"options"`
	Note        string           `json:"note,omitempty"`
}

// DeliveryOption is one method as a shopper reads it.
type DeliveryOption struct {
	N        int    `json:"n"` // its number in the list, for "the second one"
	Name     string `json:"name"`
	Price    string `json:"price"`               // "$5.00", "free"
	FreeOver string `json:"free_over,omitempty"` // free from this subtotal
	Days     string `json:"days,omitempty"`      // "3–5"
	Pickup   bool   `json:"pickup,omitempty"`
	// Amount is Price in minor units, and Chosen marks the method of the
	// summary: both only in an agent's checkout summary (agent_delivery.go).
	Amount *int64 `json:"amount,omitempty"`
	Chosen bool   `json:"chosen,omitempty"`
}

// DeliveryOptionsTool is get_delivery_options: the delivery methods to a
// country (the shop's own when none is given), what each costs, from
// what subtotal it is free and how many days it takes.
func DeliveryOptionsTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "get_delivery_options",
		Description: "Delivery methods to a country with price, free-over threshold and days. Empty country: the shop's own.",
		Schema: toolkit.Object(map[string]any{
			"country": toolkit.Str("country name or ISO code", 60),
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a deliveryOptionsArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			return deliveryOptions(ctx, d, s, analysis.CleanText(a.Country))
		},
	}
}

func deliveryOptions(ctx context.Context, d *Deps, s *session.Session, asked string) (toolkit.Result, error) {
	country := ""
	if asked != "" {
		code, ok := catalog.CountryCode(asked)
		if !ok {
			return toolkit.Result{}, toolkit.Errorf("unknown country %q: give a country name or an ISO code such as CA", clip.Shorten(asked, 40))
		}
		country = code
	} else {
		def, err := d.Deliveries().DefaultCountry(ctx)
		if err != nil {
			return toolkit.Result{}, err
		}
		country = def
	}
	methods, err := d.Deliveries().DeliveryMethods(ctx)
	if err != nil {
		return toolkit.Result{}, err
	}
	out := DeliveryOptions{Country: country, CountryName: catalog.CountryName(country, s.Lang()), Options: []DeliveryOption{}}
	for i, m := range catalog.FittingDeliveries(methods, country) {
		out.Options = append(out.Options, deliveryOptionOf(i+1, &m, m.Price, s.Currency))
	}
	switch {
	case len(methods) == 0:
		out.Note = NoteNoDeliveryMethods
	case len(out.Options) == 0:
		out.Note = "no delivery to this country"
	}
	return toolkit.Result{Data: out}, nil
}

// deliveryOptionOf words a method at price (what it costs for the cart,
// or its base price when there is no cart).
func deliveryOptionOf(n int, m *catalog.DeliveryMethod, price int64, currency string) DeliveryOption {
	o := DeliveryOption{N: n, Name: m.Name, Price: catalog.FormatPrice(price, currency), Pickup: m.Pickup}
	if price == 0 {
		o.Price = "free"
	}
	if m.FreeOver > 0 && price > 0 {
		o.FreeOver = catalog.FormatPrice(m.FreeOver, currency)
	}
	switch {
	case m.DaysMax == 0:
	case m.DaysMin == m.DaysMax:
		o.Days = fmt.Sprint(m.DaysMax)
	default:
		o.Days = fmt.Sprintf("%d–%d", m.DaysMin, m.DaysMax)
	}
	return o
}
