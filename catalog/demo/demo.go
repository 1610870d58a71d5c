package demo

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/importer"
)

//go:embed data/*.jsonl
var data embed.FS

// Product is one demo listing with its rating summary and reviews. A
// listing with variants (variants.go) has them in Variants, and its Input
// carries OptionNames and the stock and lowest price of its variants.
type Product struct {
	Input       catalog.ProductInput
	Variants    []catalog.ProductInput
	Rating      float64
	RatingCount int
	Reviews     []Review
}

// Review is a demo review.
type Review struct {
	Author string `json:"author"`
	Rating int    `json:"rating"`
	Title  string `json:"title,omitempty"` // reviews.go titles those without one
	Text   string `json:"text"`
}

type record struct {
	importer.Record
	Rating      float64  `json:"rating"`
	RatingCount int      `json:"rating_count"`
	Reviews     []Review `json:"reviews"`
}

// Products parses the embedded demo catalog: its listings, with their
// variants.
func Products() ([]Product, error) {
	files, err := fs.Glob(data, "data/*.jsonl")
	if err != nil {
		return nil, err
	}
	var out []Product
	for _, name := range files {
		b, err := data.ReadFile(name)
		if err != nil {
			return nil, err
		}
		ps, err := parse(name, b)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	enrichReviews(out)
	return out, nil
}

func parse(name string, b []byte) ([]Product, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var out []Product
	for n := 1; ; n++ {
		var r record
		if err := dec.Decode(&r); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("demo: %s record %d: %w", name, n, err)
		}
		in, err := r.Input("USD")
		if err != nil {
			return nil, fmt.Errorf("demo: %s record %d (%s): %w", name, n, r.SKU, err)
		}
		if len(in.ImageURLs) == 0 {
			in.ImageURLs = []string{ImageURL(in.SKU)}
		}
		p := Product{Input: in, Rating: r.Rating, RatingCount: r.RatingCount, Reviews: r.Reviews}
		if spec, ok := variantSpecs[in.SKU]; ok {
			if err := expand(&p, spec); err != nil {
				return nil, fmt.Errorf("demo: %s record %d (%s): variants: %w", name, n, r.SKU, err)
			}
		}
		out = append(out, p)
	}
}

// Seed loads the demo catalog (and its delivery methods) into a shop that
// has no products and never had the demo (catalog.GetDemoState is
// undecided), marks what it wrote as the demo's (catalog.MarkDemo) and
// records catalog.DemoLoaded, and returns the number loaded: 0 when there
// are products already (the merchant's own) or the demo was loaded or
// removed before, so an empty shop after `shopbot demo remove` stays
// empty. A shop with products whose provenance was never recorded (loaded
// before it was) gets it recorded (Adopt). The number counts listings, as
// catalog.CountProducts does, not variants. The check and the load are
// one transaction, which on SQLite holds the write lock; on Postgres, run
// it under migrations.Setup's lock so replicas starting together load it
// once.
func Seed(ctx context.Context, db bun.IDB) (loaded int, err error) {
	ps, err := Products()
	if err != nil {
		return 0, err
	}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		state, err := catalog.GetDemoState(ctx, tx)
		if err != nil || state != catalog.DemoUndecided {
			return err
		}
		n, err := catalog.CountProducts(ctx, tx)
		if err != nil {
			return err
		}
		if n > 0 {
			return adopt(ctx, tx, ps)
		}
		loaded = len(ps)
		return seed(ctx, tx, ps)
	})
	if err != nil {
		return 0, fmt.Errorf("demo: seed: %w", err)
	}
	return loaded, nil
}

// seed writes the demo into an empty shop and marks it.
func seed(ctx context.Context, tx bun.Tx, ps []Product) error {
	slugs, err := write(ctx, tx, ps)
	if err != nil {
		return err
	}
	rows, err := DemoRows(ps)
	if err != nil {
		return err
	}
	rows.PageSlugs = slugs
	wrote, err := writeDeliveries(ctx, tx)
	if err != nil {
		return err
	}
	if !wrote {
		rows.Deliveries = nil
	}
	if _, err := catalog.MarkDemo(ctx, tx, rows); err != nil {
		return err
	}
	return catalog.SetDemoState(ctx, tx, catalog.DemoLoaded, time.Now())
}

