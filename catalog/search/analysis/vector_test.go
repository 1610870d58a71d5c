package analysis

import (
	"strings"
	"testing"

	"shopbot/catalog"
)

func TestVectorText(t *testing.T) {
	p := catalog.Product{
		Title: "Nordvik Rain Jacket", Brand: "Nordvik",
		Category:    &catalog.Category{Path: "Apparel > Jackets > Rain"},
		Attributes:  map[string]string{"color": "navy", "seam_sealed": "yes", "hood": "no"},
		Description: strings.Repeat("Packs into its own pocket. ", 20),
	}
	got := VectorText(&p)
	want := "Nordvik Rain Jacket. Nordvik Rain Jacket. Nordvik. Apparel > Jackets > Rain. navy. seam sealed. Packs into"
	if !strings.HasPrefix(got, want) {
		t.Errorf("vector text\n%q\nwant it to start\n%q", got, want)
	}
	desc := got[len(want)-len("Packs into"):]
	if len(desc) > vectorDescBytes+2 || strings.HasSuffix(strings.TrimSuffix(desc, "."), "Pac") || strings.Contains(got, "hood") {
		t.Errorf("description part %q (%d bytes)", desc, len(desc))
	}
}
