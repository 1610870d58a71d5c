package importer_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// importWith imports a file with opts (BatchSize 3 unless set, so parents
// and their variants fall into different batches).
func importWith(t *testing.T, db *bun.DB, path string, opts importer.Options) importer.Summary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if opts.BatchSize == 0 {
		opts.BatchSize = 3
	}
	sum, err := importer.Import(context.Background(), db, f, path, opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return sum
}

func product(t *testing.T, db *bun.DB, sku string) *catalog.Product {
	t.Helper()
	p, err := catalog.GetProduct(context.Background(), db, sku)
	if err != nil {
		t.Fatalf("%s: %v", sku, err)
	}
	return p
}

func mapped(sum importer.Summary, column string) string {
	for _, c := range sum.Mapping.Columns {
		if c.Column == column {
			return c.Field
		}
	}
	return ""
}

func TestImportShopifyExport(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		var skus []string
		sum := importWith(t, db, "testdata/shopify.csv", importer.Options{DefaultCurrency: "USD", Seen: func(sku string) { skus = append(skus, sku) }})
		slices.Sort(skus)
		skus = slices.Compact(skus)
		if sum.Format != importer.Shopify || sum.Failed != 0 {
			t.Fatalf("summary = %v %s %+v", sum, sum.Format, sum.Errors)
		}
		// 5 handles: tee (parent + 4), mug, beanie, wallet (parent + 2), gift card (parent + 2).
		if sum.Imported != 13 {
			t.Errorf("imported %d, want 13", sum.Imported)
		}
		tee := product(t, db, "classic-cotton-tee")
		if tee.Title != "Classic Cotton Tee" || tee.Brand != "Northwind Apparel" || tee.VariantCount != 4 ||
			!slices.Equal(tee.OptionNames, []string{"Size", "Color"}) || len(tee.ImageURLs) != 4 || tee.Price != 1999 || tee.PriceMax != 2199 {
			t.Errorf("tee = %+v", tee)
		}
		if tee.Category == nil || tee.Category.Name != "Shirts & Tops" || tee.Attributes["tags"] != "cotton, organic, summer" {
			t.Errorf("tee category %+v attributes %v", tee.Category, tee.Attributes)
		}
		wantBody := "Our Classic Cotton Tee is cut from 100% organic cotton & pre-shrunk.\n\n- Regular fit\n- Machine wash at 30°C\n\nMade in Portugal — sizes run true."
		if tee.Description != wantBody {
			t.Errorf("tee description = %q, want %q", tee.Description, wantBody)
		}
		// On sale: Variant Compare At Price is the regular price.
		if navy := product(t, db, "TEE-S-NAVY"); navy.Price != 1999 || navy.CompareAt != 2499 {
			t.Errorf("TEE-S-NAVY price %d compare-at %d, want 1999 and 2499", navy.Price, navy.CompareAt)
		}
		v := product(t, db, "TEE-S-SAND")
		if v.Stock != 0 || v.Options["Color"] != "Sand" || v.Price != 1999 || v.Title != "Classic Cotton Tee" {
			t.Errorf("oversold variant = %+v (a negative quantity is 0)", v)
		}
		if mug := product(t, db, "MUG-11"); mug.VariantCount != 0 || mug.Price != 1250 || mug.Stock != 40 || len(mug.ImageURLs) != 2 ||
			mug.Description != "Holds 11 oz.\nDishwasher & microwave safe.\n\nGlazed by hand in small batches." {
			t.Errorf("mug = %+v %q", mug, mug.Description)
		}
		if beanie := product(t, db, "merino-beanie"); beanie.Active || beanie.Stock != 100 || beanie.Category.Name != "Hats" {
			t.Errorf("draft beanie = %+v (inactive, untracked = in stock, Type as category)", beanie)
		}
		for _, sku := range []string{"leather-card-wallet", "leather-card-wallet-1", "leather-card-wallet-2"} {
			if p := product(t, db, sku); p.Active {
				t.Errorf("archived %s is active", sku)
			}
		}
		if g := product(t, db, "GIFT-50"); g.Options["Denominations"] != "$50" {
			t.Errorf("gift card variant = %+v", g)
		}
		if mapped(sum, "Variant Price") != "price" || !slices.Contains(sum.Mapping.Ignored, "Google Shopping / Gender") ||
			!slices.Contains(sum.Mapping.Ignored, "Product rating count (product.metafields.reviews.rating_count)") {
			t.Errorf("mapping = %+v", sum.Mapping)
		}
		if !slices.Contains(skus, "classic-cotton-tee") || !slices.Contains(skus, "TEE-M-SAND") || len(skus) != 13 {
			t.Errorf("skus = %v", skus)
		}
		if len(sum.Sample) == 0 || sum.Sample[0].SKU != "classic-cotton-tee" || sum.Sample[1].Options != "Size: S, Color: Navy" {
			t.Errorf("sample = %+v", sum.Sample)
		}
	})
}

