package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

func TestGetProductDetails(t *testing.T) {
	e := newTestEnv(t)
	res := e.call(t, "get_product_details", `{"sku":"SHO-RUN-001"}`)
	d, ok := res.Data.(productDetails)
	if !ok {
		t.Fatalf("data is %T", res.Data)
	}
	p, err := catalog.GetProduct(context.Background(), e.db, "SHO-RUN-001")
	if err != nil {
		t.Fatal(err)
	}
	want := productDetails{
		SKU: "SHO-RUN-001", Title: "AeroStride Glide 3 Men's Road Running Shoes", Brand: "AeroStride",
		Category: "Shoes > Running", Price: "$89.99", Stock: 134, InStock: true, Rating: 4.5, Reviews: 1126,
		Description: p.Description, Attributes: p.Attributes,
	}
	// A shoe comes in EU sizes: the model reads each variant's stock.
	for i, size := range []string{"40", "41", "42", "43", "44", "45", "46"} {
		stock := []int{10, 20, 30, 27, 20, 17, 10}[i]
		want.Variants = append(want.Variants, variantLine{SKU: "SHO-RUN-001-" + size, Options: size, Price: "$89.99", Stock: stock})
	}
	if got := toolkit.JSON(d); got != toolkit.JSON(want) {
		t.Errorf("data = %s\nwant   %s", got, toolkit.JSON(want))
	}
	if !strings.HasSuffix(d.Description, "Weighs 270 g in EU 42.") || d.Attributes["drop"] != "8 mm" {
		t.Errorf("description or attributes cut: %q %v", d.Description, d.Attributes)
	}
	if len(res.Cards) != 1 || res.Cards[0].SKU != "SHO-RUN-001" || res.Cards[0].Price != 8999 {
		t.Errorf("cards = %+v", res.Cards)
	}
	if got := buttonData(res.Buttons); got != "opt|SHO-RUN-001|1 sim|SHO-RUN-001" { // a size to choose, not a direct add
		t.Errorf("buttons = %s", got)
	}
	if e.session.State.Focus != "SHO-RUN-001" || strings.Join(e.session.State.Shown, ",") != "SHO-RUN-001" {
		t.Errorf("state = %+v", e.session.State)
	}
}

func TestGetProductDetailsOutOfStockAndArchived(t *testing.T) {
	e := newTestEnv(t)
	res := e.call(t, "get_product_details", `{"sku":"APP-JKT-005"}`)
	if d := res.Data.(productDetails); d.InStock || d.Stock != 0 || d.Price != "$199.00" {
		t.Errorf("out of stock data = %+v", d)
	}
	if got := buttonData(res.Buttons); got != "ntf|APP-JKT-005 sim|APP-JKT-005" { // notify when back, no add
		t.Errorf("out of stock product offers %s", got)
	}

	if err := catalog.SetProductActive(context.Background(), e.db, "SHO-RUN-002", false); err != nil {
		t.Fatal(err)
	}
	e.session.State = &session.State{}
	msg := expectToolError(t, e, "get_product_details", `{"sku":"SHO-RUN-002"}`)
	if !strings.Contains(msg, "no longer sold") || strings.Contains(msg, "89.99") {
		t.Errorf("archived product: %s", msg)
	}
	if e.session.State.Focus != "" {
		t.Errorf("focus moved to an archived product: %+v", e.session.State)
	}
}

func TestGetProductDetailsBadArguments(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ args, want string }{
		{`{"sku":"NOPE-404"}`, `product "NOPE-404": not found`},
		{`{}`, "missing property 'sku'"},
		{`{"sku":""}`, "minLength"},
		{`{"sku":"` + strings.Repeat("X", 65) + `"}`, "maxLength"},
		{`{"sku":42}`, "want string"},
		{`{"sku":"SHO-RUN-001","customer_id":7}`, "additional"},
		{`{"sku":"SHO-RUN-001","user":"someone-else"}`, "additional"},
	} {
		if msg := expectToolError(t, e, "get_product_details", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("get_product_details(%s): %s, want an error mentioning %q", tc.args, msg, tc.want)
		}
	}
}

// TestMyToolsTakeNoIdentity checks the browsing tools' schemas: strict, and
// no parameter that could name a shopper, chat or cart.
func TestMyToolsTakeNoIdentity(t *testing.T) {
	e := newTestEnv(t)
	want := map[string]bool{
		"get_product_details": true, "get_availability": true, "compare_products": true,
		"get_similar_products": true, "get_categories": true, "get_top_selling_products": true,
		"get_reviews_summary": true,
	}
	for _, spec := range e.tools.Specs() {
		if !want[spec.Name] {
			continue
		}
		delete(want, spec.Name)
		if spec.Parameters["additionalProperties"] != false {
			t.Errorf("%s: schema allows additional properties", spec.Name)
		}
		props, _ := spec.Parameters["properties"].(map[string]any)
		for name := range props {
			for _, banned := range []string{"user", "customer", "chat", "cart", "session", "account", "id"} {
				if strings.Contains(name, banned) {
					t.Errorf("%s: parameter %q carries identity", spec.Name, name)
				}
			}
		}
		msg := expectToolError(t, e, spec.Name, `{"sku":"SHO-RUN-001","customer_id":1}`)
		if !strings.Contains(msg, "additional") {
			t.Errorf("%s accepts customer_id: %s", spec.Name, msg)
		}
	}
	for name := range want {
		t.Errorf("tool %s is not in the toolbox", name)
	}
}

// expectToolError calls a tool that must fail and returns the error the
// model reads, decoded from its JSON.
func expectToolError(t *testing.T, e *testEnv, name, args string) string {
	t.Helper()
	res, err := e.tools.Call(context.Background(), e.session, name, args)
	msg, isErr := toolkit.ModelMessage(res, err)
	if !isErr {
		t.Fatalf("%s(%s) succeeded: %s", name, args, msg)
	}
	if len(res.Cards) > 0 || len(res.Buttons) > 0 {
		t.Errorf("%s(%s) failed but returned cards or buttons", name, args)
	}
	var out struct{ Error string }
	if err := json.Unmarshal([]byte(msg), &out); err != nil || out.Error == "" {
		t.Fatalf("%s(%s): tool error %s is not {\"error\": ...}", name, args, msg)
	}
	return out.Error
}

func buttonData(bs []view.Button) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Data)
	}
	return strings.Join(out, " ")
}
