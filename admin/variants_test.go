package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// teeForm is a new product TEE-1 with option names Size and Color and
// the variant rows given as {sku, size, color, price, stock}.
func teeForm(rows ...[5]string) url.Values {
	f := productForm("TEE-1", "20.00")
	f["option_name"] = []string{"Size", "Color", ""}
	addRows(f, rows...)
	return f
}

// addRows sets the variant table's rows: a row whose sku starts with "="
// is an existing variant (vI_old), others new ones; all active.
func addRows(f url.Values, rows ...[5]string) {
	f.Set("vrows", fmt.Sprint(len(rows)))
	for i, r := range rows {
		k := func(s string) string { return fmt.Sprintf("v%d_%s", i, s) }
		if old, ok := strings.CutPrefix(r[0], "="); ok {
			f.Set(k("old"), old)
		} else {
			f.Set(k("sku"), r[0])
		}
		f.Set(k("o0"), r[1])
		f.Set(k("o1"), r[2])
		f.Set(k("price"), r[3])
		f.Set(k("stock"), r[4])
		f.Set(k("active"), "1")
	}
}

// family is a parent and its variants as stored, for comparing states.
func family(t *testing.T, db bun.IDB, sku string) string {
	t.Helper()
	ctx := context.Background()
	p, err := catalog.GetProduct(ctx, db, sku)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := catalog.ListVariants(ctx, db, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	s := fmt.Sprintf("%s stock=%d price=%d..%d n=%d names=%v;", p.SKU, p.Stock, p.Price, p.PriceMax, p.VariantCount, p.OptionNames)
	for _, v := range vs {
		s += fmt.Sprintf(" %s %v %d/%d active=%v title=%q;", v.SKU, v.Options, v.Price, v.Stock, v.Active, v.Title)
	}
	return s
}

// TestVariantTable: a product and its variants are created and edited
// through the product page's table in one save: the parent's stock and
// prices are rolled up, a cleared Active archives a variant (kept), a
// new row adds one, variants inherit the product's title, and the
// variant's own page links to its parent.
func TestVariantTable(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		p.signIn()
		ctx := context.Background()

		code, loc, body := p.post("/admin/products/new", teeForm(
			[5]string{"TEE-1-S", "S", "Navy", "20.00", "3"},
			[5]string{"TEE-1-M", "M", "Navy", "24.00", "7"},
		))
		if code != http.StatusSeeOther {
			t.Fatalf("create = %d:\n%s", code, body)
		}
		parent, err := catalog.GetProduct(ctx, db, "TEE-1")
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("/admin/products/%d", parent.ID); loc != want {
			t.Errorf("redirect to %s, want %s", loc, want)
		}
		if got, want := family(t, db, "TEE-1"), `TEE-1 stock=10 price=2000..2400 n=2 names=[Size Color]; TEE-1-S map[Color:Navy Size:S] 2000/3 active=true title="Harbor Rain Shell"; TEE-1-M map[Color:Navy Size:M] 2400/7 active=true title="Harbor Rain Shell";`; got != want {
			t.Fatalf("after create:\n got %s\nwant %s", got, want)
		}

		page := fmt.Sprintf("/admin/products/%d", parent.ID)
		_, html := p.get(page)
		for _, want := range []string{`name="v0_old" value="TEE-1-S"`, `name="option_name" value="Color"`, `name="v1_stock" value="7"`, `name="v1_price" value="24.00"`, `name="price" value="20.00"`, `name="v2_sku"`, "(sum of active variants)"} {
			if !strings.Contains(html, want) {
				t.Errorf("product page lacks %s", want)
			}
		}

		// Edit S, archive M (Active cleared), add L; the title changes and
		// the variants follow it (they had it alike).
		edit := productForm("TEE-1", "20.00")
		edit.Set("title", "Harbor Tee")
		edit["option_name"] = []string{"Size", "Color", ""}
		addRows(edit,
			[5]string{"=TEE-1-S", "S", "Navy", "19.00", "1"},
			[5]string{"=TEE-1-M", "M", "Navy", "24.00", "7"},
			[5]string{"TEE-1-L", "L", "Navy", "", "4"},
			[5]string{"", "", "", "", "0"}, // the empty row is skipped
		)
		edit.Del("v1_active")
		edit.Set("loaded", p.opened(page))
		if code, _, body := p.post(page, edit); code != http.StatusSeeOther {
			t.Fatalf("edit = %d:\n%s", code, body)
		}
		// The same form again (a double submit) is now stale: refused,
		// it changes nothing.
		saved := family(t, db, "TEE-1")
		if code, _, body := p.post(page, edit); code != http.StatusConflict || !strings.Contains(body, "changed since you opened it") {
			t.Fatalf("edit again = %d:\n%s", code, body)
		}
		if got := family(t, db, "TEE-1"); got != saved {
			t.Fatalf("the double submit changed:\n%s\n%s", saved, got)
		}
		if got, want := family(t, db, "TEE-1"), `TEE-1 stock=5 price=1900..2000 n=3 names=[Size Color]; TEE-1-S map[Color:Navy Size:S] 1900/1 active=true title="Harbor Tee"; TEE-1-M map[Color:Navy Size:M] 2400/7 active=false title="Harbor Tee"; TEE-1-L map[Color:Navy Size:L] 2000/4 active=true title="Harbor Tee";`; got != want {
			t.Fatalf("after edit:\n got %s\nwant %s", got, want)
		}

		// "Add a variant row" shows one more row and saves nothing.
		more := productForm("TEE-1", "20.00")
		more["option_name"] = []string{"Size", "Color", ""}
		addRows(more, [5]string{"=TEE-1-S", "S", "Navy", "5.00", "99"})
		more.Set("op", "addrow")
		more.Set("loaded", p.opened(page))
		before := family(t, db, "TEE-1")
		code, _, body = p.post(page, more)
		if code != http.StatusOK || !strings.Contains(body, `name="v1_sku"`) || !strings.Contains(body, `name="v0_stock" value="99"`) {
			t.Errorf("add row = %d, second row or kept value missing", code)
		}
		if after := family(t, db, "TEE-1"); after != before {
			t.Errorf("add row saved:\n%s\n%s", before, after)
		}

		// A variant's own page links to its parent; saving it keeps it a
		// variant with its options.
		v, _ := catalog.GetProduct(ctx, db, "TEE-1-S")
		_, vhtml := p.get(fmt.Sprintf("/admin/products/%d", v.ID))
		if !strings.Contains(vhtml, `id="variant-of"`) || !strings.Contains(vhtml, fmt.Sprintf(`href="/admin/products/%d"`, parent.ID)) || !strings.Contains(vhtml, "S / Navy") {
			t.Errorf("variant page does not link to its parent:\n%s", vhtml)
		}
		if strings.Contains(vhtml, `id="variant-table"`) {
			t.Error("a variant's page shows a variant table")
		}
		own := productForm("IGNORED", "18.00")
		own.Set("title", "Harbor Tee, small")
		own.Set("stock", "2")
		own.Set("loaded", p.opened(fmt.Sprintf("/admin/products/%d", v.ID)))
		if code, _, body := p.post(fmt.Sprintf("/admin/products/%d", v.ID), own); code != http.StatusSeeOther {
			t.Fatalf("save variant = %d:\n%s", code, body)
		}
		v, _ = catalog.GetProduct(ctx, db, "TEE-1-S")
		if v.ParentID == nil || *v.ParentID != parent.ID || v.Options["Size"] != "S" || v.Title != "Harbor Tee, small" || v.Stock != 2 {
			t.Errorf("variant after its own save: parent %v options %v title %q stock %d", v.ParentID, v.Options, v.Title, v.Stock)
		}
		if pr, _ := catalog.GetProduct(ctx, db, "TEE-1"); pr.Stock != 6 || pr.Price != 1800 {
			t.Errorf("parent not rolled up after the variant's save: stock %d price %d", pr.Stock, pr.Price)
		}
		// Its own title is kept by a later table save.
		again := productForm("TEE-1", "20.00")
		again.Set("title", "Harbor Tee")
		again["option_name"] = []string{"Size", "Color", ""}
		addRows(again, [5]string{"=TEE-1-S", "S", "Navy", "18.00", "2"})
		again.Set("loaded", p.opened(page))
		if code, _, body := p.post(page, again); code != http.StatusSeeOther {
			t.Fatalf("table save = %d:\n%s", code, body)
		}
		if v, _ = catalog.GetProduct(ctx, db, "TEE-1-S"); v.Title != "Harbor Tee, small" {
			t.Errorf("the table save overwrote the variant's own title: %q", v.Title)
		}
	})
}

