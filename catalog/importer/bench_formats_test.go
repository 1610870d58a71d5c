package importer_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"runtime"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// shopifyExport writes a Shopify product export of n products × 4
// variants (Size S/M × Color Navy/Sand): the first row of each handle with
// the product's fields and an HTML body, each variant row with its SKU,
// price, stock and an image, and the columns of a real export besides.
func shopifyExport(b *testing.B, n int) []byte {
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	header := []string{"Handle", "Title", "Body (HTML)", "Vendor", "Product Category", "Type", "Tags", "Published",
		"Option1 Name", "Option1 Value", "Option2 Name", "Option2 Value", "Option3 Name", "Option3 Value",
		"Variant SKU", "Variant Grams", "Variant Inventory Tracker", "Variant Inventory Qty", "Variant Inventory Policy",
		"Variant Fulfillment Service", "Variant Price", "Variant Compare At Price", "Variant Requires Shipping",
		"Variant Taxable", "Variant Barcode", "Image Src", "Image Position", "Image Alt Text", "Gift Card",
		"SEO Title", "SEO Description", "Variant Image", "Variant Weight Unit", "Cost per item", "Status"}
	_ = w.Write(header)
	opts := [4][2]string{{"S", "Navy"}, {"S", "Sand"}, {"M", "Navy"}, {"M", "Sand"}}
	for i := range n {
		handle := fmt.Sprintf("product-%06d", i)
		for k, o := range opts {
			rec := make([]string, len(header))
			rec[0] = handle
			if k == 0 {
				rec[1] = fmt.Sprintf("Organic Cotton Tee %d", i)
				rec[2] = fmt.Sprintf("<p>Soft <strong>organic</strong> cotton tee number %d &amp; friends.</p><ul><li>Regular fit</li><li>Machine wash</li></ul>", i)
				rec[3], rec[4], rec[5], rec[6], rec[7] = "Northwind", fmt.Sprintf("Apparel > Clothing > Line %d", i%40), "T-Shirt", "cotton, summer", "TRUE"
				rec[8], rec[10], rec[28], rec[29], rec[34] = "Size", "Color", "FALSE", "Tee", "active"
			}
			rec[9], rec[11] = o[0], o[1]
			rec[14] = fmt.Sprintf("%s-%d", handle, k)
			rec[15], rec[16], rec[17], rec[18], rec[19] = "180", "shopify", fmt.Sprint((i+k)%9), "deny", "manual"
			rec[20], rec[21], rec[22], rec[23] = fmt.Sprintf("%d.%02d", 10+i%90+k, k*25), "", "TRUE", "TRUE"
			rec[25], rec[26] = fmt.Sprintf("https://cdn.shopify.com/s/files/1/%d-%d.jpg", i, k), fmt.Sprint(k+1)
			rec[31], rec[32], rec[33] = rec[25], "kg", "6.10"
			_ = w.Write(rec)
		}
	}
	w.Flush()
	return out.Bytes()
}

// BenchmarkImportShopify50k imports a 50,000-row Shopify export (12,500
// products × 4 variants) into an empty database. Target: ≤ 20 s and
// ≤ 200 MB peak RSS on SQLite, ≤ 30 s on Postgres.
func BenchmarkImportShopify50k(b *testing.B) {
	file := shopifyExport(b, 12_500)
	for _, kind := range []string{"sqlite", "postgres"} {
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				var db *bun.DB
				if kind == "sqlite" {
					db = catalogtest.SQLite(b)
				} else {
					db, _ = catalogtest.Postgres(b)
				}
				runtime.GC()
				b.StartTimer()
				sum, err := importer.Import(context.Background(), db, bytes.NewReader(file), "products_export.csv", importer.Options{})
				if err != nil || sum.Imported != 62_500 || sum.Failed != 0 || sum.Format != importer.Shopify {
					b.Fatalf("%v %+v: %v", sum, sum.Errors, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/import")
		})
	}
}
