package admin_test

import (
	"bytes"
	"context"
	"fmt"
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

func productForm(sku, price string) url.Values {
	return url.Values{
		"sku": {sku}, "title": {"Harbor Rain Shell"}, "brand": {"Nordvik"}, "category": {"Apparel > Jackets"},
		"price": {price}, "currency": {"USD"}, "stock": {"7"}, "attributes": {"color: navy\nsize: M"},
		"images": {"https://img.example/shell.jpg"}, "description": {"Light and waterproof."},
	}
}

func TestCreateEditArchiveProduct(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	ctx := context.Background()

	code, loc, body := p.post("/admin/products/new", productForm("SHELL-1", "129.99"))
	if code != http.StatusSeeOther {
		t.Fatalf("create = %d:\n%s", code, body)
	}
	got, err := catalog.GetProduct(ctx, p.db, "SHELL-1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Price != 12999 || got.Stock != 7 || got.Attributes["color"] != "navy" || got.Category == nil || got.Category.Path != "Apparel > Jackets" || got.ImageURLs[0] != "https://img.example/shell.jpg" || !got.Active {
		t.Errorf("created %+v", got)
	}
	if cs, err := catalog.ChangedSince(ctx, p.db, got.UpdatedAt, 0, 10); err != nil || len(cs) != 1 || cs[0].SKU != "SHELL-1" {
		t.Errorf("change feed: %+v, %v: the search index would not hear of the product", cs, err)
	}
	if want := fmt.Sprintf("/admin/products/%d", got.ID); loc != want {
		t.Errorf("redirect to %s, want %s", loc, want)
	}

	// Each kind of bad input is reported and writes nothing.
	for name, form := range map[string]url.Values{
		"bad price":      productForm("SHELL-2", "12,99.x"),
		"negative stock": func() url.Values { f := productForm("SHELL-2", "1"); f.Set("stock", "-1"); return f }(),
		"bad currency":   func() url.Values { f := productForm("SHELL-2", "1"); f.Set("currency", "XXQ"); return f }(),
		"no title":       func() url.Values { f := productForm("SHELL-2", "1"); f.Set("title", " "); return f }(),
		"bad attributes": func() url.Values { f := productForm("SHELL-2", "1"); f.Set("attributes", "no colon here"); return f }(),
		"bad image":      func() url.Values { f := productForm("SHELL-2", "1"); f.Set("images", "javascript:alert(1)"); return f }(),
		"sku with space": productForm("SHELL 2", "1"),
		"duplicate sku":  productForm("SHELL-1", "1"),
	} {
		code, _, body := p.post("/admin/products/new", form)
		if code != http.StatusBadRequest || !strings.Contains(body, `class="error"`) {
			t.Errorf("%s: %d", name, code)
		}
	}
	if _, err := catalog.GetProduct(ctx, p.db, "SHELL-2"); err == nil {
		t.Error("a bad form created SHELL-2")
	}
	if again, _ := catalog.GetProduct(ctx, p.db, "SHELL-1"); again.Price != 12999 {
		t.Errorf("the duplicate form changed SHELL-1 to %d", again.Price)
	}

	edit := productForm("IGNORED", "99.50")
	edit.Set("stock", "3")
	edit.Set("loaded", p.opened(fmt.Sprintf("/admin/products/%d", got.ID)))
	if code, _, body := p.post(fmt.Sprintf("/admin/products/%d", got.ID), edit); code != http.StatusSeeOther {
		t.Fatalf("edit = %d:\n%s", code, body)
	}
	if e, _ := catalog.GetProduct(ctx, p.db, "SHELL-1"); e.Price != 9950 || e.Stock != 3 {
		t.Errorf("edited: price %d stock %d", e.Price, e.Stock)
	}
	if _, err := catalog.GetProduct(ctx, p.db, "IGNORED"); err == nil {
		t.Error("editing changed the SKU")
	}

	if code, _, _ := p.post(fmt.Sprintf("/admin/products/%d/archive", got.ID), nil); code != http.StatusSeeOther {
		t.Fatalf("archive = %d", code)
	}
	if a, _ := catalog.GetProduct(ctx, p.db, "SHELL-1"); a.Active {
		t.Error("archive left the product active")
	}
	_, body = p.get("/admin/products?stock=archived&q=SHELL-1")
	if !strings.Contains(body, "Harbor Rain Shell") {
		t.Error("the archived filter does not list the archived product")
	}
	p.post(fmt.Sprintf("/admin/products/%d/restore", got.ID), nil)
	if a, _ := catalog.GetProduct(ctx, p.db, "SHELL-1"); !a.Active {
		t.Error("restore left the product archived")
	}
}

// TestImageUpload stores an uploaded picture and serves it publicly; a
// file that is not a picture is refused.
func TestImageUpload(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	upload := func(data []byte) (int, string) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for k, v := range productForm("PIC-1", "10") {
			mw.WriteField(k, v[0])
		}
		mw.WriteField("csrf", p.csrf)
		fw, _ := mw.CreateFormFile("image", "shell.png")
		fw.Write(data)
		mw.Close()
		req, _ := http.NewRequest("POST", p.srv.URL+"/admin/products/new", &buf)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := p.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Location")
	}
	if code, _ := upload([]byte("<html><script>alert(1)</script>")); code != http.StatusBadRequest {
		t.Errorf("HTML as an image = %d, want 400", code)
	}
	if code, _ := upload(png); code != http.StatusSeeOther {
		t.Fatalf("PNG upload = %d", code)
	}
	prod, err := catalog.GetProduct(context.Background(), p.db, "PIC-1")
	if err != nil || len(prod.ImageURLs) != 2 || !strings.HasPrefix(prod.ImageURLs[0], p.srv.URL+"/media/") {
		t.Fatalf("images %v (%v)", prod.ImageURLs, err)
	}
	resp, err := http.Get(prod.ImageURLs[0]) // no session: shoppers' apps fetch it
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("GET image = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

var rowRE = regexp.MustCompile(`<td><code>([^<]+)</code></td>`)

// TestProductListPagesAndFilters walks every page of a sorted, filtered
// list: each product once, in order.
func TestProductListPagesAndFilters(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		p.signIn()
		ctx := context.Background()
		for _, sortBy := range []string{"newest", "title", "price_asc", "price_desc", "stock_asc"} {
			seen := map[string]bool{}
			var prev []catalog.Product
			next := "/admin/products?sort=" + sortBy + "&stock=in"
			pages := 0
			for next != "" {
				_, body := p.get(next)
				pages++
				for _, m := range rowRE.FindAllStringSubmatch(body, -1) {
					if seen[m[1]] {
						t.Fatalf("%s: %s listed twice", sortBy, m[1])
					}
					seen[m[1]] = true
					pr, _ := catalog.GetProduct(ctx, db, m[1])
					prev = append(prev, *pr)
				}
				next = ""
				if m := regexp.MustCompile(`href="(/admin/products\?[^"]*after=[^"]*)">Next page`).FindStringSubmatch(body); m != nil {
					next = strings.ReplaceAll(m[1], "&amp;", "&")
				}
				if pages > 50 {
					t.Fatal("pagination does not end")
				}
			}
			n, err := db.NewSelect().Model((*catalog.Product)(nil)).Where("active = ?", true).Where("stock > 0").Where("parent_id IS NULL").Count(ctx)
			if err != nil || int64(len(seen)) != n || n <= 50 {
				t.Fatalf("%s: listed %d of %d products in stock (%v) over %d pages", sortBy, len(seen), n, err, pages)
			}
			for i := 1; i < len(prev); i++ {
				a, b := prev[i-1], prev[i]
				bad := false
				switch sortBy {
				case "newest":
					bad = a.ID < b.ID
				case "title":
					bad = a.Title > b.Title && db.Dialect().Name().String() == "sqlite"
				case "price_asc":
					bad = a.Price > b.Price
				case "price_desc":
					bad = a.Price < b.Price
				case "stock_asc":
					bad = a.Stock > b.Stock
				}
				if bad {
					t.Errorf("%s: %s before %s", sortBy, a.SKU, b.SKU)
				}
			}
		}
		_, body := p.get("/admin/products?q=" + url.QueryEscape("100%_") + "&stock=out")
		if !strings.Contains(body, "No products match") {
			t.Error("LIKE wildcards in the query were not escaped")
		}
	})
}

