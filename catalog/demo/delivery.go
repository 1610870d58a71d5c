package demo

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// DeliveryMethods are the demo shop's delivery methods, as its shipping
// page (pages/shipping.md) describes them; prices in US cents.
func DeliveryMethods() []catalog.DeliveryMethod {
	return []catalog.DeliveryMethod{
		{Name: "Standard", Price: 500, FreeOver: 5000, Countries: "US", DaysMin: 3, DaysMax: 5, Active: true, Position: 1},
		{Name: "Express courier", Price: 1500, Countries: "US", DaysMin: 1, DaysMax: 2, Active: true, Position: 2},
		{Name: "Store pickup", Price: 0, Countries: catalog.AnyCountry, DaysMin: 0, DaysMax: 1, Pickup: true, Active: true, Position: 3},
		{Name: "International to Canada", Price: 1200, Countries: "CA", DaysMin: 5, DaysMax: 8, Active: true, Position: 4},
		{Name: "International to Europe", Price: 1800, Countries: "DE,ES,FR,GB,IT,NL,PL", DaysMin: 6, DaysMax: 10, Active: true, Position: 5},
	}
}

// DefaultCountry is the demo shop's own country.
const DefaultCountry = "US"

// WriteDeliveries gives a shop without delivery methods the demo's, and
// its country; a merchant's own methods are left alone. Seed calls it;
// Load does not, so tests of the checkout without delivery keep a shop
// without methods.
func WriteDeliveries(ctx context.Context, tx bun.IDB) error {
	_, err := writeDeliveries(ctx, tx)
	return err
}

// writeDeliveries is WriteDeliveries, reporting whether it wrote.
func writeDeliveries(ctx context.Context, tx bun.IDB) (wrote bool, err error) {
	have, err := catalog.ListDeliveryMethods(ctx, tx)
	if err != nil || len(have) > 0 {
		return false, err
	}
	now := time.Now()
	for _, m := range DeliveryMethods() {
		if err := catalog.SaveDeliveryMethod(ctx, tx, &m, now); err != nil {
			return false, err
		}
	}
	return true, catalog.SetDefaultCountry(ctx, tx, DefaultCountry, now)
}
