package admin

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// The product page's variant table: the parent's option names (at most
// catalog.MaxOptions) and one row per variant (option values, SKU, price,
// stock, active). The table is part of the product form, so the product
// and its variants are saved by one catalog.SaveProducts call in one
// transaction (variants inherit what they leave empty, and the parent's
// stock and prices are rolled up, in the catalog). A bad row is shown
// with its reason and nothing is saved. A variant is never deleted
// (orders reference it): clearing Active archives it.
//
// Fields: option_name (repeated, one per column), vrows (the number of
// rows), and per row i: vI_old (the stored SKU of an existing variant),
// vI_sku, vI_oJ (the value of option column J), vI_price, vI_stock,
// vI_active. An existing row is saved over the version the page was opened
// at (the form's hidden "loaded" snapshot, product_snapshot.go), and its
// stock is a change: "+3" or "-1", or a count that holds only if the stock
// is still the one shown. op=addrow shows the form again with one more
// empty row and saves nothing.

// maxVariantRows bounds the rows one form may post.
const maxVariantRows = 100

// variantsForm is the table as shown.
type variantsForm struct {
	Names []string // catalog.MaxOptions columns, "" where unnamed
	Rows  []variantRow
}

// variantRow is one line of the table.
type variantRow struct {
	Old    string   // stored SKU of an existing variant, "" for a new row
	SKU    string   // the variant's SKU (fixed once stored)
	Opts   []string // one value per column of Names
	Price  string   // empty on a new row: the product's price
	Stock  string
	Active bool
	Error  string
}

// blank reports whether a new row was left empty (it is skipped).
func (v variantRow) blank() bool {
	if v.Old != "" || strings.TrimSpace(v.SKU) != "" {
		return false
	}
	for _, o := range v.Opts {
		if strings.TrimSpace(o) != "" {
			return false
		}
	}
	return true
}

func emptyRow() variantRow {
	return variantRow{Opts: make([]string, catalog.MaxOptions), Stock: "0", Active: true}
}

// variantsOf is the table of a stored product, with an empty row to add
// one more variant.
func variantsOf(p *catalog.Product, vs []catalog.Product) variantsForm {
	names := slices.Clone(p.OptionNames)
	if len(names) == 0 && len(vs) > 0 {
		// Imported without option names: the first variant's, by name.
		names = slices.Sorted(maps.Keys(vs[0].Options))
	}
	f := variantsForm{Names: padNames(names)}
	for _, v := range vs {
		row := variantRow{Old: v.SKU, SKU: v.SKU, Opts: make([]string, catalog.MaxOptions),
			Price: plainAmount(v.Price, v.Currency), Stock: strconv.Itoa(v.Stock), Active: v.Active}
		for j, n := range f.Names {
			if n != "" {
				row.Opts[j] = v.Options[n]
			}
		}
		f.Rows = append(f.Rows, row)
	}
	f.Rows = append(f.Rows, emptyRow())
	return f
}

func padNames(names []string) []string {
	out := make([]string, catalog.MaxOptions)
	copy(out, names)
	return out
}