// TestImportThroughThePage uploads a CSV with one bad row: the good rows
// are written, the report names the bad line and its reason.
func TestImportThroughThePage(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	csv := "sku,title,price,currency,stock\nIMP-1,Import One,10.00,USD,3\nIMP-2,Import Two,ten dollars,USD,1\nIMP-3,Import Three,5.5,USD,0\n"
	loc := p.upload("products.csv", csv)
	p.admin.WaitImports()
	_, body := p.get(loc)
	if !strings.Contains(body, "imported 2, updated 0, failed 1") {
		t.Fatalf("import page:\n%s", body)
	}
	if !regexp.MustCompile(`<td class="num">3</td><td>IMP-2</td><td>[^<]*price`).MatchString(body) {
		t.Errorf("the report does not name line 3 (IMP-2) and its price:\n%s", body)
	}
	ctx := context.Background()
	if _, err := catalog.GetProduct(ctx, p.db, "IMP-2"); err == nil {
		t.Error("the bad row was written")
	}
	if pr, err := catalog.GetProduct(ctx, p.db, "IMP-3"); err != nil || pr.Price != 550 {
		t.Errorf("IMP-3: %v %v", pr, err)
	}

	// A file that is not products at all fails before writing anything.
	loc = p.upload("photo.csv", "\x00\x01\x02\x03binary")
	p.admin.WaitImports()
	_, body = p.get(loc)
	if !strings.Contains(body, "The import stopped") {
		t.Errorf("binary file:\n%s", body)
	}
}
