package tools

import (
	"reflect"
	"testing"

	"shopbot/engine/view"
)

// TestAddFromAFilteredList: a product shown by a search with an option
// filter ("trail runner in size 43") is added in that size by its Add
// button; shown without the filter, or not shown at all, it asks. (The
// planner does the same for "add the first one": engine/options_test.go.)
func TestAddFromAFilteredList(t *testing.T) {
	env := newVariantEnv(t)
	env.call(t, "search_products", `{"query":"trail runner","options":{"size":"43"}}`)
	env.session.State.Shown = []string{"TRAIL"} // what the fake search may rank is not the point here
	env.session.Action = &view.Action{Kind: view.ActAdd, SKU: "TRAIL", Qty: 1}
	res := env.call(t, "add_to_cart", `{"sku":"TRAIL"}`)
	if res.Picker != nil || res.Cart == nil {
		t.Fatalf("filtered list: picker %+v, data %+v", res.Picker, res.Data)
	}
	var got []string
	for _, l := range env.cartLines(t) {
		got = append(got, l.SKU)
	}
	if !reflect.DeepEqual(got, []string{"TRAIL-43"}) {
		t.Errorf("cart = %v, want the size the list was filtered by", got)
	}
	if st := env.session.State; st.ListedOptions("TEE") != nil {
		t.Errorf("a product not shown takes the list's options: %v", st.ListedOptions("TEE"))
	}
	env.session.Action = nil
	if res := env.call(t, "add_to_cart", `{"sku":"TRAIL"}`); res.Picker == nil {
		t.Errorf("named by the model, not pressed: no picker, data %+v", res.Data)
	}
	env.session.Action = &view.Action{Kind: view.ActAdd, SKU: "TRAIL", Qty: 1}
	env.session.State.Listing.Options = nil
	if res := env.call(t, "add_to_cart", `{"sku":"TRAIL"}`); res.Picker == nil {
		t.Errorf("unfiltered list: no picker, data %+v", res.Data)
	}
}
