package embedded

import (
	"context"
	"testing"
	"time"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
)

func TestScratch(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	start := time.Now()
	if _, err := demo.Load(ctx, db); err != nil { t.Fatal(err) }
	t.Log("load", time.Since(start))
	p, _ := catalog.GetProduct(ctx, db, "SHO-RUN-001")
	catalog.ReserveStock(ctx, db, p.ID, 1)
	var raw []string
	db.NewRaw("SELECT typeof(updated_at) || updated_at || '' FROM products ORDER BY updated_at DESC LIMIT 3").Scan(ctx, &raw)
	t.Log(raw)
	t.Log(db.NewSelect().Model((*catalog.Product)(nil)).Column("sku").Where("updated_at > ?", time.Now().Add(-time.Hour).UTC()).String())
}
