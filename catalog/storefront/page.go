package storefront

import (
	"bytes"
	_ "embed"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// The product page (/products/{sku}) is where a feed's link lands: the
// product as a shopper would judge it (photos, price, its variants and
// which are in stock, the description) with schema.org data for search
// engines and the shop's chat widget. A variant's SKU shows its
// product's page with that variant chosen; an archived or unknown SKU is
// a 404 page.

//go:embed page.html
var pageHTML string

var pageTemplate = template.Must(template.New("product").Parse(pageHTML))

// pageView is what page.html renders.
type pageView struct {
	// Was is the regular price of a product on sale, struck through.
	Lang, Shop, Title, Brand, Category, Price, Was, Description string
	Images                                                      []string
	InStock                                                     bool
	Variants                                                    []variantView
	Rating                                                      string
	LD                                                          map[string]any
	Widget, NotFound                                            bool
	T                                                           func(key string) string
}

type variantView struct {
	SKU, Label, Price, Was string
	InStock, Chosen        bool
}

// Page serves the product pages.
func (s *Server) Page() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		lang := s.lang(r)
		v := pageView{Lang: lang, Shop: s.shopName(ctx), Widget: s.o.Widget,
			T: func(key string) string { return s.word(lang, key) }}
		status := http.StatusOK
		p, variants, err := s.product(r, r.PathValue("sku"))
		switch {
		case errors.Is(err, catalog.ErrNotFound):
			v.NotFound, status = true, http.StatusNotFound
		case err != nil:
			s.fail(w, r, "read a product", err)
			return
		default:
			s.fill(&v, r, p, variants, r.URL.Query().Get("variant"))
		}
		var buf bytes.Buffer
		if err := pageTemplate.Execute(&buf, v); err != nil {
			s.fail(w, r, "render a product page", err)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(status)
		w.Write(buf.Bytes())
	})
}

// product reads the active product of sku, or of the variant sku names,
// with its active variants.
func (s *Server) product(r *http.Request, sku string) (*catalog.Product, []catalog.Product, error) {
	ctx := r.Context()
	p, err := catalog.GetProduct(ctx, s.o.DB, sku)
	if err != nil {
		return nil, nil, err
	}
	if p.ParentID != nil {
		if p, err = catalog.GetProductByID(ctx, s.o.DB, *p.ParentID); err != nil {
			return nil, nil, err
		}
	}
	if !p.Active {
		return nil, nil, catalog.ErrNotFound
	}
	if !p.HasVariants() {
		return p, nil, nil
	}
	all, err := catalog.ListVariants(ctx, s.o.DB, p.ID)
	if err != nil {
		return nil, nil, err
	}
	var active []catalog.Product
	for _, v := range all {
		if v.Active {
			active = append(active, v)
		}
	}
	if len(active) == 0 {
		return nil, nil, catalog.ErrNotFound
	}
	return p, active, nil
}

// fill puts the product, its variants (chosen: the variant asked for)
// and its schema.org description into v.
func (s *Server) fill(v *pageView, r *http.Request, p *catalog.Product, variants []catalog.Product, chosen string) {
	base := s.baseURL(r)
	shop := Shop{Name: v.Shop, URL: base}
	v.Title, v.Brand, v.Category, v.Description = p.Title, p.Brand, categoryPath(p), p.Description
	v.Price, v.InStock = catalog.FormatPrice(p.Price, p.Currency), p.InStock()
	if p.CompareAt > p.Price {
		v.Was = catalog.FormatPrice(p.CompareAt, p.Currency)
	}
	if p.HasVariants() && p.PriceMax > p.Price {
		v.Price = catalog.FormatPrice(p.Price, p.Currency) + " – " + catalog.FormatPrice(p.PriceMax, p.Currency)
	}
	for _, src := range p.ImageURLs {
		if u := shop.ImageURL(src); u != "" {
			v.Images = append(v.Images, u)
		}
	}
	if p.RatingCount > 0 {
		v.Rating = strconv.FormatFloat(p.RatingAvg, 'f', 1, 64) + " ★ (" + strconv.Itoa(p.RatingCount) + ")"
	}
	offers := make([]map[string]any, 0, max(len(variants), 1))
	offer := func(sku string, price int64, currency string, inStock bool) map[string]any {
		avail := "https://schema.org/OutOfStock"
		if inStock {
			avail = "https://schema.org/InStock"
		}
		return map[string]any{"@type": "Offer", "sku": sku, "price": strings.TrimSuffix(catalog.FormatAmount(price, currency), " "+currency),
			"priceCurrency": currency, "availability": avail}
	}
	for _, vr := range variants {
		label := catalog.OptionLabel(vr.Options, p.OptionNames)
		cur := cmp(vr.Currency, p.Currency)
		vv := variantView{SKU: vr.SKU, Label: label, Price: catalog.FormatPrice(vr.Price, cur), InStock: vr.InStock(), Chosen: vr.SKU == chosen}
		if vr.CompareAt > vr.Price {
			vv.Was = catalog.FormatPrice(vr.CompareAt, cur)
		}
		v.Variants = append(v.Variants, vv)
		offers = append(offers, offer(vr.SKU, vr.Price, cmp(vr.Currency, p.Currency), vr.InStock()))
	}
	if len(variants) == 0 {
		offers = append(offers, offer(p.SKU, p.Price, p.Currency, p.InStock()))
	}
	v.LD = map[string]any{"@context": "https://schema.org", "@type": "Product", "name": p.Title, "sku": p.SKU,
		"description": clip(plain(p.Description), maxDescription), "image": v.Images, "offers": offers,
		"url": base + "/products/" + pathEscape(p.SKU)}
	if p.Brand != "" {
		v.LD["brand"] = map[string]any{"@type": "Brand", "name": p.Brand}
	}
	if p.RatingCount > 0 {
		v.LD["aggregateRating"] = map[string]any{"@type": "AggregateRating", "ratingValue": p.RatingAvg, "reviewCount": p.RatingCount}
	}
}

// lang is the page's language: the first of the browser's languages the
// text catalogue has.
func (s *Server) lang(r *http.Request) string {
	if s.o.Lang == nil {
		return "en"
	}
	first, _, _ := strings.Cut(r.Header.Get("Accept-Language"), ",")
	first, _, _ = strings.Cut(first, ";")
	return s.o.Lang(strings.TrimSpace(first))
}

func (s *Server) word(lang, key string) string {
	if s.o.Word == nil {
		return key
	}
	return s.o.Word(lang, key)
}

func categoryPath(p *catalog.Product) string {
	if p.Category == nil {
		return ""
	}
	return p.Category.Path
}
