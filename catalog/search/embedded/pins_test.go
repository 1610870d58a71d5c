package embedded_test

import (
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/searchtest"
)

// TestPins: the merchant's pins over the embedded index, on both
// database dialects.
func TestPins(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		searchtest.Pins(t, db, demoIndex(t, db, embedded.Options{}))
	})
}
