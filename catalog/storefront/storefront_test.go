package storefront_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/storefront"
	"shopbot/engine/locale"
)

// seed is the test shop: SeedVariants' tee (a variant out of stock, one
// no longer sold), trail shoe and sold-out cap, plus a mug without
// variants whose photo is an upload on this server, a product without a
// brand, and an archived lamp.
func seed(t *testing.T, db bun.IDB) {
	t.Helper()
	ctx := context.Background()
	catalogtest.SeedVariants(t, db)
	_, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{
		{SKU: "MUG", Title: "Enamel Mug", Description: "Camp mug.\n\nHolds 350 ml.", Brand: "Acme", CategoryPath: []string{"Kitchen"},
			Price: 1299, CompareAt: 1599, Currency: "USD", Stock: 7, ImageURLs: []string{"/media/mug.jpg", "https://img.test/mug-2.jpg", "javascript:alert(1)"}},
		{SKU: "SOAP", Title: "Olive Soap", Description: "Handmade.", Price: 450, Currency: "USD", Stock: 0},
		{SKU: "BAG", Title: "Tote Bag", Description: "Canvas.", Price: 900, Currency: "USD", Stock: 2,
			ImageURLs: []string{"https://img.test/bag.jpg"}},
		{SKU: "LAMP", Title: "Old Lamp", Description: "Gone.", Brand: "Acme", Price: 5000, Currency: "USD", Stock: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := catalog.SetProductActive(ctx, db, "LAMP", false); err != nil {
		t.Fatal(err)
	}
	if err := catalog.SetDefaultCountry(ctx, db, "US", time.Now()); err != nil {
		t.Fatal(err)
	}
}

func server(db bun.IDB) *httptest.Server {
	s := storefront.New(storefront.Options{DB: db, ShopName: func(context.Context) string { return "Quokka Outfitters" },
		PublicURL: "https://shop.example.com", Widget: true, Lang: locale.Lang, Word: locale.Word})
	mux := http.NewServeMux()
	mux.Handle("GET /feeds/products.json", s.OpenAIJSON())
	mux.Handle("GET /feeds/products.csv", s.OpenAICSV())
	mux.Handle("GET /feeds/google.xml", s.GoogleXML())
	mux.Handle("GET /products/{sku}", s.Page())
	return httptest.NewServer(mux)
}

func get(t *testing.T, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	// A transport that leaves Accept-Encoding alone, so the test sees
	// exactly what a crawler asking for it gets.
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// The published field lists: the OpenAI flags and required product
// fields (developers.openai.com/commerce, product feed specification),
// with their value rules.
var (
	openAIRequired = []string{"is_eligible_search", "is_eligible_checkout", "item_id", "group_id", "listing_has_variations",
		"title", "description", "url", "brand", "price", "availability", "image_url", "seller_name", "seller_url",
		"store_country", "target_countries"}
	openAIAvailability = []string{"in_stock", "out_of_stock", "pre_order", "backorder", "unknown"}
	priceRule          = regexp.MustCompile(`^\d+(\.\d{1,3})? [A-Z]{3}$`)
)

func TestOpenAIFeed(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		seed(t, db)
		srv := server(db)
		defer srv.Close()

		res, body := get(t, srv.URL+"/feeds/products.json")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("GET products.json: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		var rows []map[string]any
		if err := json.Unmarshal(body, &rows); err != nil {
			t.Fatalf("feed is not a JSON array: %v\n%s", err, body)
		}
		bySKU := map[string]map[string]any{}
		for _, r := range rows {
			for _, f := range openAIRequired {
				if v, ok := r[f]; !ok || v == "" {
					t.Errorf("%v: required field %s missing", r["item_id"], f)
				}
			}
			if !slices.Contains(openAIAvailability, r["availability"].(string)) {
				t.Errorf("%v: availability %v", r["item_id"], r["availability"])
			}
			if !priceRule.MatchString(r["price"].(string)) {
				t.Errorf("%v: price %q does not read as amount and currency", r["item_id"], r["price"])
			}
			if !strings.HasPrefix(r["url"].(string), "https://shop.example.com/products/") {
				t.Errorf("%v: url %v", r["item_id"], r["url"])
			}
			if r["is_eligible_checkout"] == true && r["is_eligible_search"] != true {
				t.Errorf("%v: checkout eligibility needs search eligibility", r["item_id"])
			}
			bySKU[r["item_id"].(string)] = r
		}
		// One row per purchasable item: variants (not their products),
		// products without variants; nothing archived or no longer sold.
		var skus []string
		for s := range bySKU {
			skus = append(skus, s)
		}
		slices.Sort(skus)
		// SOAP has no photo, which both formats require.
		want := []string{"BAG", "CAP-M", "CAP-S", "MUG", "TEE-NAVY-L", "TEE-NAVY-M", "TEE-RED-M", "TRAIL-41", "TRAIL-42", "TRAIL-43"}
		if !slices.Equal(skus, want) {
			t.Fatalf("rows %v, want %v", skus, want)
		}
		navyL := bySKU["TEE-NAVY-L"]
		if _, onSale := navyL["sale_price"]; onSale {
			t.Errorf("a product not on sale has no sale_price: %v", navyL)
		}
		if navyL["group_id"] != "TEE" || navyL["listing_has_variations"] != true || navyL["title"] != "Quokka Tee (Navy, L)" ||
			navyL["price"] != "27.00 USD" || navyL["availability"] != "out_of_stock" || navyL["color"] != "Navy" || navyL["size"] != "L" ||
			navyL["url"] != "https://shop.example.com/products/TEE?variant=TEE-NAVY-L" || navyL["image_url"] != "https://img.test/TEE.jpg" {
			t.Errorf("variant row: %v", navyL)
		}
		if bySKU["BAG"]["brand"] != "Quokka Outfitters" {
			t.Errorf("a product without a brand is the shop's own: %v", bySKU["BAG"]["brand"])
		}
		mug := bySKU["MUG"]
		if mug["group_id"] != "MUG" || mug["listing_has_variations"] != false || mug["availability"] != "in_stock" ||
			mug["image_url"] != "https://shop.example.com/media/mug.jpg" || mug["description"] != "Camp mug. Holds 350 ml." ||
			mug["price"] != "15.99 USD" || mug["sale_price"] != "12.99 USD" ||
			mug["product_category"] != "Kitchen" || mug["store_country"] != "US" || mug["inventory_quantity"] != float64(7) {
			t.Errorf("product row: %v", mug)
		}
		if imgs, _ := mug["additional_image_urls"].([]any); len(imgs) != 1 || imgs[0] != "https://img.test/mug-2.jpg" {
			t.Errorf("additional images %v: an unsafe address must be dropped", mug["additional_image_urls"])
		}

		// The CSV carries the same rows under the same field names.
		_, csvBody := get(t, srv.URL+"/feeds/products.csv")
		recs, err := csv.NewReader(bytes.NewReader(csvBody)).ReadAll()
		if err != nil {
			t.Fatalf("CSV: %v", err)
		}
		if len(recs) != len(rows)+1 {
			t.Fatalf("CSV has %d rows, JSON %d", len(recs)-1, len(rows))
		}
		head := recs[0]
		for _, f := range openAIRequired {
			if !slices.Contains(head, f) {
				t.Errorf("CSV header lacks %s", f)
			}
		}
		col := func(rec []string, name string) string { return rec[slices.Index(head, name)] }
		for _, rec := range recs[1:] {
			r := bySKU[col(rec, "item_id")]
			if col(rec, "price") != r["price"] || col(rec, "availability") != r["availability"] || col(rec, "is_eligible_search") != "true" {
				t.Errorf("CSV row %v differs from JSON %v", rec, r)
			}
		}
	})
}

// gItem is an <item> of the Google feed, read with its namespace.
type gItem struct {
	ID           string   `xml:"http://base.google.com/ns/1.0 id"`
	Title        string   `xml:"http://base.google.com/ns/1.0 title"`
	Description  string   `xml:"http://base.google.com/ns/1.0 description"`
	Link         string   `xml:"http://base.google.com/ns/1.0 link"`
	ImageLink    string   `xml:"http://base.google.com/ns/1.0 image_link"`
	Additional   []string `xml:"http://base.google.com/ns/1.0 additional_image_link"`
	Availability string   `xml:"http://base.google.com/ns/1.0 availability"`
	Price        string   `xml:"http://base.google.com/ns/1.0 price"`
	SalePrice    string   `xml:"http://base.google.com/ns/1.0 sale_price"`
	Brand        string   `xml:"http://base.google.com/ns/1.0 brand"`
	Condition    string   `xml:"http://base.google.com/ns/1.0 condition"`
	GroupID      string   `xml:"http://base.google.com/ns/1.0 item_group_id"`
	Color        string   `xml:"http://base.google.com/ns/1.0 color"`
	Size         string   `xml:"http://base.google.com/ns/1.0 size"`
}

func TestGoogleFeed(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		seed(t, db)
		srv := server(db)
		defer srv.Close()
		res, body := get(t, srv.URL+"/feeds/google.xml")
		if res.StatusCode != 200 {
			t.Fatalf("GET google.xml: %d", res.StatusCode)
		}
		var feed struct {
			XMLName xml.Name `xml:"rss"`
			Version string   `xml:"version,attr"`
			Channel struct {
				Title string  `xml:"title"`
				Link  string  `xml:"link"`
				Items []gItem `xml:"item"`
			} `xml:"channel"`
		}
		if err := xml.Unmarshal(body, &feed); err != nil {
			t.Fatalf("feed is not XML: %v\n%s", err, body)
		}
		if feed.Version != "2.0" || feed.Channel.Title != "Quokka Outfitters" || feed.Channel.Link != "https://shop.example.com" {
			t.Errorf("channel: %+v", feed.Channel)
		}
		if len(feed.Channel.Items) != 10 {
			t.Fatalf("%d items, want 10", len(feed.Channel.Items))
		}
		for _, it := range feed.Channel.Items {
			// Google's required attributes for every item.
			if it.ID == "" || it.Title == "" || it.Description == "" || it.Link == "" || it.Price == "" || it.Condition != "new" || it.Brand == "" {
				t.Errorf("item lacks a required attribute: %+v", it)
			}
			if it.Availability != "in_stock" && it.Availability != "out_of_stock" {
				t.Errorf("%s: availability %q", it.ID, it.Availability)
			}
			if !priceRule.MatchString(it.Price) {
				t.Errorf("%s: price %q", it.ID, it.Price)
			}
			if strings.HasPrefix(it.ID, "TRAIL-") && (it.GroupID != "TRAIL" || it.Size == "") {
				t.Errorf("%s: a variant names its group and size: %+v", it.ID, it)
			}
			if it.ID == "MUG" && (it.GroupID != "" || it.ImageLink != "https://shop.example.com/media/mug.jpg" || it.Price != "15.99 USD" || it.SalePrice != "12.99 USD") {
				t.Errorf("MUG: %+v", it)
			}
		}
	})
}