// readVariantsForm reads the table as posted, without judging it.
func readVariantsForm(r *http.Request) (variantsForm, error) {
	var f variantsForm
	names := r.PostForm["option_name"]
	if r.MultipartForm != nil && len(names) == 0 {
		names = r.MultipartForm.Value["option_name"]
	}
	if len(names) > catalog.MaxOptions {
		for _, n := range names[catalog.MaxOptions:] {
			if strings.TrimSpace(n) != "" {
				return f, fmt.Errorf("a product has at most %d option names", catalog.MaxOptions)
			}
		}
		names = names[:catalog.MaxOptions]
	}
	f.Names = padNames(names)
	for j := range f.Names {
		f.Names[j] = strings.TrimSpace(f.Names[j])
	}
	n := 0
	if raw := strings.TrimSpace(r.FormValue("vrows")); raw != "" {
		var err error
		if n, err = strconv.Atoi(raw); err != nil || n < 0 || n > maxVariantRows {
			return f, fmt.Errorf("the variant table has at most %d rows", maxVariantRows)
		}
	}
	for i := range n {
		key := func(s string) string { return fmt.Sprintf("v%d_%s", i, s) }
		row := variantRow{
			Old: strings.TrimSpace(r.FormValue(key("old"))), SKU: strings.TrimSpace(r.FormValue(key("sku"))),
			Opts: make([]string, catalog.MaxOptions), Price: strings.TrimSpace(r.FormValue(key("price"))),
			Stock: strings.TrimSpace(r.FormValue(key("stock"))), Active: r.FormValue(key("active")) != "",
		}
		if row.Old != "" {
			row.SKU = row.Old // the SKU is the variant's key
		}
		for j := range row.Opts {
			row.Opts[j] = strings.TrimSpace(r.FormValue(fmt.Sprintf("v%d_o%d", i, j)))
		}
		f.Rows = append(f.Rows, row)
	}
	return f, nil
}

// checkNames returns the non-empty option names, refusing duplicates.
func (f *variantsForm) checkNames() ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, n := range f.Names {
		if n == "" {
			continue
		}
		if len([]rune(n)) > 40 {
			return nil, fmt.Errorf("option name %q is longer than 40 characters", n)
		}
		if seen[strings.ToLower(n)] {
			return nil, fmt.Errorf("option name %q appears twice", n)
		}
		seen[strings.ToLower(n)] = true
		out = append(out, n)
	}
	return out, nil
}

// variantInputs turns the table into catalog edits for the parent in,
// marking each bad row; stored are the product's variants before the
// save, old the stored product (nil for a new one), loaded the form's
// snapshot (the version and stock each existing row was opened at). The
// result is only to be written when no row has an error.
func (s *Server) variantInputs(ctx context.Context, f *variantsForm, in catalog.ProductInput, old *catalog.Product, stored []catalog.Product, loaded snapshot) ([]catalog.ProductEdit, bool, error) {
	byOld := map[string]*catalog.Product{}
	for i := range stored {
		byOld[stored[i].SKU] = &stored[i]
	}
	var edits []catalog.ProductEdit
	var rowOf []int // index in f.Rows of each edit
	bad := false
	seenSKU := map[string]bool{in.SKU: true}
	for i := range f.Rows {
		row := &f.Rows[i]
		if row.blank() {
			continue
		}
		e, err := rowInput(row, f.Names, in, old, byOld, loaded)
		v := &e.In
		if err == nil && seenSKU[v.SKU] {
			err = fmt.Errorf("SKU %s appears twice in the form", v.SKU)
		}
		if cur := byOld[v.SKU]; err == nil && row.Old == "" && cur != nil && catalog.OptionKey(cur.Options) == catalog.OptionKey(v.Options) {
			// The same form posted twice: its new row is now this
			// variant; writing it again is refused if anything else
			// changed it meanwhile.
			keepOwn(v, cur, old)
			e.Version = cur.Version
		} else if err == nil && row.Old == "" {
			if _, gerr := catalog.GetProduct(ctx, s.db, v.SKU); gerr == nil {
				err = fmt.Errorf("a product with SKU %s already exists", v.SKU)
			}
		}
		seenSKU[v.SKU] = true
		if err != nil {
			row.Error = strings.TrimPrefix(err.Error(), "catalog: ")
			bad = true
			continue
		}
		edits = append(edits, e)
		rowOf = append(rowOf, i)
	}
	if len(edits) == 0 {
		return nil, bad, nil
	}
	// The parent first, as SaveProducts will see the batch.
	ins := []catalog.ProductInput{in}
	for _, e := range edits {
		ins = append(ins, e.In)
	}
	errs, err := catalog.CheckVariants(ctx, s.db, ins)
	if err != nil {
		return nil, bad, err
	}
	for k, e := range errs[1:] {
		if e != nil {
			f.Rows[rowOf[k]].Error = strings.TrimPrefix(e.Error(), "catalog: ")
			bad = true
		}
	}
	return edits, bad, nil
}

