package tools

import (
	"encoding/json"
	"shopbot/engine/toolkit"
	"strings"
	"testing"
)

func TestCompareProducts(t *testing.T) {
	e := newTestEnv(t)
	res := e.call(t, "compare_products", `{"skus":["SHO-RUN-002","SHO-RUN-001"]}`)
	var got struct {
		Products []struct {
			SKU        string            `json:"sku"`
			Price      string            `json:"price"`
			Rating     float64           `json:"rating"`
			InStock    bool              `json:"in_stock"`
			Attributes map[string]string `json:"attributes"`
		} `json:"products"`
		Differences []string `json:"differences"`
	}
	modelData(t, res, &got)
	if len(got.Products) != 2 || got.Products[0].SKU != "SHO-RUN-002" || got.Products[1].SKU != "SHO-RUN-001" {
		t.Fatalf("products = %+v", got.Products)
	}
	if p := got.Products[1]; p.Price != "$89.99" || p.Rating != 4.5 || !p.InStock || p.Attributes["gender"] != "men" {
		t.Errorf("SHO-RUN-001 = %+v", p)
	}
	// Same price, drop, material and waterproofing; different ratings (4.6
	// and 4.5), colours, fits, sizes and weights.
	if d := strings.Join(got.Differences, ","); d != "rating,color,gender,size,weight" {
		t.Errorf("differences = %s", d)
	}
	if len(res.Cards) != 2 || res.Cards[0].SKU != "SHO-RUN-002" {
		t.Errorf("cards = %+v", res.Cards)
	}
	if strings.Join(e.session.State.Shown, ",") != "SHO-RUN-002,SHO-RUN-001" {
		t.Errorf("shown = %v", e.session.State.Shown)
	}

	res = e.call(t, "compare_products", `{"skus":["SHO-RUN-001","APP-JKT-001","ELE-LAP-004"]}`)
	modelData(t, res, &got)
	if d := strings.Join(got.Differences, ","); !strings.HasPrefix(d, "price,rating,") || !strings.Contains(d, ",ram,") ||
		!strings.Contains(d, ",fit,") || !strings.Contains(d, ",color,") {
		t.Errorf("differences of unlike products = %s", d)
	}
}

func TestCompareProductsBadArguments(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ args, want string }{
		{`{"skus":["SHO-RUN-001","NOPE-1","NOPE-2"]}`, "unknown SKUs: NOPE-1, NOPE-2"},
		{`{"skus":["SHO-RUN-001"]}`, "minItems"},
		{`{"skus":["A1","A2","A3","A4","A5","A6"]}`, "maxItems"},
		{`{"skus":["SHO-RUN-001","SHO-RUN-001"]}`, "are equal"},
		{`{"skus":["SHO-RUN-001",""]}`, "minLength"},
		{`{"skus":["SHO-RUN-001",2]}`, "want string"},
		{`{"skus":"SHO-RUN-001,SHO-RUN-002"}`, "want array"},
		{`{}`, "missing property 'skus'"},
		{`{"skus":["SHO-RUN-001","SHO-RUN-002"],"customer_id":1}`, "additional"},
	} {
		if msg := expectToolError(t, e, "compare_products", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("compare_products(%s): %s, want an error mentioning %q", tc.args, msg, tc.want)
		}
	}
}

// modelData decodes what the model reads of a result into v.
func modelData(t *testing.T, res toolkit.Result, v any) {
	t.Helper()
	msg, isErr := toolkit.ModelMessage(res, nil)
	if isErr {
		t.Fatalf("tool message is an error: %s", msg)
	}
	if err := json.Unmarshal([]byte(msg), v); err != nil {
		t.Fatalf("%v in %s", err, msg)
	}
}