// A crawler that revalidates gets 304 until the catalog changes, and the
// gzipped body is the same feed.
func TestFeedRevalidationAndGzip(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		seed(t, db)
		srv := server(db)
		defer srv.Close()
		url := srv.URL + "/feeds/products.json"
		res, plainBody := get(t, url)
		etag := res.Header.Get("ETag")
		if etag == "" || res.Header.Get("Cache-Control") == "" {
			t.Fatalf("no validator: %v", res.Header)
		}
		if res, _ := get(t, url, "If-None-Match", etag); res.StatusCode != http.StatusNotModified {
			t.Fatalf("revalidation: %d, want 304", res.StatusCode)
		}
		zres, zbody := get(t, url, "Accept-Encoding", "gzip")
		if zres.Header.Get("Content-Encoding") != "gzip" || zres.Header.Get("ETag") == etag {
			t.Fatalf("gzip: encoding %q, etag %q (must differ from %q)", zres.Header.Get("Content-Encoding"), zres.Header.Get("ETag"), etag)
		}
		zr, err := gzip.NewReader(bytes.NewReader(zbody))
		if err != nil {
			t.Fatal(err)
		}
		unzipped, _ := io.ReadAll(zr)
		if !bytes.Equal(unzipped, plainBody) {
			t.Fatal("the gzipped feed differs from the plain one")
		}
		// A sale takes the mug's last units: the feed must change.
		if err := catalog.SetStock(context.Background(), db, "MUG", 0); err != nil {
			t.Fatal(err)
		}
		res, body := get(t, url, "If-None-Match", etag)
		if res.StatusCode != 200 || res.Header.Get("ETag") == etag {
			t.Fatalf("after a stock change: %d, etag %q", res.StatusCode, res.Header.Get("ETag"))
		}
		var rows []map[string]any
		if err := json.Unmarshal(body, &rows); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r["item_id"] == "MUG" && r["availability"] != "out_of_stock" {
				t.Errorf("the new feed does not show the mug sold out: %v", r)
			}
		}
	})
}

