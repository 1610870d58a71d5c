package tools

import (
	"context"
	"slices"
	"strings"
	"testing"

	"shopbot/catalog"
)

func TestGetSimilarProducts(t *testing.T) {
	e := newTestEnv(t)
	if err := catalog.SetProductActive(context.Background(), e.db, "SHO-RUN-004", false); err != nil {
		t.Fatal(err)
	}
	res := e.call(t, "get_similar_products", `{"sku":"SHO-RUN-002"}`)
	var got struct {
		SimilarTo string  `json:"similar_to"`
		Products  []brief `json:"products"`
	}
	modelData(t, res, &got)
	// Shoes > Running holds five products: SHO-RUN-002 itself and the
	// archived SHO-RUN-004 are left out. SHO-RUN-001 costs the same.
	var skus []string
	for _, p := range got.Products {
		skus = append(skus, p.SKU)
	}
	if got.SimilarTo != "SHO-RUN-002" || len(skus) != 3 || skus[0] != "SHO-RUN-001" ||
		!slices.Contains(skus, "SHO-RUN-003") || !slices.Contains(skus, "SHO-RUN-005") {
		t.Errorf("similar to SHO-RUN-002: %+v", got)
	}
	if len(res.Cards) != len(skus) {
		t.Fatalf("%d cards for %d products", len(res.Cards), len(skus))
	}
	for _, c := range res.Cards {
		if c.Category != "Shoes > Running" {
			t.Errorf("card from another category: %+v", c)
		}
	}
	if strings.Join(e.session.State.Shown, ",") != strings.Join(skus, ",") {
		t.Errorf("shown = %v", e.session.State.Shown)
	}

	res = e.call(t, "get_similar_products", `{"sku":"GRO-COF-001"}`)
	if len(res.Cards) != similarLimit {
		t.Errorf("got %d similar coffees, want %d", len(res.Cards), similarLimit)
	}
}

func TestGetSimilarProductsBadArguments(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ args, want string }{
		{`{"sku":"NOPE-404"}`, `product "NOPE-404": not found`},
		{`{"sku":""}`, "minLength"},
		{`{"sku":"SHO-RUN-001","limit":50}`, "additional"},
		{`{"sku":"SHO-RUN-001","session":"x"}`, "additional"},
	} {
		if msg := expectToolError(t, e, "get_similar_products", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("get_similar_products(%s): %s, want an error mentioning %q", tc.args, msg, tc.want)
		}
	}
}
