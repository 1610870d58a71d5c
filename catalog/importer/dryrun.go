package importer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// The dry run and the report. A dry run takes the same path as an import —
// read, map, validate, batch, catalog.CheckVariants and
// catalog.UpsertProducts — but each batch's transaction is rolled back, so
// nothing is written and every refusal the import would make is reported.
// Before writing, each batch compares its rows with the stored products
// (diff) to count new, changed and unchanged products and to list the
// titles, prices and stocks that would change. A variant whose parent was
// in an earlier (rolled back) batch finds a stand-in for it written in its
// own transaction, rolled back too. What a dry run cannot see: a clash
// between variants of one parent that fall into different batches.

// SampleRows is how many rows Summary.Sample keeps; MaxChanges how many
// changes Summary.Changes keeps.
const (
	SampleRows = 10
	MaxChanges = 100
)

// SampleRow is a row of the file as the import maps it.
type SampleRow struct {
	Line      int
	SKU       string
	Title     string
	VariantOf string
	Options   string // "size: M, color: Navy"
	Price     string // formatted; empty for a parent priced by its variants
	Stock     int
	Category  string
	Images    int
	Active    bool
}

// Change is a field of a stored product a run would overwrite.
type Change struct {
	SKU   string
	Field string // title, price or stock
	Old   string
	New   string
}

// errDryRun rolls back a dry run's batch.
var errDryRun = errors.New("dry run")

// see tells Options.Seen the SKU of a row read, cleaned as it is stored.
func (imp *run) see(sku string) {
	if imp.opts.Seen != nil {
		if sku = strings.TrimSpace(cleanField(strings.ToValidUTF8(sku, ""), false)); sku != "" {
			imp.opts.Seen(sku)
		}
	}
}

func (imp *run) sample(p pending) {
	if len(imp.sum.Sample) >= SampleRows {
		return
	}
	in := p.In
	s := SampleRow{Line: p.Line, SKU: in.SKU, Title: in.Title, VariantOf: in.VariantOf, Stock: in.Stock,
		Category: strings.Join(in.CategoryPath, " > "), Images: len(in.ImageURLs), Active: !in.Inactive}
	if !p.NoPrice {
		s.Price = catalog.FormatAmount(in.Price, in.Currency)
	}
	var opts []string
	for _, k := range p.Keys {
		opts = append(opts, k+": "+in.Options[k])
	}
	s.Options = strings.Join(opts, ", ")
	imp.sum.Sample = append(imp.sum.Sample, s)
}

// standIns writes, in a dry run's transaction, a stand-in for each parent
// that the batch's variants name, that an earlier batch of this run wrote
// (and rolled back), and that the catalog does not hold.
func (imp *run) standIns(ctx context.Context, tx bun.Tx, ps []pending) error {
	inBatch := map[string]bool{}
	for _, p := range ps {
		inBatch[p.In.SKU] = true
	}
	var want []string
	for _, p := range ps {
		parent := p.In.VariantOf
		if s := imp.seen[parent]; parent != "" && !inBatch[parent] && s.line != 0 && !s.variant && !slices.Contains(want, parent) {
			want = append(want, parent)
		}
	}
	if len(want) == 0 {
		return nil
	}
	var stored []string
	if err := tx.NewSelect().Model((*catalog.Product)(nil)).Column("sku").Where("sku IN (?)", bun.List(want)).Scan(ctx, &stored); err != nil {
		return fmt.Errorf("importer: dry run: %w", err)
	}
	var ins []catalog.ProductInput
	for _, sku := range want {
		if slices.Contains(stored, sku) {
			continue
		}
		in := catalog.ProductInput{SKU: sku, Title: sku, Currency: imp.opts.DefaultCurrency}
		if err := in.Validate(); err != nil {
			return err
		}
		ins = append(ins, in)
	}
	_, err := catalog.UpsertProducts(ctx, tx, ins)
	return err
}

// diff compares the rows a batch would write with the stored products: it
// returns the counts of new, changed and unchanged ones, and the batch's
// title, price and stock changes.
func diff(ctx context.Context, tx bun.Tx, ps []pending) (res catalog.UpsertResult, unchanged int, changes []Change, err error) {
	skus := make([]string, len(ps))
	for i, p := range ps {
		skus[i] = p.In.SKU
	}
	stored, err := catalog.GetProducts(ctx, tx, skus)
	if err != nil {
		return res, 0, nil, err
	}
	bySKU := make(map[string]*catalog.Product, len(stored))
	for i := range stored {
		bySKU[stored[i].SKU] = &stored[i]
	}
	for _, p := range ps {
		st := bySKU[p.In.SKU]
		if st == nil {
			res.Inserted++
			continue
		}
		c, other := compare(p, st)
		switch {
		case len(c) > 0 || other:
			res.Updated++
			changes = append(changes, c...)
		default:
			unchanged++
		}
	}
	return res, unchanged, changes, nil
}

// compare lists the title, price and stock changes of one product and
// reports whether anything else would change. Fields a row leaves empty
// (a variant inherits them) and a parent's rolled up price and stock are
// not compared.
func compare(p pending, st *catalog.Product) ([]Change, bool) {
	in := p.In
	var c []Change
	if in.Title != "" && in.Title != st.Title {
		c = append(c, Change{SKU: in.SKU, Field: "title", Old: st.Title, New: in.Title})
	}
	rolled := st.VariantCount > 0
	if !p.NoPrice && !rolled && (in.Price != st.Price || in.Currency != st.Currency) {
		c = append(c, Change{SKU: in.SKU, Field: "price", Old: catalog.FormatAmount(st.Price, st.Currency), New: catalog.FormatAmount(in.Price, in.Currency)})
	}
	if !rolled && !p.NoPrice && in.Stock != st.Stock {
		c = append(c, Change{SKU: in.SKU, Field: "stock", Old: strconv.Itoa(st.Stock), New: strconv.Itoa(in.Stock)})
	}
	other := (in.Description != "" && in.Description != st.Description) ||
		(in.Brand != "" && in.Brand != st.Brand) ||
		in.Inactive == st.Active ||
		(len(in.ImageURLs) > 0 && !slices.Equal(in.ImageURLs, st.ImageURLs)) ||
		(len(in.Attributes) > 0 && !maps.Equal(in.Attributes, st.Attributes)) ||
		(in.VariantOf != "" && !maps.Equal(in.Options, st.Options)) ||
		(len(in.CategoryPath) > 0 && (st.Category == nil || !strings.EqualFold(st.Category.Name, in.CategoryPath[len(in.CategoryPath)-1])))
	return c, other
}
