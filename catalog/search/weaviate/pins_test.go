package weaviate_test

import (
	"context"
	"testing"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/indexer"
	"shopbot/catalog/search/searchtest"
)

// TestPins: the merchant's pins over a real Weaviate server.
func TestPins(t *testing.T) {
	db := catalogtest.SQLite(t)
	if _, err := demo.Load(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	searchtest.Pins(t, db, newStack(t, db, indexer.Config{}).backend)
}