func TestImportWooCommerceExport(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		sum := importWith(t, db, "testdata/woocommerce.csv", importer.Options{DefaultCurrency: "EUR"})
		if sum.Format != importer.WooCommerce || sum.Failed != 0 || sum.Imported != 10 {
			t.Fatalf("summary = %v %s %+v", sum, sum.Format, sum.Errors)
		}
		beanie := product(t, db, "woo-beanie")
		if beanie.Price != 1800 || beanie.CompareAt != 2000 || beanie.Currency != "EUR" || beanie.Stock != 100 || len(beanie.ImageURLs) != 2 ||
			beanie.Category.Name != "Accessories" || beanie.Attributes["Color"] != "Red" {
			t.Errorf("beanie = %+v (sale price is the price, in stock without a quantity)", beanie)
		}
		if beanie.Description != "Pellentesque habitant morbi tristique senectus et netus.\n\nVestibulum tortor quam, feugiat vitae." {
			t.Errorf("beanie description = %q", beanie.Description)
		}
		hoodie := product(t, db, "woo-hoodie")
		if hoodie.VariantCount != 3 || hoodie.Price != 4200 || hoodie.Category.Name != "Hoodies" ||
			!slices.Equal(hoodie.OptionNames, []string{"Color", "Logo"}) {
			t.Errorf("hoodie = %+v", hoodie)
		}
		if red := product(t, db, "wc-48"); red.Options["Color"] != "Red" || red.Stock != 3 || red.Title != "Hoodie" {
			t.Errorf("variation without a SKU = %+v", red)
		}
		if vneck := product(t, db, "woo-vneck-tee"); vneck.VariantCount != 2 || vneck.Price != 1650 {
			t.Errorf("vneck = %+v", vneck)
		}
		if album := product(t, db, "woo-album"); album.Active {
			t.Errorf("private album is active")
		}
		if !slices.Contains(sum.Mapping.Ignored, "Meta: _wpcom_is_markdown") || mapped(sum, "Sale price") != "price" {
			t.Errorf("mapping = %+v", sum.Mapping)
		}
	})
}

func TestImportMerchantFeeds(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		sum := importWith(t, db, "testdata/merchant.xml", importer.Options{})
		if sum.Format != importer.MerchantFeed || sum.Failed != 0 || sum.Imported != 6 {
			t.Fatalf("xml summary = %v %s %+v", sum, sum.Format, sum.Errors)
		}
		lamp := product(t, db, "LAMP-ARC")
		if lamp.Title != "Arc Floor Lamp, Brushed Brass" || lamp.Price != 27900 || lamp.CompareAt != 32900 || lamp.Currency != "USD" || lamp.Stock != 100 ||
			len(lamp.ImageURLs) != 3 || lamp.Category.Name != "Floor Lamps" || lamp.Attributes["gtin"] != "00812345000019" {
			t.Errorf("lamp = %+v", lamp)
		}
		if lamp.Description != "A sweeping arc of brushed brass with a marble base.\n\n- Height 190 cm\n- E27 bulb, not included" {
			t.Errorf("lamp description = %q", lamp.Description)
		}
		throw := product(t, db, "THROW-1")
		if throw.VariantCount != 3 || throw.Price != 5900 || !slices.Equal(throw.OptionNames, []string{"size", "color"}) {
			t.Errorf("throw = %+v", throw)
		}
		if candle := product(t, db, "CANDLE-FIG"); candle.Stock != 0 {
			t.Errorf("out of stock candle = %+v", candle)
		}
		if !slices.Contains(sum.Mapping.Ignored, "g:condition") || mapped(sum, "g:price") == "" {
			t.Errorf("mapping = %+v", sum.Mapping)
		}

		sum = importWith(t, db, "testdata/merchant.tsv", importer.Options{})
		if sum.Format != importer.MerchantTSV || sum.Failed != 0 || sum.Imported != 6 {
			t.Fatalf("tsv summary = %v %s %+v", sum, sum.Format, sum.Errors)
		}
		tent := product(t, db, "TENT-2P")
		if tent.Price != 19900 || tent.Currency != "EUR" || len(tent.ImageURLs) != 3 || tent.Description != "Freestanding, 2.1 kg.\n\nTwo doors & vestibules." {
			t.Errorf("tent = %+v", tent)
		}
		if jacket := product(t, db, "JKT-1"); jacket.VariantCount != 3 || jacket.Price != 8900 || jacket.Stock != 200 {
			t.Errorf("jacket = %+v (two in stock at 100, one out)", jacket)
		}
		if !slices.Contains(sum.Mapping.Ignored, "shipping") {
			t.Errorf("tsv mapping = %+v", sum.Mapping)
		}
	})
}