// rowInput is one row's catalog edit. An existing variant keeps what it
// has of its own (title, images …) and inherits again what it had the
// same as the product; it is saved over the version the form was opened
// at, and its stock field is a change (parseStock) to the stock then.
func rowInput(row *variantRow, names []string, parent catalog.ProductInput, old *catalog.Product, byOld map[string]*catalog.Product, loaded snapshot) (catalog.ProductEdit, error) {
	e := catalog.ProductEdit{In: catalog.ProductInput{SKU: row.SKU, VariantOf: parent.SKU, Currency: parent.Currency, Inactive: !row.Active, Options: map[string]string{}}}
	v := &e.In
	var was rowStamp
	if row.Old != "" {
		cur := byOld[row.Old]
		if cur == nil {
			return e, fmt.Errorf("%s is not a variant of this product", row.Old)
		}
		var ok bool
		if was, ok = loaded.Rows[row.Old]; !ok {
			return e, fmt.Errorf("%s was not in the table when this page was opened: open the product again", row.Old)
		}
		keepOwn(v, cur, old)
		e.Version = was.Version
	}
	if v.SKU == "" {
		return e, fmt.Errorf("a new variant needs a SKU")
	}
	for j, val := range row.Opts {
		switch {
		case val == "":
		case names[j] == "":
			return e, fmt.Errorf("value %q is in a column without an option name", val)
		default:
			v.Options[names[j]] = val
		}
	}
	for _, n := range names {
		if _, ok := v.Options[n]; n != "" && !ok {
			return e, fmt.Errorf("no value for %s", n)
		}
	}
	var err error
	if row.Price == "" {
		v.Price = parent.Price
	} else if v.Price, err = catalog.ParseAmount(row.Price, parent.Currency); err != nil {
		return e, fmt.Errorf("price %q: %v", row.Price, strings.TrimPrefix(err.Error(), "catalog: "))
	}
	if row.Old == "" {
		v.Stock, err = newStock(row.Stock)
	} else {
		e.Stock, err = parseStock(row.Stock, was.Stock)
	}
	if err != nil {
		return e, err
	}
	return e, v.Validate()
}

// keepOwn copies into v what the stored variant cur has of its own, that
// is unlike the stored product old (what it had alike is left empty, so
// it is inherited from the product as saved now).
func keepOwn(v *catalog.ProductInput, cur, old *catalog.Product) {
	v.CompareAt = cur.CompareAt // the table has no column for it: a sale stays
	if old == nil {
		return
	}
	if cur.Title != old.Title {
		v.Title = cur.Title
	}
	if cur.Description != old.Description {
		v.Description = cur.Description
	}
	if cur.Brand != old.Brand {
		v.Brand = cur.Brand
	}
	if !slices.Equal(cur.ImageURLs, old.ImageURLs) {
		v.ImageURLs = cur.ImageURLs
	}
	if !maps.Equal(cur.Attributes, old.Attributes) {
		v.Attributes = cur.Attributes
	}
	if cur.Category != nil && (old.CategoryID == nil || *old.CategoryID != cur.Category.ID) {
		v.CategoryPath = catalog.SplitCategoryPath(cur.Category.Path)
	}
}

// storedVariants loads a product's variants with their categories.
func storedVariants(ctx context.Context, db bun.IDB, p *catalog.Product) ([]catalog.Product, error) {
	vs, err := catalog.ListVariants(ctx, db, p.ID)
	if err != nil || len(vs) == 0 {
		return vs, err
	}
	skus := make([]string, len(vs))
	for i, v := range vs {
		skus[i] = v.SKU
	}
	return catalog.GetProducts(ctx, db, skus)
}
