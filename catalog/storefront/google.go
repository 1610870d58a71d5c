package storefront

import (
	"bufio"
	"encoding/xml"
	"io"

	"shopbot/catalog"
)

// The Google Merchant Center feed: RSS 2.0 with the g: namespace, an
// <item> per purchasable item, variants tied by item_group_id. The shop
// has no GTINs or MPNs, so identifier_exists is "no".

const googleNamespace = "http://base.google.com/ns/1.0"

// googleItem is one <item>.
type googleItem struct {
	XMLName          xml.Name `xml:"item"`
	ID               string   `xml:"g:id"`
	Title            string   `xml:"g:title"`
	Description      string   `xml:"g:description"`
	Link             string   `xml:"g:link"`
	ImageLink        string   `xml:"g:image_link,omitempty"`
	AdditionalImages []string `xml:"g:additional_image_link,omitempty"`
	Availability     string   `xml:"g:availability"`
	Price            string   `xml:"g:price"`
	SalePrice        string   `xml:"g:sale_price,omitempty"`
	Brand            string   `xml:"g:brand,omitempty"`
	Condition        string   `xml:"g:condition"`
	IdentifierExists string   `xml:"g:identifier_exists"`
	ItemGroupID      string   `xml:"g:item_group_id,omitempty"`
	ProductType      string   `xml:"g:product_type,omitempty"`
	Color            string   `xml:"g:color,omitempty"`
	Size             string   `xml:"g:size,omitempty"`
}

// googleXML writes the feed.
type googleXML struct {
	w    *bufio.Writer
	enc  *xml.Encoder
	shop *Shop
}

func newGoogleXML(w io.Writer, s *Shop) (*googleXML, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(xml.Header)
	bw.WriteString(`<rss version="2.0" xmlns:g="` + googleNamespace + `">` + "\n<channel>\n")
	enc := xml.NewEncoder(bw)
	for _, el := range [][2]string{{"title", s.Name}, {"link", s.URL}, {"description", s.Name}} {
		if err := enc.EncodeElement(el[1], xml.StartElement{Name: xml.Name{Local: el[0]}}); err != nil {
			return nil, err
		}
	}
	return &googleXML{w: bw, enc: enc, shop: s}, nil
}

func (f *googleXML) Items(items []Item) error {
	for i := range items {
		it := &items[i]
		g := googleItem{
			ID: it.SKU, Title: clip(it.Title, maxTitle), Description: it.Description,
			Link: f.shop.ProductURL(it), Availability: availability(it),
			Price: catalog.FormatAmount(it.Price, it.Currency), Brand: cmp(it.Brand, f.shop.Name), Condition: "new",
			IdentifierExists: "no", ProductType: it.Category,
			Color: it.Option(colorNames...), Size: it.Option(sizeNames...),
		}
		if it.OnSale() {
			g.Price, g.SalePrice = catalog.FormatAmount(it.CompareAt, it.Currency), g.Price
		}
		if it.HasVariants {
			g.ItemGroupID = it.GroupSKU
		}
		images := f.shop.images(it)
		if len(images) == 0 {
			continue // image_link is required
		}
		g.ImageLink, g.AdditionalImages = images[0], images[1:]
		if err := f.enc.Encode(g); err != nil {
			return err
		}
	}
	return nil
}

func (f *googleXML) Close() error {
	if err := f.enc.Flush(); err != nil {
		return err
	}
	f.w.WriteString("\n</channel>\n</rss>\n")
	return f.w.Flush()
}
