package catalog_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestCountryIn(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"221B Baker Street, London NW1 6XE, United Kingdom", "GB"},
		{"12 Queen St W, Toronto, ON M5H 2N2, Canada", "CA"},
		{"Berliner Str. 5, 10115 Berlin, Germany", "DE"},
		{"500 Main St, Springfield, IL 62701, USA", "US"},
		{"1 Rue de Rivoli, Paris, FR", "FR"},
		{"г. Москва, ул. Тверская, д. 1, Россия", "RU"},
		{"доставка в Канаду", "CA"},
		{"сколько стоит доставка в Германию?", "DE"},
		{"Казахстан, Алматы, пр. Абая 10", "KZ"},
		{"ул. Ленина 5, Москва", "RU"},   // a capital, no country named
		{"Lindenstraße 3, Berlin", "DE"}, // idem
		{"canada", "CA"},
		{"CA", "CA"},
		{"us", "US"},
		{"how much is delivery to Canada?", "CA"},
		// A US state code at the end is not Canada or Germany, and
		// "us" inside a sentence is a word.
		{"500 Market St, San Francisco, CA 94105", ""},
		{"send it to us please", ""},
		{"данные для доставки", ""},
		{"12 Elm St, Springfield", ""},
		{"", ""},
	} {
		got, ok := catalog.CountryIn(tc.text)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("CountryIn(%q) = %q, %v; want %q", tc.text, got, ok, tc.want)
		}
	}
	if code, ok := catalog.CountryCode("CA"); !ok || code != "CA" {
		t.Errorf("CountryCode(CA) = %q, %v", code, ok)
	}
	if _, ok := catalog.CountryCode("Atlantis"); ok {
		t.Error("Atlantis is a country")
	}
}

func TestDeliveryFits(t *testing.T) {
	std := catalog.DeliveryMethod{Name: "Standard", Price: 500, FreeOver: 5000, Countries: "CA,US", Active: true}
	anyM := catalog.DeliveryMethod{Name: "World", Price: 3000, Countries: catalog.AnyCountry, Active: true}
	pickup := catalog.DeliveryMethod{Name: "Pickup", Countries: "US", Pickup: true, Active: true}
	off := catalog.DeliveryMethod{Name: "Old", Countries: catalog.AnyCountry}
	for _, tc := range []struct {
		m       catalog.DeliveryMethod
		country string
		want    bool
	}{
		{std, "US", true}, {std, "CA", true}, {std, "DE", false}, {std, "", false},
		{anyM, "DE", true}, {anyM, "", true},
		{pickup, "DE", true}, {pickup, "", true},
		{off, "US", false},
	} {
		if got := tc.m.Fits(tc.country); got != tc.want {
			t.Errorf("%s fits %q = %v, want %v", tc.m.Name, tc.country, got, tc.want)
		}
	}
	for _, tc := range []struct{ subtotal, want int64 }{{4999, 500}, {5000, 0}, {5001, 0}, {0, 500}} {
		if got := std.PriceFor(tc.subtotal); got != tc.want {
			t.Errorf("price for subtotal %d = %d, want %d", tc.subtotal, got, tc.want)
		}
	}
	if anyM.PriceFor(1_000_000) != 3000 {
		t.Error("a method without a threshold became free")
	}
	got := catalog.FittingDeliveries([]catalog.DeliveryMethod{std, anyM, pickup, off}, "DE")
	if len(got) != 2 || got[0].Name != "World" || got[1].Name != "Pickup" {
		t.Errorf("fitting DE = %+v", got)
	}
}