func TestProductPage(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		seed(t, db)
		srv := server(db)
		defer srv.Close()

		res, body := get(t, srv.URL+"/products/TEE?variant=TEE-NAVY-L")
		page := string(body)
		if res.StatusCode != 200 || !strings.Contains(page, "<h1>Quokka Tee</h1>") || !strings.Contains(page, `<script src="/widget.js" async>`) {
			t.Fatalf("product page: %d\n%s", res.StatusCode, page)
		}
		if !strings.Contains(page, `class="chosen" aria-current="true"><td>Navy / L</td>`) || strings.Contains(page, "Green") {
			t.Errorf("the chosen variant is marked and the one no longer sold is absent:\n%s", page)
		}
		// The schema.org description search engines read.
		ld := regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`).FindStringSubmatch(page)
		var product map[string]any
		if ld == nil || json.Unmarshal([]byte(ld[1]), &product) != nil || product["@type"] != "Product" || len(product["offers"].([]any)) != 3 {
			t.Errorf("JSON-LD: %v", ld)
		}

		// A variant's own SKU opens its product's page.
		if res, body := get(t, srv.URL+"/products/TRAIL-42"); res.StatusCode != 200 || !strings.Contains(string(body), "Trail Runner") {
			t.Errorf("variant SKU: %d", res.StatusCode)
		}
		// A product on sale shows its regular price struck through.
		if _, body := get(t, srv.URL+"/products/MUG"); !strings.Contains(string(body), `<s class="was">$15.99</s> $12.99`) {
			t.Errorf("sale price on the page: %s", body)
		}
		// Russian for a Russian browser.
		if _, body := get(t, srv.URL+"/products/MUG", "Accept-Language", "ru-RU,ru;q=0.9"); !strings.Contains(string(body), `<html lang="ru">`) {
			t.Errorf("Accept-Language ru: %s", body[:200])
		}
		// Archived, unknown and hostile SKUs are a page that says so, not
		// an error.
		for _, sku := range []string{"LAMP", "NOPE", "%3Cscript%3E", "..%2F..%2Fetc%2Fpasswd", strings.Repeat("x", 5000)} {
			res, body := get(t, srv.URL+"/products/"+sku)
			if res.StatusCode != http.StatusNotFound || strings.Contains(string(body), "<script>") {
				t.Errorf("%.40s: %d", sku, res.StatusCode)
			}
		}
	})
}
