package view_test

import (
	"testing"

	"shopbot/catalog"
	"shopbot/engine/view"
)

// TestOrderViewDeliveryText: a delivery that cost nothing (a free method
// or the free-over threshold reached) reads "Free", not "$0.00"; a paid
// one its amount; an order without delivery shows none.
func TestOrderViewDeliveryText(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string
		cents  int64
		want   string
	}{
		{"paid", "Express courier", 1500, "$15.00"},
		{"free method or threshold", "Pickup", 0, "Free"},
		{"one cent", "Letter", 1, "$0.01"},
		{"no delivery", "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &catalog.Order{Number: "A-1", Status: catalog.StatusNew, Currency: "USD",
				DeliveryMethod: tc.method, DeliveryCents: tc.cents, Total: 2800 + tc.cents}
			v := view.OrderViewOf(o)
			if v.DeliveryText != tc.want || v.Delivery != tc.method || v.DeliveryCents != tc.cents {
				t.Errorf("delivery %q, %d, %q; want %q, %d, %q", v.Delivery, v.DeliveryCents, v.DeliveryText, tc.method, tc.cents, tc.want)
			}
		})
	}
	if got := view.DeliveryPriceText(0, "EUR"); got != view.FreeDelivery {
		t.Errorf("DeliveryPriceText(0) = %q", got)
	}
	if got := view.DeliveryPriceText(499, "EUR"); got == view.FreeDelivery || got == "" {
		t.Errorf("DeliveryPriceText(499 EUR) = %q", got)
	}
}