func TestDeliveryMethodsStore(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
		m := catalog.DeliveryMethod{Name: "  Express   courier ", Price: 1500, Countries: "us, Canada", DaysMin: 1, DaysMax: 2, Active: true}
		if err := catalog.SaveDeliveryMethod(ctx, db, &m, now); err != nil {
			t.Fatal(err)
		}
		got, err := catalog.GetDeliveryMethod(ctx, db, m.ID)
		if err != nil || got.Name != "Express courier" || got.Countries != "CA,US" || got.Price != 1500 {
			t.Fatalf("stored %+v, %v", got, err)
		}
		for name, bad := range map[string]catalog.DeliveryMethod{
			"no name":        {Name: " ", Countries: "any"},
			"negative price": {Name: "A", Price: -1},
			"days reversed":  {Name: "A", DaysMin: 5, DaysMax: 2},
			"unknown land":   {Name: "A", Countries: "Atlantis"},
			"long name":      {Name: string(make([]byte, 61)), Countries: "any"},
		} {
			bad := bad
			if err := catalog.SaveDeliveryMethod(ctx, db, &bad, now); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: err = %v, want ErrInvalid", name, err)
			}
		}
		dup := catalog.DeliveryMethod{Name: "EXPRESS COURIER", Countries: "any", Active: true}
		if err := catalog.SaveDeliveryMethod(ctx, db, &dup, now); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("same name again: %v, want ErrConflict", err)
		}
		all, _ := catalog.ListDeliveryMethods(ctx, db)
		if len(all) != 1 {
			t.Fatalf("bad input stored something: %+v", all)
		}
		got.Active = false
		if err := catalog.SaveDeliveryMethod(ctx, db, got, now); err != nil {
			t.Fatal(err)
		}
		if act, _ := catalog.ActiveDeliveryMethods(ctx, db); len(act) != 0 {
			t.Errorf("inactive method listed as active: %+v", act)
		}
		ghost := *got
		ghost.ID = 9999
		if err := catalog.SaveDeliveryMethod(ctx, db, &ghost, now); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("update of a missing method: %v", err)
		}
		if err := catalog.DeleteDeliveryMethod(ctx, db, got.ID); err != nil {
			t.Fatal(err)
		}
		if err := catalog.DeleteDeliveryMethod(ctx, db, got.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("second delete: %v", err)
		}

		if c, _ := catalog.DefaultCountry(ctx, db); c != "" {
			t.Errorf("default country before any = %q", c)
		}
		if err := catalog.SetDefaultCountry(ctx, db, "Germany", now); err != nil {
			t.Fatal(err)
		}
		if err := catalog.SetDefaultCountry(ctx, db, "Atlantis", now); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("unknown default country: %v", err)
		}
		if c, _ := catalog.DefaultCountry(ctx, db); c != "DE" {
			t.Errorf("default country = %q, want DE", c)
		}
	})
}

// Two panels adding a method of the same name at once: one wins, the
// other gets a conflict, and one row exists.
func TestDeliveryMethodConcurrentNames(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m := catalog.DeliveryMethod{Name: "Courier", Price: int64(100 * i), Countries: "any", Active: true}
				errs[i] = catalog.SaveDeliveryMethod(ctx, db, &m, time.Now())
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, catalog.ErrConflict), errors.Is(err, catalog.ErrUnavailable):
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}
		all, _ := catalog.ListDeliveryMethods(ctx, db)
		if ok != 1 || len(all) != 1 {
			t.Fatalf("%d saves succeeded, %d rows", ok, len(all))
		}
	})
}

func TestOrderWithDelivery(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Now()
		seed(t, db, product("A-1", 2500, 5))
		std := catalog.DeliveryMethod{Name: "Standard", Price: 500, FreeOver: 5000, Countries: "US", Active: true}
		if err := catalog.SaveDeliveryMethod(ctx, db, &std, now); err != nil {
			t.Fatal(err)
		}
		ann := customer(t, db, "telegram", "1")
		place := func(key string, d *catalog.DeliveryRequest) (*catalog.Order, error) {
			return catalog.PlaceOrder(ctx, db, catalog.OrderRequest{
				IdempotencyKey: key, Scope: catalog.PersonalCart(ann.ID), CustomerID: ann.ID, Channel: "telegram", ChatID: "1",
				Contact: catalog.Contact{Name: "Ann", Phone: "+1 555 0100", Address: "1 Main St, Boston, USA"}, Delivery: d,
			})
		}
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
		// A method that does not fit the country orders nothing.
		if _, err := place("k0", &catalog.DeliveryRequest{MethodID: std.ID, Country: "DE"}); !errors.Is(err, catalog.ErrInvalid) {
			t.Fatalf("unfit method: %v", err)
		}
		if stockOf(t, db, "A-1") != 5 {
			t.Fatal("a refused order took stock")
		}
		o, err := place("k1", &catalog.DeliveryRequest{MethodID: std.ID, Country: "US"})
		if err != nil {
			t.Fatal(err)
		}
		if o.DeliveryMethod != "Standard" || o.DeliveryCents != 500 || o.Total != 3000 {
			t.Fatalf("under the threshold: %+v", o)
		}
		// At the threshold exactly, delivery is free.
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 2, ann.ID))
		o, err = place("k2", &catalog.DeliveryRequest{MethodID: std.ID, Country: "US"})
		if err != nil || o.DeliveryCents != 0 || o.Total != 5000 {
			t.Fatalf("at the threshold: %+v, %v", o, err)
		}
		// The order keeps the name and price after the method changes.
		std.Name, std.Price = "Renamed", 900
		if err := catalog.SaveDeliveryMethod(ctx, db, &std, now); err != nil {
			t.Fatal(err)
		}
		if o, _ := catalog.GetOrder(ctx, db, o.Number); o.DeliveryMethod != "Standard" {
			t.Errorf("order's method became %q", o.DeliveryMethod)
		}
	})
}
