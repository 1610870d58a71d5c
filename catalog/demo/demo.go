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
// has no products yet and returns the number loaded: 0 when there are
// products already (a demo loaded before, or the merchant's own). The
// number counts listings, as catalog.CountProducts does, not variants. The check and the load are one
// transaction, which on SQLite holds the write lock; on Postgres, run it
// under migrations.Setup's lock so replicas starting together load it once.
func Seed(ctx context.Context, db bun.IDB) (loaded int, err error) {
	ps, err := Products()
	if err != nil {
		return 0, err
	}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := catalog.CountProducts(ctx, tx)
		if err != nil || n > 0 {
			return err
		}
		loaded = len(ps)
		if err := write(ctx, tx, ps); err != nil {
			return err
		}
		return WriteDeliveries(ctx, tx)
	})
	if err != nil {
		return 0, fmt.Errorf("demo: seed: %w", err)
	}
	return loaded, nil
}

// Load writes the demo catalog into db in one transaction and returns the
// number of listings (variants not counted).
func Load(ctx context.Context, db bun.IDB) (int, error) {
	ps, err := Products()
	if err != nil {
		return 0, err
	}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return write(ctx, tx, ps) })
	if err != nil {
		return 0, fmt.Errorf("demo: load: %w", err)
	}
	return len(ps), nil
}

// write upserts ps with their ratings and adds their reviews, and the
// demo pages.
func write(ctx context.Context, tx bun.Tx, ps []Product) error {
	if err := writePages(ctx, tx); err != nil {
		return err
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
		return err
	}
	stored, err := catalog.GetProducts(ctx, tx, skus)
	if err != nil {
		return err
	}
	var reviews []catalog.Review
	for i, p := range ps {
		id := stored[i].ID
		if err := catalog.SetRating(ctx, tx, id, p.Rating, p.RatingCount); err != nil {
			return err
		}
		for _, r := range p.Reviews {
			reviews = append(reviews, catalog.Review{ProductID: id, Author: r.Author, Rating: r.Rating, Title: r.Title, Body: r.Text})
		}
	}
	return catalog.AddReviews(ctx, tx, reviews)
}
