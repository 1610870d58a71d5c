package tools

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/view"
)

func TestGetTopSellingProducts(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	// The demo catalog has no sales yet, so the most reviewed lead:
	// GRO-HHD-004 (1963 ratings), ELE-SMH-003 (1962), OFF-STA-005 (1958).
	res := e.call(t, "get_top_selling_products", `{"limit":3}`)
	if got := cardSKUs(res.Cards); got != "GRO-HHD-004,ELE-SMH-003,OFF-STA-005" {
		t.Errorf("top 3 = %s", got)
	}
	if strings.Join(e.session.State.Shown, ",") != cardSKUs(res.Cards) {
		t.Errorf("shown = %v", e.session.State.Shown)
	}

	// Sales come first; out-of-stock and archived products are left out.
	if _, err := e.db.NewUpdate().Model((*catalog.Product)(nil)).Set("sold_count = ?", 40).
		Where("sku = ?", "SHO-TRL-003").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.NewUpdate().Model((*catalog.Product)(nil)).Set("stock = 0").
		Where("sku = ?", "SHO-RUN-002").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := catalog.SetProductActive(ctx, e.db, "SHO-RUN-004", false); err != nil {
		t.Fatal(err)
	}
	res = e.call(t, "get_top_selling_products", `{"category":"Shoes > Running"}`)
	if got := cardSKUs(res.Cards); got != "SHO-TRL-003,SHO-RUN-001,SHO-TRL-001,SHO-RUN-003,SHO-RUN-005" {
		t.Errorf("top running shoes = %s", got)
	}
	var data struct {
		Category string  `json:"category"`
		Products []brief `json:"products"`
	}
	modelData(t, res, &data)
	if data.Category != "Shoes > Running" || len(data.Products) != 5 || data.Products[1].Price != "$89.99" || data.Products[1].Reviews != 1126 {
		t.Errorf("data = %+v", data)
	}

	var none struct {
		Products []brief `json:"products"`
		Note     string  `json:"note"`
	}
	modelData(t, e.call(t, "get_top_selling_products", `{"category":"Spaceships"}`), &none)
	if len(none.Products) != 0 || !strings.Contains(none.Note, "get_categories") {
		t.Errorf("unknown category: %+v", none)
	}
}

func TestGetTopSellingProductsBadArguments(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ args, want string }{
		{`{"limit":0}`, "minimum"},
		{`{"limit":11}`, "maximum"},
		{`{"limit":2.5}`, "want integer"},
		{`{"limit":"5"}`, "want integer"},
		{`{"category":"` + strings.Repeat("a", 101) + `"}`, "maxLength"},
		{`{"category":"Shoes","customer":"me"}`, "additional"},
	} {
		if msg := expectToolError(t, e, "get_top_selling_products", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("get_top_selling_products(%s): %s, want an error mentioning %q", tc.args, msg, tc.want)
		}
	}
}

func cardSKUs(cards []view.Card) string {
	skus := make([]string, len(cards))
	for i, c := range cards {
		skus[i] = c.SKU
	}
	return strings.Join(skus, ",")
}
