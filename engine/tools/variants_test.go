package tools

import (
	"context"
	"errors"
	"reflect"
	"shopbot/engine/toolkit"
	"slices"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/engine/locale"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

func newVariantEnv(t *testing.T) *testEnv {
	t.Helper()
	env := newTestEnv(t)
	catalogtest.SeedVariants(t, env.db)
	return env
}

// pickerButtons lists a picker's buttons as "label=kind|sku|qty|arg".
func pickerButtons(pk *view.Picker) []string {
	var out []string
	for _, b := range pk.Values {
		out = append(out, b.Label+"="+b.Action.Encode())
	}
	return out
}

func (e *testEnv) cartLines(t *testing.T) []view.CartLine {
	t.Helper()
	cart, err := catalog.GetCart(context.Background(), e.db, e.session.Scope)
	if err != nil {
		t.Fatal(err)
	}
	return view.CartViewOf(cart, "USD").Lines
}

func TestAddToCartParentAsksOneOptionAtATime(t *testing.T) {
	env := newVariantEnv(t)
	res := env.call(t, "add_to_cart", `{"sku":"TEE"}`)
	if res.Picker == nil || res.Cart != nil {
		t.Fatalf("add parent: picker %v cart %v, want a picker and no cart change", res.Picker, res.Cart)
	}
	// Green is no longer sold: not offered; Navy and Red narrow the picker.
	if got, want := pickerButtons(res.Picker), []string{"Navy=opt|TEE|1|0", "Red=opt|TEE|1|1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("colour step = %v, want %v", got, want)
	}
	if res.Picker.Option != "colour" || res.Picker.Prompt != "Which colour?" || res.Picker.PriceText != "from $24.00" {
		t.Errorf("picker = %+v", res.Picker)
	}
	if msg, _ := toolkit.ModelMessage(res, nil); !strings.Contains(msg, `"choose":"colour"`) || !strings.Contains(msg, `"values":["Navy","Red"]`) {
		t.Errorf("model reads %s", msg)
	}
	if lines := env.cartLines(t); len(lines) != 0 {
		t.Fatalf("cart changed: %+v", lines)
	}
	// Navy: L is out of stock, so only M is offered, as the variant's add button.
	res = env.call(t, "add_to_cart", `{"sku":"TEE","quantity":2,"options":{"colour":"navy"}}`)
	if res.Picker == nil {
		t.Fatalf("navy: no picker: %+v", res.Data)
	}
	if got, want := pickerButtons(res.Picker), []string{"M=add|TEE-NAVY-M|2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("size step = %v, want %v", got, want)
	}
	if len(res.Picker.Chosen) != 1 || res.Picker.Chosen[0] != (view.OptionValue{Name: "colour", Value: "Navy"}) {
		t.Errorf("chosen = %+v", res.Picker.Chosen)
	}
}

func TestAddToCartWithOptionsAddsTheVariant(t *testing.T) {
	env := newVariantEnv(t)
	res := env.call(t, "add_to_cart", `{"sku":"TEE","options":{"Colour":"RED","SIZE":"m"}}`)
	if res.Picker != nil || res.Cart == nil {
		t.Fatalf("full choice: picker %+v, cart %v", res.Picker, res.Cart)
	}
	msg, _ := toolkit.ModelMessage(res, nil)
	if !strings.Contains(msg, `"added":{"qty":1,"sku":"TEE-RED-M","title":"Quokka Tee","variant":"Red / M"}`) {
		t.Errorf("model reads %s", msg)
	}
	// Aliases name the option: "color" is the catalog's "colour".
	env.call(t, "add_to_cart", `{"sku":"TEE","options":{"color":"Navy","size":"M"}}`)
	// A variant SKU adds as any product; with options it picks a sibling.
	env.call(t, "add_to_cart", `{"sku":"TRAIL-42"}`)
	env.call(t, "add_to_cart", `{"sku":"TRAIL-42","options":{"size":"43"}}`)
	var got []string
	for _, l := range env.cartLines(t) {
		got = append(got, l.SKU+":"+l.Variant)
	}
	want := []string{"TEE-RED-M:Red / M", "TEE-NAVY-M:Navy / M", "TRAIL-42:42", "TRAIL-43:43"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cart = %v, want %v", got, want)
	}
	res = env.call(t, "view_cart", `{}`)
	if msg, _ := toolkit.ModelMessage(res, nil); !strings.Contains(msg, `"title":"Trail Runner","variant":"42"`) {
		t.Errorf("view_cart reads %s", msg)
	}
}

func TestAddToCartOneOptionIsOneStep(t *testing.T) {
	env := newVariantEnv(t)
	res := env.call(t, "add_to_cart", `{"sku":"TRAIL"}`)
	if res.Picker == nil {
		t.Fatalf("no picker: %+v", res.Data)
	}
	if got, want := pickerButtons(res.Picker), []string{"42=add|TRAIL-42|1", "43=add|TRAIL-43|1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("size step = %v, want %v (41 is out of stock)", got, want)
	}
}

func TestAddToCartVariantOutOfStock(t *testing.T) {
	env := newVariantEnv(t)
	res := env.call(t, "add_to_cart", `{"sku":"TEE","options":{"colour":"Navy","size":"L"}}`)
	if !OutOfStock(res) || res.Cart != nil {
		t.Fatalf("Navy/L: %+v", res.Data)
	}
	if len(res.Buttons) != 1 || res.Buttons[0].Action != (view.Action{Kind: view.ActNotify, SKU: "TEE-NAVY-L"}) {
		t.Errorf("buttons = %+v, want notify me for TEE-NAVY-L", res.Buttons)
	}
	if res.Picker == nil || res.Picker.Option != "size" || len(res.Picker.Values) != 1 || res.Picker.Values[0].Label != "M" {
		t.Errorf("picker = %+v, want the sizes of Navy in stock", res.Picker)
	}
	// Sold out in every size: the notify-me offer on the product.
	res = env.call(t, "add_to_cart", `{"sku":"CAP"}`)
	if !OutOfStock(res) || res.Picker != nil || len(res.Buttons) != 1 || res.Buttons[0].Action != (view.Action{Kind: view.ActNotify, SKU: "CAP"}) {
		t.Errorf("sold out: data %+v picker %+v buttons %+v", res.Data, res.Picker, res.Buttons)
	}
	// A colour no longer sold: what is in stock instead.
	res = env.call(t, "add_to_cart", `{"sku":"TEE","options":{"colour":"green"}}`)
	if !OutOfStock(res) || res.Picker == nil || res.Picker.Option != "colour" {
		t.Errorf("green: data %+v picker %+v", res.Data, res.Picker)
	}
	if lines := env.cartLines(t); len(lines) != 0 {
		t.Fatalf("cart changed: %+v", lines)
	}
}

func TestAddToCartBadOptions(t *testing.T) {
	env := newVariantEnv(t)
	for _, tc := range []struct{ args, want string }{
		{`{"sku":"TEE","options":{"size":"XXL"}}`, "choose one of M, L"},
		{`{"sku":"TEE","options":{"fit":"slim"}}`, "its options are colour, size"},
		{`{"sku":"GRO-COF-001","options":{"size":"42"}}`, "has no options"},
		{`{"sku":"NOPE","options":{"size":"42"}}`, "no product with sku"},
		{`{"sku":"TEE","options":{"a":"1","b":"2","c":"3","d":"4"}}`, "schema"},
		{`{"sku":"TEE","options":{"size":""}}`, "schema"},
		{`{"sku":"TEE","options":{"size":7}}`, "schema"},
	} {
		res, err := env.tools.Call(context.Background(), env.session, "add_to_cart", tc.args)
		msg, isErr := toolkit.ModelMessage(res, err)
		if !isErr || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %s (error %v), want an error with %q", tc.args, msg, isErr, tc.want)
		}
	}
	if lines := env.cartLines(t); len(lines) != 0 {
		t.Fatalf("cart changed: %+v", lines)
	}
}

