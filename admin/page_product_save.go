package admin

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"shopbot/catalog"
)

func (s *Server) createProduct(w http.ResponseWriter, r *http.Request) {
	s.writeProduct(w, r, nil)
}

func (s *Server) saveProduct(w http.ResponseWriter, r *http.Request) {
	p, err := productByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.writeProduct(w, r, p)
}

// writeProduct validates the form and saves it through the catalog (which
// moves its updated_at, which the search backends follow): the product and the rows
// of its variant table in one batch (page_product_variants.go), or a
// variant with its parent and option values kept. A stored product's form
// is saved only over the versions it was opened at, and its stock fields
// are changes to the stock as it is (product_snapshot.go); when it is
// stale, it comes back with the current values and what changed. A bad
// form is shown again with the reasons (by row for the variant table),
// and nothing is written.
func (s *Server) writeProduct(w http.ResponseWriter, r *http.Request, old *catalog.Product) {
	ctx := r.Context()
	f := productForm{
		SKU: r.FormValue("sku"), Title: r.FormValue("title"), Brand: strings.TrimSpace(r.FormValue("brand")),
		Category: strings.TrimSpace(r.FormValue("category")), Price: strings.TrimSpace(r.FormValue("price")),
		CompareAt: strings.TrimSpace(r.FormValue("compare_at")), Currency: strings.TrimSpace(r.FormValue("currency")), Stock: strings.TrimSpace(r.FormValue("stock")),
		Images: r.FormValue("images"), Attributes: r.FormValue("attributes"), Desc: r.FormValue("description"), Active: true,
		Loaded: r.FormValue("loaded"),
	}
	var loaded snapshot
	if old != nil {
		f.ID, f.Active, f.SKU = old.ID, old.Active, old.SKU // the SKU is the product's key
		f.HasVariants = old.HasVariants()
		var err error
		if loaded, err = readSnapshot(f.Loaded); err != nil {
			s.renderChanged(w, r, old.ID, http.StatusBadRequest, err.Error(), snapshot{}, nil)
			return
		}
	}
	var parent *catalog.Product
	var stored []catalog.Product
	var err error
	if old != nil && old.IsVariant() {
		parent, err = catalog.GetProductByID(ctx, s.db, *old.ParentID)
	} else if old != nil {
		stored, err = storedVariants(ctx, s.db, old)
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	f.Parent = parent
	var names []string
	if parent == nil {
		f.Variants, err = readVariantsForm(r)
		if err == nil {
			names, err = f.Variants.checkNames()
		}
		if err == nil && r.FormValue("op") == "addrow" {
			// Only more room: nothing is read further or saved.
			if len(f.Variants.Rows) >= maxVariantRows {
				f.Error = fmt.Sprintf("The variant table has at most %d rows.", maxVariantRows)
			} else {
				f.Variants.Rows = append(f.Variants.Rows, emptyRow())
			}
			s.render(w, r, http.StatusOK, "product", "Product", "products", f)
			return
		}
	} else {
		f.Label = catalog.OptionLabel(old.Options, parent.OptionNames)
	}
	edit := catalog.ProductEdit{Version: loaded.Version}
	if f.HasVariants {
		// Its stock is its variants' (the field is read-only): no change.
		f.Stock = strconv.Itoa(loaded.Stock)
	}
	if err == nil {
		edit.In, edit.Stock, err = s.productInput(r, &f, old != nil, loaded.Stock)
	}
	in := &edit.In
	if err == nil && parent != nil {
		in.VariantOf, in.Options = parent.SKU, old.Options
	} else if err == nil {
		in.OptionNames = names
	}
	if err == nil {
		err = in.Validate()
	}
	if err == nil && old == nil {
		if _, gerr := catalog.GetProduct(ctx, s.db, in.SKU); gerr == nil {
			err = fmt.Errorf("a product with SKU %s already exists", in.SKU)
		}
	}
	in.Inactive = !f.Active
	edits := []catalog.ProductEdit{edit}
	if err == nil && parent == nil {
		vedits, bad, verr := s.variantInputs(ctx, &f.Variants, *in, old, stored, loaded)
		switch {
		case verr != nil:
			s.renderError(w, r, verr)
			return
		case bad:
			err = errors.New("nothing was saved: fix the marked variant rows")
		}
		edits = append(edits, vedits...)
	}
	if err == nil {
		// One transaction: the product, its variants, their stock
		// changes, the parent's rolled-up stock and prices (and so their
		// updated_at, which the search backends follow) and the
		// back-in-stock alerts they wake commit together,
		// or nothing does.
		_, err = catalog.SaveProducts(ctx, s.db, edits)
		if errors.Is(err, catalog.ErrConflict) && old != nil {
			s.renderChanged(w, r, old.ID, http.StatusConflict, "", loaded, edited(f, loaded))
			return
		}
		if err != nil && !errors.Is(err, catalog.ErrInvalid) {
			s.renderError(w, r, err)
			return
		}
	}
	if err != nil {
		f.Error = formMessage(err)
		if f.Variants.Names == nil && parent == nil {
			f.Variants = variantsForm{Names: padNames(nil)}
		}
		s.render(w, r, http.StatusBadRequest, "product", "Product", "products", f)
		return
	}
	s.tree.reset()
	p, err := catalog.GetProduct(ctx, s.db, in.SKU)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	msg := "Saved " + p.SKU + "."
	if n := len(edits) - 1; n > 0 {
		msg = fmt.Sprintf("Saved %s and %d variants.", p.SKU, n)
	}
	redirect(w, r, fmt.Sprintf("/admin/products/%d", p.ID), msg)
}

// staleMessage heads a form refused because it was stale.
const staleMessage = "This product was changed since you opened it, so nothing was saved: saving your page would have written old values back. The form now shows the current values."

// renderChanged shows the product's form again with its current values
// and msg (the stale message when empty): with a snapshot loaded, what
// changed since then and the edits submitted that were not saved.
func (s *Server) renderChanged(w http.ResponseWriter, r *http.Request, id int64, code int, msg string, loaded snapshot, submitted []shownValue) {
	p, err := catalog.GetProductByID(r.Context(), s.db, id)
	var f productForm
	if err == nil {
		f, err = s.storedForm(r.Context(), p)
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if msg == "" {
		msg = staleMessage
	}
	f.Error = msg
	if loaded.Shown != nil {
		now := shownOf(f)
		f.Changes = differences(loaded.Shown, now)
		f.Unsaved = differences(loaded.Shown, submitted)
	}
	s.render(w, r, code, "product", p.Title, "products", f)
}

// edited is what the posted form f shows, with the product's status as
// loaded: the form does not change it (the archive button does).
func edited(f productForm, loaded snapshot) []shownValue {
	out := shownOf(f)
	for i := range out {
		for _, v := range loaded.Shown {
			if out[i].Label == "status" && v.Label == "status" {
				out[i].Value = v.Value
			}
		}
	}
	return out
}

// formMessage is a catalog error as a form shows it.
func formMessage(err error) string {
	return strings.NewReplacer("catalog: ", "", catalog.ErrInvalid.Error()+": ", "").Replace(err.Error())
}

// productInput parses the form into a catalog input and, for a stored
// product (stored) whose stock field showed was, its stock change; a new
// product's stock is the input's.
func (s *Server) productInput(r *http.Request, f *productForm, stored bool, was int) (catalog.ProductInput, catalog.StockChange, error) {
	in := catalog.ProductInput{
		SKU: f.SKU, Title: f.Title, Brand: f.Brand, Description: f.Desc,
		CategoryPath: catalog.SplitCategoryPath(f.Category), Currency: f.Currency,
	}
	var stock catalog.StockChange
	cur, err := catalog.NormalizeCurrency(f.Currency)
	if err != nil {
		return in, stock, fmt.Errorf("%q is not an ISO 4217 currency code", f.Currency)
	}
	if in.Price, err = catalog.ParseAmount(f.Price, cur); err != nil {
		return in, stock, fmt.Errorf("price %q: %v", f.Price, strings.TrimPrefix(err.Error(), "catalog: "))
	}
	if f.CompareAt != "" {
		if in.CompareAt, err = catalog.ParseAmount(f.CompareAt, cur); err != nil {
			return in, stock, fmt.Errorf("regular price %q: %v", f.CompareAt, strings.TrimPrefix(err.Error(), "catalog: "))
		}
	}
	if stored {
		stock, err = parseStock(f.Stock, was)
	} else {
		in.Stock, err = newStock(f.Stock)
	}
	if err != nil {
		return in, stock, err
	}
	if in.Attributes, err = parseAttributes(f.Attributes); err != nil {
		return in, stock, err
	}
	if in.ImageURLs, err = parseImageURLs(f.Images); err != nil {
		return in, stock, err
	}
	uploaded, err := s.saveUpload(r)
	if err != nil {
		return in, stock, err
	}
	if uploaded != "" {
		in.ImageURLs = append([]string{uploaded}, in.ImageURLs...)
		f.Images = strings.Join(in.ImageURLs, "\n")
	}
	return in, stock, nil
}
