package admin_test

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// previewUpload posts a file to the preview form and returns the status
// and the page.
func (p *panel) previewUpload(name, body string) (int, string) {
	p.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("csrf", p.csrf)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(body))
	mw.Close()
	req, _ := http.NewRequest("POST", p.srv.URL+"/admin/import/preview", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var tokenRE = regexp.MustCompile(`name="token" value="([0-9a-f]+)"`)

const previewExport = "Handle,Title,Body (HTML),Vendor,Option1 Name,Option1 Value,Variant SKU,Variant Price,Variant Inventory Qty,Image Src,SEO Title\n" +
	"mug,Blue Mug,<p>Big &amp; blue</p>,Clayworks,Title,Default Title,SEED-1,14.00,3,https://cdn.example.com/mug.jpg,Mug!\n" +
	"tee,Tee,<p>Soft</p>,Northwind,Size,S,TEE-S,20.00,4,,Tee!\n" +
	"tee,,,,,M,TEE-M,22.00,5,,\n" +
	"cup,Cup,,Clayworks,Title,Default Title,CUP-1,free,1,,\n"

// TestImportPreviewThenConfirm: an upload shows the detected format, the
// mapping with the ignored columns, the first rows, the counts and what
// it would overwrite, writing nothing; confirming runs the import as the
// usual job. A token is good once, and only for who made the preview.
func TestImportPreviewThenConfirm(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		p := newPanel(t, db)
		p.signIn()
		seed := catalog.ProductInput{SKU: "SEED-1", Title: "Mug", Price: 1200, Currency: "USD", Stock: 3}
		if err := seed.Validate(); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{seed}); err != nil {
			t.Fatal(err)
		}
		before, _ := catalog.CountProducts(ctx, db)

		code, page := p.previewUpload("products_export.csv", previewExport)
		if code != http.StatusOK {
			t.Fatalf("preview = %d:\n%s", code, page)
		}
		for _, want := range []string{
			`data-format="shopify"`, "Shopify product export",
			"add <strong>3</strong> new products, change <strong>1</strong>", "refuse <strong>1</strong> rows",
			"<td>Variant Price</td><td>price</td>", "Ignored (no catalog field): SEO Title",
			"<td>SEED-1</td><td>title</td><td>Mug</td><td>Blue Mug</td>", "<td>SEED-1</td><td>price</td><td>12.00 USD</td><td>14.00 USD</td>",
			"<td>TEE-M</td><td></td><td>tee</td><td>Size: M</td>", "not a decimal amount",
		} {
			if !strings.Contains(page, want) {
				t.Errorf("preview lacks %q", want)
			}
		}
		if n, _ := catalog.CountProducts(ctx, db); n != before {
			t.Fatalf("the preview wrote products: %d, want %d", n, before)
		}
		m := tokenRE.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no token in the preview:\n%s", page)
		}

		other := newPanel(t, db)
		other.signIn()
		if code, _, _ := other.post("/admin/import/confirm", url.Values{"token": {"0123"}}); code != http.StatusBadRequest {
			t.Errorf("unknown token = %d, want 400", code)
		}
		code, loc, _ := p.post("/admin/import/confirm", url.Values{"token": {m[1]}})
		if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/admin/import/") {
			t.Fatalf("confirm = %d → %q", code, loc)
		}
		p.admin.WaitImports()
		if _, job := p.get(loc); !strings.Contains(job, "imported 3, updated 1, failed 1") {
			t.Errorf("job page:\n%s", job)
		}
		if mug, err := catalog.GetProduct(ctx, db, "SEED-1"); err != nil || mug.Title != "Blue Mug" || mug.Description != "Big & blue" {
			t.Errorf("mug = %+v, %v", mug, err)
		}
		if code, _, _ := p.post("/admin/import/confirm", url.Values{"token": {m[1]}}); code != http.StatusBadRequest {
			t.Errorf("a used token = %d, want 400", code)
		}
	})
}

// TestImportPreviewRefusesNonProductFiles: a file of no known format is
// refused with a sentence, and nothing waits for confirmation.
func TestImportPreviewRefusesNonProductFiles(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	code, page := p.previewUpload("notes.txt", "Remember to order more coffee.\nAnd milk.\n")
	if code != http.StatusBadRequest || !strings.Contains(page, "This file cannot be imported") || tokenRE.MatchString(page) {
		t.Errorf("preview = %d:\n%s", code, page)
	}
}

// TestImportWithoutFile: the preview and the import forms posted without
// a file are refused with a sentence naming every format the importer
// reads, and start no job.
func TestImportWithoutFile(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	p := newPanel(t, db)
	p.signIn()
	for _, path := range []string{"/admin/import/preview", "/admin/import"} {
		code, _, page := p.post(path, url.Values{})
		if code != http.StatusBadRequest {
			t.Errorf("%s without a file = %d, want 400", path, code)
		}
		for _, want := range []string{"Choose a product file to import", "Shopbot CSV", "Shopbot JSONL", "Shopify", "WooCommerce", "Google Merchant Center feed (XML)", "(TSV)"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s without a file: page lacks %q", path, want)
			}
		}
	}
	if jobs, err := catalog.ListImportJobs(context.Background(), db, 10); err != nil || len(jobs) != 0 {
		t.Errorf("jobs after refused uploads: %v %v", jobs, err)
	}
}