// TestImportBadRowsOfShopExports: a bad row is refused with its line and
// a sentence; the rest of the file imports.
func TestImportBadRowsOfShopExports(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		shopify := "Handle,Title,Variant SKU,Variant Price,Option1 Name,Option1 Value,Variant Inventory Qty,Mystery Column\n" +
			"a,Apple,A-1,1.00,Title,Default Title,3,x\n" +
			"b,Banana,B-1,one dollar,Title,Default Title,3,x\n" +
			",,C-1,1.00,,,,x\n" +
			"d,Date,D-1,2.00,Size,S,lots,x\n" +
			"d,,D-2,2.00,,M,4,x\n"
		woo := "ID,Type,SKU,Name,Regular price,Sale price,Stock,Parent,Attribute 1 name,Attribute 1 value(s)\n" +
			"1,simple,W-1,Widget,5,,2,,,\n" +
			"2,grouped,W-G,Widget set,,,,,,\n" +
			"3,variation,W-V,,5,,1,id:99,Size,S\n" +
			"4,simple,W-4,Gadget,five,,1,,,\n"
		for _, c := range []struct {
			name, body string
			ok         int
			want       map[int]string
		}{
			{"bad.csv", shopify, 3, map[int]string{3: "not a decimal amount", 4: "Handle is empty", 5: "whole number"}},
			{"bad-woo.csv", woo, 1, map[int]string{3: "grouped product", 4: "id:99 is not a variable product", 5: "not a decimal amount"}},
		} {
			sum, err := importer.Import(context.Background(), db, strings.NewReader(c.body), c.name, importer.Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if sum.Imported != c.ok || sum.Failed != len(c.want) {
				t.Errorf("%s: %v %+v", c.name, sum, sum.Errors)
			}
			got := reasons(sum)
			for line, frag := range c.want {
				if !strings.Contains(got[line], frag) {
					t.Errorf("%s line %d: reason %q, want %q", c.name, line, got[line], frag)
				}
			}
			if c.name == "bad.csv" && !slices.Contains(sum.Mapping.Ignored, "Mystery Column") {
				t.Errorf("unknown column not reported: %+v", sum.Mapping)
			}
		}
	})
}

// TestImportOwnFormatIgnoresUnknownColumns: an extra column is a note,
// not a refusal.
func TestImportOwnFormatIgnoresUnknownColumns(t *testing.T) {
	db := catalogtest.SQLite(t)
	sum, err := importer.Import(context.Background(), db, strings.NewReader("sku,title,price,colour_note\nA,Apple,1.00,red\n"), "a.csv", importer.Options{})
	if err != nil || sum.Imported != 1 || !slices.Equal(sum.Mapping.Ignored, []string{"colour_note"}) {
		t.Fatalf("%v %+v: %v", sum, sum.Mapping, err)
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		header string
		want   importer.Format
	}{
		{"Handle,Title,Variant SKU,Variant Price", importer.Shopify},
		{"ID,Type,SKU,Name,Regular price", importer.WooCommerce},
		{"id,title,price,availability", importer.MerchantTSV},
		{"g:id,g:title,g:price", importer.MerchantTSV},
		{"sku,title,price", importer.CSV},
		{"name,email", ""},
	} {
		if got := importer.Detect(strings.Split(c.header, ",")); got != c.want {
			t.Errorf("Detect(%s) = %q, want %q", c.header, got, c.want)
		}
	}
}

// TestPreviewStopsAtMaxRows: a preview cut in the middle of a product's
// rows refuses nothing for the cut.
func TestPreviewStopsAtMaxRows(t *testing.T) {
	db := catalogtest.SQLite(t)
	sum := importWith(t, db, "testdata/shopify.csv", importer.Options{DryRun: true, MaxRows: 3})
	if !sum.Truncated || sum.Rows != 3 || sum.Failed != 0 {
		t.Errorf("preview = %v rows %d truncated %t %+v", sum, sum.Rows, sum.Truncated, sum.Errors)
	}
}

// TestMalformedFeedStops: XML that breaks off is an error that names the
// problem, not a silent partial import.
func TestMalformedFeedStops(t *testing.T) {
	db := catalogtest.SQLite(t)
	feed := `<?xml version="1.0"?><rss xmlns:g="http://base.google.com/ns/1.0"><channel>` +
		`<item><g:id>A</g:id><title>A</title><g:price>1.00 USD</g:price><g:availability>in_stock</g:availability></item>` +
		`<item><g:id>B</g:id><title>B</titl></item></channel></rss>`
	_, err := importer.Import(context.Background(), db, strings.NewReader(feed), "feed.xml", importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "XML feed is malformed") {
		t.Errorf("err = %v", err)
	}
}