// TestVariantTableRefusesBadRows: each kind of bad or hostile table is
// refused with the reason by its row (or for the form), and nothing is
// saved, not even the good rows beside it.
func TestVariantTableRefusesBadRows(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		p.signIn()
		ctx := context.Background()
		if code, _, body := p.post("/admin/products/new", teeForm(
			[5]string{"TEE-1-S", "S", "Navy", "20.00", "3"},
			[5]string{"TEE-1-M", "M", "Navy", "24.00", "7"},
		)); code != http.StatusSeeOther {
			t.Fatalf("create = %d:\n%s", code, body)
		}
		parent, _ := catalog.GetProduct(ctx, db, "TEE-1")
		page := fmt.Sprintf("/admin/products/%d", parent.ID)
		other, _, err := catalog.ListProductPage(ctx, db, catalog.ProductList{Limit: 1, Sort: catalog.SortTitle})
		if err != nil || len(other) == 0 || other[0].SKU == "TEE-1" {
			t.Fatalf("no other product: %v", err)
		}
		before := family(t, db, "TEE-1")
		otherBefore := fmt.Sprintf("%+v", other[0])
		long := strings.Repeat("x", 41)
		good := [5]string{"=TEE-1-S", "S", "Navy", "1.00", "99"} // valid, must not be saved either

		for _, tc := range []struct {
			name string
			rows [][5]string
			edit func(url.Values)
			want string
		}{
			{"stock below zero", [][5]string{good, {"=TEE-1-M", "M", "Navy", "24.00", "-8"}}, nil, "stock of TEE-1-M is 7, so 8 cannot be taken away"},
			{"negative new stock", [][5]string{good, {"TEE-1-X", "L", "Navy", "1", "-1"}}, nil, "must be a whole number"},
			{"stock not a number", [][5]string{good, {"=TEE-1-M", "M", "Navy", "24.00", "lots"}}, nil, "write a count such as 12, or a change such as"},
			{"bad price", [][5]string{good, {"=TEE-1-M", "M", "Navy", "-3", "1"}}, nil, "price"},
			{"duplicate option set", [][5]string{good, {"TEE-1-X", "m", "NAVY", "24.00", "1"}}, nil, "same options as sibling"},
			{"duplicate sku in the form", [][5]string{good, {"TEE-1-X", "L", "Navy", "1", "1"}, {"TEE-1-X", "XL", "Navy", "1", "1"}}, nil, "appears twice"},
			{"sku of another product", [][5]string{good, {other[0].SKU, "L", "Navy", "1", "1"}}, nil, "already exists"},
			{"another product as an existing row", [][5]string{good, {"=" + other[0].SKU, "L", "Navy", "1", "1"}}, nil, "is not a variant of this product"},
			{"missing value", [][5]string{good, {"TEE-1-X", "L", "", "1", "1"}}, nil, "no value for Color"},
			{"new row without sku", [][5]string{good, {"", "L", "Navy", "1", "1"}}, nil, "needs a SKU"},
			{"oversized option value", [][5]string{good, {"TEE-1-X", long, "Navy", "1", "1"}}, nil, "longer than 40"},
			{"oversized sku", [][5]string{good, {"TEE-1-" + strings.Repeat("X", 64), "L", "Navy", "1", "1"}}, nil, "at most 64"},
			{"value without an option name", [][5]string{good}, func(f url.Values) { f.Set("v0_o2", "Cotton") }, "column without an option name"},
			{"fourth option name", [][5]string{good}, func(f url.Values) { f["option_name"] = []string{"Size", "Color", "Fit", "Sleeve"} }, "at most 3 option names"},
			{"oversized option name", [][5]string{good}, func(f url.Values) { f["option_name"] = []string{"Size", "Color", long} }, "longer than 40"},
			{"duplicate option name", [][5]string{good}, func(f url.Values) { f["option_name"] = []string{"Size", "size", ""} }, "appears twice"},
			{"too many rows", [][5]string{good}, func(f url.Values) { f.Set("vrows", "1000000") }, "at most 100 rows"},
			{"negative rows", [][5]string{good}, func(f url.Values) { f.Set("vrows", "-1") }, "at most 100 rows"},
		} {
			f := productForm("TEE-1", "20.00")
			f["option_name"] = []string{"Size", "Color", ""}
			addRows(f, tc.rows...)
			f.Set("loaded", p.opened(page))
			if tc.edit != nil {
				tc.edit(f)
			}
			code, _, body := p.post(page, f)
			if code != http.StatusBadRequest || !strings.Contains(body, tc.want) || !strings.Contains(body, `class="error`) {
				t.Errorf("%s: %d, want 400 with %q", tc.name, code, tc.want)
			}
			if after := family(t, db, "TEE-1"); after != before {
				t.Errorf("%s changed the product:\n%s\n%s", tc.name, before, after)
			}
		}
		if o, _ := catalog.GetProduct(ctx, db, other[0].SKU); o.ParentID != nil {
			t.Errorf("another product became a variant: %+v (was %s)", o, otherBefore)
		}
		for _, sku := range []string{"TEE-1-X", "TEE-1-" + strings.Repeat("X", 64)} {
			if _, err := catalog.GetProduct(ctx, db, sku); err == nil {
				t.Errorf("a refused form created %s", sku)
			}
		}

		// A forged or missing CSRF token is refused before anything is read.
		f := productForm("TEE-1", "20.00")
		f["option_name"] = []string{"Size", "Color", ""}
		addRows(f, [5]string{"=TEE-1-S", "S", "Navy", "1.00", "99"})
		f.Set("csrf", "forged")
		if code, _, _ := p.post(page, f); code != http.StatusForbidden {
			t.Errorf("forged CSRF = %d, want 403", code)
		}
		f.Set("csrf", "")
		if code, _, _ := p.post(page, f); code != http.StatusForbidden {
			t.Errorf("empty CSRF = %d, want 403", code)
		}
		if after := family(t, db, "TEE-1"); after != before {
			t.Errorf("a forged post changed the product:\n%s\n%s", before, after)
		}
	})
}

