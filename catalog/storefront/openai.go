package storefront

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// The OpenAI commerce product feed (developers.openai.com/commerce): one
// row per purchasable item with the OpenAI flags, the basic product data,
// media, price and availability, variant grouping, reviews, the seller
// and its markets. Instant checkout inside ChatGPT is a separate
// integration, so is_eligible_checkout is false: agents buy through the
// shop's own door (MCP, UCP), the links and the chat.

// Field limits of the specification.
const (
	maxTitle       = 150
	maxDescription = 5000
	maxImages      = 10
)

// openAIRow is one row; the field order is the CSV's column order.
type openAIRow struct {
	EligibleSearch      bool     `json:"is_eligible_search"`
	EligibleCheckout    bool     `json:"is_eligible_checkout"`
	ItemID              string   `json:"item_id"`
	GroupID             string   `json:"group_id"`
	HasVariations       bool     `json:"listing_has_variations"`
	Title               string   `json:"title"`
	Description         string   `json:"description"`
	URL                 string   `json:"url"`
	Brand               string   `json:"brand,omitempty"`
	ProductCategory     string   `json:"product_category,omitempty"`
	ImageURL            string   `json:"image_url,omitempty"`
	AdditionalImageURLs []string `json:"additional_image_urls,omitempty"`
	Price               string   `json:"price"`
	SalePrice           string   `json:"sale_price,omitempty"`
	Availability        string   `json:"availability"`
	InventoryQuantity   int      `json:"inventory_quantity"`
	Condition           string   `json:"condition"`
	Color               string   `json:"color,omitempty"`
	Size                string   `json:"size,omitempty"`
	ProductReviewCount  int      `json:"product_review_count,omitempty"`
	ProductReviewRating string   `json:"product_review_rating,omitempty"`
	SellerName          string   `json:"seller_name"`
	SellerURL           string   `json:"seller_url"`
	StoreCountry        string   `json:"store_country,omitempty"`
	TargetCountries     []string `json:"target_countries,omitempty"`
}

// openAIColumns are the CSV header, in openAIRow's order.
var openAIColumns = []string{
	"is_eligible_search", "is_eligible_checkout", "item_id", "group_id", "listing_has_variations",
	"title", "description", "url", "brand", "product_category", "image_url", "additional_image_urls",
	"price", "sale_price", "availability", "inventory_quantity", "condition", "color", "size",
	"product_review_count", "product_review_rating", "seller_name", "seller_url", "store_country", "target_countries",
}

// Colour and size option names a variant may use, in the languages the
// shop speaks.
var (
	colorNames = []string{"color", "colour", "цвет"}
	sizeNames  = []string{"size", "размер"}
)

// newOpenAIRow is the row of it; false for an item no feed can list
// (without a photo, which both feeds require).
func newOpenAIRow(s *Shop, it *Item) (openAIRow, bool) {
	r := openAIRow{
		EligibleSearch: true, ItemID: it.SKU, GroupID: it.GroupSKU, HasVariations: it.HasVariants,
		Title: clip(it.Title, maxTitle), Description: it.Description,
		URL: s.ProductURL(it), Brand: cmp(it.Brand, s.Name), ProductCategory: it.Category,
		Price: catalog.FormatAmount(it.Price, it.Currency), Availability: availability(it),
		InventoryQuantity: max(it.Stock, 0), Condition: "new",
		Color: it.Option(colorNames...), Size: it.Option(sizeNames...),
		SellerName: s.Name, SellerURL: s.URL, StoreCountry: s.Country, TargetCountries: s.Countries,
	}
	if it.OnSale() { // price is the regular price, sale_price what it sells for
		r.Price, r.SalePrice = catalog.FormatAmount(it.CompareAt, it.Currency), r.Price
	}
	images := s.images(it)
	if len(images) == 0 {
		return r, false
	}
	r.ImageURL, r.AdditionalImageURLs = images[0], images[1:]
	if it.RatingCount > 0 {
		r.ProductReviewCount = it.RatingCount
		r.ProductReviewRating = strconv.FormatFloat(it.RatingAvg, 'f', 1, 64)
	}
	return r, true
}

func availability(it *Item) string {
	if it.InStock() {
		return "in_stock"
	}
	return "out_of_stock"
}

// images are an item's absolute image URLs, at most maxImages.
func (s *Shop) images(it *Item) []string {
	var out []string
	for _, src := range it.Images {
		if u := s.ImageURL(src); u != "" && len(out) < maxImages {
			out = append(out, u)
		}
	}
	return out
}

// openAIJSON writes the feed as one JSON array, a row per line.
type openAIJSON struct {
	w     *bufio.Writer
	buf   bytes.Buffer
	enc   *json.Encoder
	shop  *Shop
	first bool
}

func newOpenAIJSON(w io.Writer, s *Shop) *openAIJSON {
	f := &openAIJSON{w: bufio.NewWriterSize(w, 64<<10), shop: s, first: true}
	f.enc = json.NewEncoder(&f.buf)
	f.enc.SetEscapeHTML(false)
	return f
}

func (f *openAIJSON) Items(items []Item) error {
	for i := range items {
		r, ok := newOpenAIRow(f.shop, &items[i])
		if !ok {
			continue
		}
		f.buf.Reset()
		if err := f.enc.Encode(r); err != nil {
			return err
		}
		sep := ",\n"
		if f.first {
			sep, f.first = "[\n", false
		}
		f.w.WriteString(sep)
		f.w.Write(bytes.TrimSuffix(f.buf.Bytes(), []byte("\n")))
	}
	return nil
}

func (f *openAIJSON) Close() error {
	if f.first {
		f.w.WriteString("[")
	}
	f.w.WriteString("\n]\n")
	return f.w.Flush()
}

// openAICSV writes the feed as CSV with a header row; lists are joined by
// commas inside their cell.
type openAICSV struct {
	w    *csv.Writer
	shop *Shop
	rec  []string
}

func newOpenAICSV(w io.Writer, s *Shop) (*openAICSV, error) {
	cw := csv.NewWriter(bufio.NewWriterSize(w, 64<<10))
	if err := cw.Write(openAIColumns); err != nil {
		return nil, err
	}
	return &openAICSV{w: cw, shop: s, rec: make([]string, len(openAIColumns))}, nil
}

func (f *openAICSV) Items(items []Item) error {
	for i := range items {
		r, ok := newOpenAIRow(f.shop, &items[i])
		if !ok {
			continue
		}
		rec := f.rec[:0]
		rec = append(rec, bool01(r.EligibleSearch), bool01(r.EligibleCheckout), r.ItemID, r.GroupID, bool01(r.HasVariations),
			r.Title, r.Description, r.URL, r.Brand, r.ProductCategory, r.ImageURL, strings.Join(r.AdditionalImageURLs, ","),
			r.Price, r.SalePrice, r.Availability, strconv.Itoa(r.InventoryQuantity), r.Condition, r.Color, r.Size,
			countCell(r.ProductReviewCount), r.ProductReviewRating, r.SellerName, r.SellerURL, r.StoreCountry,
			strings.Join(r.TargetCountries, ","))
		if err := f.w.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

func (f *openAICSV) Close() error {
	f.w.Flush()
	return f.w.Error()
}

// bool01 is a boolean as the specification writes it in delimited files.
func bool01(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func countCell(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