func TestProductDetailsOfParentListsVariants(t *testing.T) {
	env := newVariantEnv(t)
	res := env.call(t, "get_product_details", `{"sku":"TEE"}`)
	d, ok := res.Data.(productDetails)
	if !ok {
		t.Fatalf("data %T", res.Data)
	}
	want := []variantLine{
		{SKU: "TEE-NAVY-M", Options: "Navy / M", Price: "$25.00", Stock: 3},
		{SKU: "TEE-NAVY-L", Options: "Navy / L", Price: "$27.00", Stock: 0},
		{SKU: "TEE-RED-M", Options: "Red / M", Price: "$24.00", Stock: 5},
	}
	if !reflect.DeepEqual(d.Variants, want) {
		t.Errorf("variants = %+v, want %+v", d.Variants, want)
	}
	if len(res.Buttons) == 0 || res.Buttons[0].Label != "Choose colour" || res.Buttons[0].Action != (view.Action{Kind: view.ActOption, SKU: "TEE", Qty: 1}) {
		t.Errorf("buttons = %+v, want Choose colour first", res.Buttons)
	}
	res = env.call(t, "get_product_details", `{"sku":"CAP"}`)
	if len(res.Buttons) == 0 || res.Buttons[0].Action.Kind != view.ActNotify {
		t.Errorf("sold-out parent buttons = %+v, want notify me first", res.Buttons)
	}
}