// TestProductListHidesVariants: the list shows a parent (with its
// rolled-up stock, variant count and low-stock flag), never its variants;
// the count agrees; a variant's SKU finds its parent.
func TestProductListHidesVariants(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		p.signIn()
		ctx := context.Background()
		plainBefore, err := catalog.CountProductList(ctx, db, catalog.ProductList{})
		if err != nil {
			t.Fatal(err)
		}
		f := teeForm(
			[5]string{"TEE-1-S", "S", "Navy", "20.00", "2"},   // low
			[5]string{"TEE-1-M", "M", "Navy", "20.00", "5"},   // low (at the threshold)
			[5]string{"TEE-1-L", "L", "Navy", "20.00", "6"},   // not low
			[5]string{"TEE-1-XL", "XL", "Navy", "20.00", "0"}, // archived below: not counted
		)
		f.Del("v3_active")
		f.Set("title", "Variant Tee Zebra")
		if code, _, body := p.post("/admin/products/new", f); code != http.StatusSeeOther {
			t.Fatalf("create = %d:\n%s", code, body)
		}
		if n, _ := catalog.CountProductList(ctx, db, catalog.ProductList{}); n != plainBefore+1 {
			t.Errorf("count = %d, want %d (the parent only)", n, plainBefore+1)
		}
		ps, _, err := catalog.ListProductPage(ctx, db, catalog.ProductList{Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range ps {
			if x.IsVariant() {
				t.Errorf("the list holds variant %s", x.SKU)
			}
		}
		for _, q := range []string{"Variant Tee Zebra", "TEE-1-M"} {
			code, body := p.get("/admin/products?q=" + url.QueryEscape(q))
			if code != http.StatusOK {
				t.Fatalf("list %q = %d", q, code)
			}
			if !strings.Contains(body, "<code>TEE-1</code>") {
				t.Errorf("list %q lacks the parent", q)
			}
			if strings.Contains(body, "<code>TEE-1-S</code>") || strings.Contains(body, "<code>TEE-1-M</code>") {
				t.Errorf("list %q shows a variant", q)
			}
			if !strings.Contains(body, `<td class="num stock">13<div class="muted small variants-note">4 variants</div><div class="small low-flag">2 variants low</div>`) {
				t.Errorf("list %q lacks the rolled-up stock, the variant count or the low flag", q)
			}
		}
		// The low filter works on the parent's rolled-up stock (13: not low).
		if _, body := p.get("/admin/products?stock=low&q=Zebra"); strings.Contains(body, "<code>TEE-1</code>") {
			t.Error("a parent with 13 in stock is listed as low")
		}

		// One option name: the flag names it ("1 size low").
		g := productForm("CAP-1", "10.00")
		g.Set("title", "Variant Cap Zebra")
		g["option_name"] = []string{"Size", "", ""}
		addRows(g, [5]string{"CAP-1-S", "S", "", "10", "9"}, [5]string{"CAP-1-M", "M", "", "10", "1"})
		if code, _, body := p.post("/admin/products/new", g); code != http.StatusSeeOther {
			t.Fatalf("create cap = %d:\n%s", code, body)
		}
		if _, body := p.get("/admin/products?q=Cap+Zebra"); !strings.Contains(body, "1 size low") {
			t.Error("the cap's flag does not say 1 size low")
		}
		// No variant low: no flag.
		h := productForm("HAT-1", "10.00")
		h.Set("title", "Variant Hat Zebra")
		h["option_name"] = []string{"Size", "", ""}
		addRows(h, [5]string{"HAT-1-S", "S", "", "10", "9"})
		if code, _, body := p.post("/admin/products/new", h); code != http.StatusSeeOther {
			t.Fatalf("create hat = %d:\n%s", code, body)
		}
		if _, body := p.get("/admin/products?q=Hat+Zebra"); strings.Contains(body, "low-flag") || !strings.Contains(body, "1 variants") {
			t.Error("the hat's row is wrong (flag shown or count missing)")
		}
	})
}