// Adopt records the provenance of a demo loaded before provenance was
// (shopbot before migration 0020): in a shop whose demo state is
// undecided and which has products, the demo's SKUs, page slugs and
// delivery method names are marked the demo's and the state is
// catalog.DemoLoaded; a shop with none of the demo's SKUs is
// catalog.DemoAbsent. An empty or decided shop is left alone. Seed does
// this too; bot calls Adopt when the demo is off.
func Adopt(ctx context.Context, db bun.IDB) error {
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		state, err := catalog.GetDemoState(ctx, tx)
		if err != nil || state != catalog.DemoUndecided {
			return err
		}
		if n, err := catalog.CountProducts(ctx, tx); err != nil || n == 0 {
			return err
		}
		ps, err := Products()
		if err != nil {
			return err
		}
		return adopt(ctx, tx, ps)
	})
	if err != nil {
		return fmt.Errorf("demo: adopt: %w", err)
	}
	return nil
}

func adopt(ctx context.Context, tx bun.Tx, ps []Product) error {
	rows, err := DemoRows(ps)
	if err != nil {
		return err
	}
	marked, err := catalog.MarkDemo(ctx, tx, catalog.DemoRows{SKUs: rows.SKUs})
	if err != nil {
		return err
	}
	if marked == 0 {
		return catalog.SetDemoState(ctx, tx, catalog.DemoAbsent, time.Now())
	}
	rows.SKUs = nil
	if _, err := catalog.MarkDemo(ctx, tx, rows); err != nil {
		return err
	}
	return catalog.SetDemoState(ctx, tx, catalog.DemoLoaded, time.Now())
}

// DemoRows names every row the demo writes: its listings and variants,
// pages and delivery methods (it has no promo codes).
func DemoRows(ps []Product) (catalog.DemoRows, error) {
	var rows catalog.DemoRows
	for _, p := range ps {
		rows.SKUs = append(rows.SKUs, p.Input.SKU)
		for _, v := range p.Variants {
			rows.SKUs = append(rows.SKUs, v.SKU)
		}
	}
	pages, err := Pages()
	if err != nil {
		return rows, err
	}
	for _, p := range pages {
		rows.PageSlugs = append(rows.PageSlugs, p.Slug)
	}
	for _, m := range DeliveryMethods() {
		rows.Deliveries = append(rows.Deliveries, m.Name)
	}
	return rows, nil
}

// Load writes the demo catalog into db in one transaction and returns the
// number of listings (variants not counted).
func Load(ctx context.Context, db bun.IDB) (int, error) {
	ps, err := Products()
	if err != nil {
		return 0, err
	}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		_, err := write(ctx, tx, ps)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("demo: load: %w", err)
	}
	return len(ps), nil
}

// write upserts ps with their ratings and adds their reviews, and the
// demo pages the shop has not got; it returns the slugs of the pages it
// created.
func write(ctx context.Context, tx bun.Tx, ps []Product) (pages []string, err error) {
	if pages, err = writePages(ctx, tx); err != nil {
		return nil, err
	}
	ins := make([]catalog.ProductInput, len(ps), len(ps)*3)
	skus := make([]string, len(ps))
	for i, p := range ps {
		ins[i], skus[i] = p.Input, p.Input.SKU
	}
	for _, p := range ps {
		ins = append(ins, p.Variants...)
	}
	if _, err := catalog.UpsertProducts(ctx, tx, ins); err != nil {
		return nil, err
	}
	stored, err := catalog.GetProducts(ctx, tx, skus)
	if err != nil {
		return nil, err
	}
	var reviews []catalog.Review
	for i, p := range ps {
		id := stored[i].ID
		if err := catalog.SetRating(ctx, tx, id, p.Rating, p.RatingCount); err != nil {
			return nil, err
		}
		for _, r := range p.Reviews {
			reviews = append(reviews, catalog.Review{ProductID: id, Author: r.Author, Rating: r.Rating, Title: r.Title, Body: r.Text})
		}
	}
	return pages, catalog.AddReviews(ctx, tx, reviews)
}
