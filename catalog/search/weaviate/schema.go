package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
	"github.com/weaviate/weaviate/entities/models"
)

// Field boosts of the BM25 side: the embedded index's (3, 2, 1.5, 1.5, 1)
// doubled, because weaviate-server 1.35 (BlockMax WAND) scores a field
// with a fractional boost 0 — "shirt" then missed the tees whose only
// "shirt" is their category. Relative score fusion normalizes the BM25
// scores, so the factor changes no ranking.
var searchProperties = []string{"t_title^6", "t_brand^4", "t_category^3", "t_attrs^3", "t_desc^2"}

// schemaVersion changes with the collection's definition.
const schemaVersion = "3" // 3: variants (option_keys, option_price_keys, variant_skus, price_max)

// classDescription records the collection's definition and the embedder
// the vectors come from: vectors of another embedder are not comparable,
// so Rebuild recreates the collection when either changes.
func (b *Backend) classDescription() string {
	return "Shopbot products, schema " + schemaVersion + "; vectors: " + b.emb.Name()
}

// classDef is the collection: explicit properties, no vectorizer, dot
// product distance (see doc.go).
func (b *Backend) classDef() *models.Class {
	yes, no := new(true), new(false)
	text := func(name, tokenization string, filterable, searchable bool) *models.Property {
		return &models.Property{Name: name, DataType: []string{"text"}, Tokenization: tokenization,
			IndexFilterable: boolp(filterable), IndexSearchable: boolp(searchable)}
	}
	num := func(name, typ string, ranges bool) *models.Property {
		return &models.Property{Name: name, DataType: []string{typ}, IndexFilterable: yes, IndexRangeFilters: boolp(ranges)}
	}
	return &models.Class{
		Class:       b.class,
		Description: b.classDescription(),
		Vectorizer:  "none",
		// HNSW lighter than the defaults (64/32 → 64/16 links, ef 128 →
		// 64 at build): half the import time, and at 100,000 products
		// the dynamic query ef still finds the nearest neighbours.
		VectorIndexConfig: map[string]any{
			"distance":       "dot",
			"efConstruction": 64,
			"maxConnections": 16,
		},
		InvertedIndexConfig: &models.InvertedIndexConfig{
			Bm25:      &models.BM25Config{K1: 1.2, B: 0.75},
			Stopwords: &models.StopwordConfig{Preset: "none"},
		},
		Properties: []*models.Property{
			text("sku", models.PropertyTokenizationField, true, false),
			{Name: "payload", DataType: []string{"text"}, IndexFilterable: no, IndexSearchable: no},
			text("t_title", models.PropertyTokenizationWhitespace, false, true),
			text("t_brand", models.PropertyTokenizationWhitespace, false, true),
			text("t_category", models.PropertyTokenizationWhitespace, false, true),
			text("t_attrs", models.PropertyTokenizationWhitespace, false, true),
			text("t_desc", models.PropertyTokenizationWhitespace, false, true),
			text("terms", models.PropertyTokenizationWhitespace, true, false),
			{Name: "category_keys", DataType: []string{"text[]"}, Tokenization: models.PropertyTokenizationField, IndexFilterable: yes, IndexSearchable: no},
			text("category_top", models.PropertyTokenizationField, true, false),
			{Name: "attr_keys", DataType: []string{"text[]"}, Tokenization: models.PropertyTokenizationField, IndexFilterable: yes, IndexSearchable: no},
			{Name: "option_keys", DataType: []string{"text[]"}, Tokenization: models.PropertyTokenizationField, IndexFilterable: yes, IndexSearchable: no},
			{Name: "option_price_keys", DataType: []string{"text[]"}, Tokenization: models.PropertyTokenizationField, IndexFilterable: yes, IndexSearchable: no},
			{Name: "variant_skus", DataType: []string{"text[]"}, Tokenization: models.PropertyTokenizationField, IndexFilterable: yes, IndexSearchable: no},
			num("price", "int", true),
			num("price_max", "int", true),
			num("stock", "int", false),
			{Name: "in_stock", DataType: []string{"boolean"}, IndexFilterable: yes},
			num("rating_avg", "number", false),
			num("rating_count", "int", false),
			num("sold_count", "int", false),
			num("generation", "int", true),
		},
	}
}

func boolp(b bool) *bool { return &b }

// ensure creates the collection unless it exists; once it has, later calls
// return at once.
func (b *Backend) ensure(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ensured {
		return nil
	}
	c, err := b.client.Schema().ClassGetter().WithClassName(b.class).Do(ctx)
	switch {
	case err == nil:
		if c.Description != b.classDescription() {
			b.log.WarnContext(ctx, "weaviate: the collection holds vectors of another embedder; run shopbot reindex",
				"collection", b.class, "collection_description", c.Description, "embedder", b.emb.Name())
		}
	case statusCode(err) == http.StatusNotFound:
		if err := b.client.Schema().ClassCreator().WithClass(b.classDef()).Do(ctx); err != nil && !alreadyExists(err) {
			return fmt.Errorf("weaviate: create collection %s: %w", b.class, err)
		}
		b.log.InfoContext(ctx, "weaviate: collection created", "collection", b.class, "embedder", b.emb.Name())
	default:
		return fmt.Errorf("weaviate: collection %s: %w", b.class, err)
	}
	b.ensured = true
	return nil
}

// recreate drops and recreates the collection (Rebuild after a change of
// embedder).
func (b *Backend) recreate(ctx context.Context) error {
	b.mu.Lock()
	b.ensured = false
	b.mu.Unlock()
	if err := b.client.Schema().ClassDeleter().WithClassName(b.class).Do(ctx); err != nil && statusCode(err) != http.StatusNotFound {
		return fmt.Errorf("weaviate: drop collection %s: %w", b.class, err)
	}
	return b.ensure(ctx)
}

// embedderChanged reports whether the collection exists with vectors of
// another embedder.
func (b *Backend) embedderChanged(ctx context.Context) (bool, error) {
	c, err := b.client.Schema().ClassGetter().WithClassName(b.class).Do(ctx)
	switch {
	case err == nil:
		return c.Description != b.classDescription(), nil
	case statusCode(err) == http.StatusNotFound:
		return false, nil
	}
	return false, fmt.Errorf("weaviate: collection %s: %w", b.class, err)
}

// statusCode is the HTTP status of a client error, or 0.
func statusCode(err error) int {
	var fe *fault.WeaviateClientError
	if errors.As(err, &fe) && fe.IsUnexpectedStatusCode {
		return fe.StatusCode
	}
	return 0
}

func alreadyExists(err error) bool {
	return statusCode(err) == http.StatusUnprocessableEntity && strings.Contains(err.Error(), "already exists")
}
