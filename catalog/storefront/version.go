package storefront

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"

	"github.com/uptrace/bun"
)

// Version fingerprints everything a feed row is made of: the products
// (every product write moves updated_at; the count notices a row gone,
// the sums a roll-up that did not move it), the shop's settings and its
// delivery methods (the countries a feed names). Two reads give the same
// version exactly when no such write happened between them.
func Version(ctx context.Context, db bun.IDB) (string, error) {
	var products struct {
		N       int64          `bun:"n"`
		Last    sql.NullString `bun:"last"`
		Stock   int64          `bun:"stock"`
		Ratings int64          `bun:"ratings"`
	}
	err := db.NewSelect().TableExpr("products").
		ColumnExpr("count(*) AS n, max(updated_at) AS last").
		ColumnExpr("coalesce(sum(stock), 0) AS stock, coalesce(sum(rating_count), 0) AS ratings").
		Scan(ctx, &products)
	if err != nil {
		return "", fmt.Errorf("storefront: catalog version: %w", err)
	}
	var shop struct {
		Settings   sql.NullString `bun:"settings"`
		Deliveries sql.NullString `bun:"deliveries"`
		Methods    int64          `bun:"methods"`
	}
	err = db.NewSelect().
		ColumnExpr("(SELECT max(updated_at) FROM settings) AS settings").
		ColumnExpr("(SELECT max(updated_at) FROM delivery_methods) AS deliveries").
		ColumnExpr("(SELECT count(*) FROM delivery_methods) AS methods").
		Scan(ctx, &shop)
	if err != nil {
		return "", fmt.Errorf("storefront: shop version: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d|%s|%d|%d|%s|%s|%d", products.N, products.Last.String, products.Stock, products.Ratings,
		shop.Settings.String, shop.Deliveries.String, shop.Methods)
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}
