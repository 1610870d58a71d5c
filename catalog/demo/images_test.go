package demo_test

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"shopbot/catalog/demo"
)

// TestTiles: every demo listing's image is a deterministic square PNG,
// Russian titles included; other names are none.
func TestTiles(t *testing.T) {
	ps, err := demo.Products()
	if err != nil {
		t.Fatal(err)
	}
	tiles, other := demo.NewTiles(), demo.NewTiles()
	for i, p := range ps {
		if len(p.Input.ImageURLs) != 1 || p.Input.ImageURLs[0] != demo.ImageURL(p.Input.SKU) {
			t.Errorf("%s: images %v", p.Input.SKU, p.Input.ImageURLs)
			continue
		}
		name := strings.TrimPrefix(demo.ImageURL(p.Input.SKU), "/media/")
		b, ok := tiles.PNG(name)
		if !ok {
			t.Errorf("%s: no tile", name)
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() != 400 || img.Bounds().Dy() != 400 {
			t.Errorf("%s: %v", name, err)
		}
		if i%50 == 0 {
			if again, _ := other.PNG(name); !bytes.Equal(again, b) {
				t.Errorf("%s: two drawings differ", name)
			}
		}
	}
	for _, name := range []string{"demo-NOSUCH.png", "APP-JKT-001.png", "demo-APP-JKT-001.jpg", ""} {
		if _, ok := tiles.PNG(name); ok {
			t.Errorf("%q is a tile", name)
		}
	}
}
