package storefront

import (
	"context"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// Shop is what every row of a feed says about the seller.
type Shop struct {
	// Name is the shop's name (and the brand of an item that names
	// none: the shop's own label); URL its public address (scheme and host,
	// no trailing slash), which product links and relative image paths
	// are made absolute against.
	Name, URL string
	// Country is the shop's own country (ISO 3166-1 alpha-2, "" when the
	// merchant has not set one); Countries where it delivers: the codes
	// its active delivery methods name, or Country alone when a method
	// delivers anywhere or none names a country.
	Country   string
	Countries []string
}

// readShop reads the seller's country and delivery countries.
func readShop(ctx context.Context, db bun.IDB, name, url string) (Shop, error) {
	s := Shop{Name: name, URL: url}
	country, err := catalog.DefaultCountry(ctx, db)
	if err != nil {
		return s, err
	}
	s.Country = country
	methods, err := catalog.ActiveDeliveryMethods(ctx, db)
	if err != nil {
		return s, err
	}
	for _, m := range methods {
		if m.Pickup || m.Countries == catalog.AnyCountry || m.Countries == "" {
			continue
		}
		for _, c := range strings.Split(m.Countries, ",") {
			if c = strings.TrimSpace(c); c != "" && !slices.Contains(s.Countries, c) {
				s.Countries = append(s.Countries, c)
			}
		}
	}
	if country != "" && !slices.Contains(s.Countries, country) {
		s.Countries = append(s.Countries, country)
	}
	slices.Sort(s.Countries)
	return s, nil
}

// ProductURL is the landing page of an item: its product's page, with the
// variant chosen.
func (s *Shop) ProductURL(it *Item) string {
	u := s.URL + "/products/" + pathEscape(it.GroupSKU)
	if it.HasVariants {
		u += "?variant=" + queryEscape(it.SKU)
	}
	return u
}

// ImageURL makes an image address absolute: a path on this server
// ("/media/…") gets the shop's URL in front; http(s) URLs stay as they
// are; anything else is dropped.
func (s *Shop) ImageURL(src string) string {
	switch {
	case strings.HasPrefix(src, "https://"), strings.HasPrefix(src, "http://"):
		return src
	case strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "//"):
		return s.URL + src
	}
	return ""
}