// querySearcher records the query search_products sends.
type querySearcher struct{ got []search.Query }

func (q *querySearcher) Search(_ context.Context, sq search.Query) (search.Results, error) {
	q.got = append(q.got, sq)
	return search.Results{}, nil
}

func (q *querySearcher) Similar(context.Context, string, int) ([]catalog.Product, error) {
	return nil, errors.New("not used")
}

func TestSearchProductsPassesOptions(t *testing.T) {
	qs := &querySearcher{}
	tb, err := toolkit.NewToolbox(Tools(&Deps{Search: qs, Currency: "USD"})...)
	if err != nil {
		t.Fatal(err)
	}
	s := &session.Session{State: &session.State{}, Currency: "USD"}
	if _, err := tb.Call(context.Background(), s, "search_products", `{"query":"running shoes","options":{" size ":" 42 ","colour":" "}}`); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Call(context.Background(), s, "search_products", `{"query":"tee"}`); err != nil {
		t.Fatal(err)
	}
	// Without the relaxed searches that look for categories to suggest
	// when nothing is found (search_suggest.go): those drop the filters.
	qs.got = slices.DeleteFunc(qs.got, func(q search.Query) bool { return !q.InStockOnly })
	if len(qs.got) != 2 || !reflect.DeepEqual(qs.got[0].Options, map[string]string{"size": "42"}) || qs.got[1].Options != nil {
		t.Errorf("queries = %+v", qs.got)
	}
	if _, err := tb.Call(context.Background(), s, "search_products", `{"options":{"size":["42"]}}`); err == nil {
		t.Error("options with a list value accepted")
	}
}

// TestPickerInRussian: the picker's question and its "from" price read
// in the shopper's language.
func TestPickerInRussian(t *testing.T) {
	env := newVariantEnv(t)
	env.session.Locale, env.session.Text = "ru", "добавь футболку"
	res := env.call(t, "add_to_cart", `{"sku":"TEE"}`)
	if res.Picker == nil || res.Picker.Prompt != "Выберите: цвет" || res.Picker.PriceText != "от $24.00" {
		t.Errorf("picker = %+v", res.Picker)
	}
	if got := locale.Price("en", "from $24.00"); got != "from $24.00" {
		t.Errorf("en: %q", got)
	}
	if got := locale.Price("ru", "$24.00"); got != "$24.00" {
		t.Errorf("ru plain: %q", got)
	}
}