// TestOrderPageShowsOptions: an order line of a variant shows its option
// values on the order page and in the refund form.
func TestOrderPageShowsOptions(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	p := newPanel(t, db)
	p.signIn()
	ctx := context.Background()
	if code, _, body := p.post("/admin/products/new", teeForm([5]string{"TEE-1-S", "S", "Navy", "20.00", "3"})); code != http.StatusSeeOther {
		t.Fatalf("create = %d:\n%s", code, body)
	}
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: "77", DisplayName: "Vic"})
	if err != nil {
		t.Fatal(err)
	}
	scope := catalog.PersonalCart(c.ID)
	if _, err := catalog.AddToCart(ctx, db, scope, "TEE-1-S", 1, c.ID); err != nil {
		t.Fatal(err)
	}
	o, err := catalog.PlaceOrder(ctx, db, catalog.OrderRequest{
		IdempotencyKey: "telegram:77:1", Scope: scope, CustomerID: c.ID, Channel: "telegram", ChatID: "77",
		Contact: catalog.Contact{Name: "Vic", Phone: "+1 555 0101", Address: "2 Main St"},
	})
	if err != nil {
		t.Fatal(err)
	}
	code, body := p.get("/admin/orders/" + o.Number)
	if code != http.StatusOK || !strings.Contains(body, `<span class="variant muted">Navy / S</span>`) {
		t.Errorf("order page %d lacks the line's options:\n%s", code, body)
	}
}
