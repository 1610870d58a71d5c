package admin

import "net/http"

// productFeeds is the Settings section of the product feeds
// (catalog/storefront): their addresses, to give to ChatGPT's merchant
// programme, Google Merchant Center or any crawler, and whether they are
// served (FEEDS).
type productFeeds struct {
	On    bool
	Feeds []feedLink
	// Page is an example product page address, the pattern feed links
	// follow.
	Page string
}

type feedLink struct{ Name, URL string }

func (s *Server) productFeeds(r *http.Request) productFeeds {
	base := s.publicBase(r)
	return productFeeds{
		On: s.cfg.Feeds,
		Feeds: []feedLink{
			{"OpenAI product feed (JSON)", base + "/feeds/products.json"},
			{"OpenAI product feed (CSV)", base + "/feeds/products.csv"},
			{"Google Merchant Center (RSS 2.0)", base + "/feeds/google.xml"},
		},
		Page: base + "/products/SKU",
	}
}
